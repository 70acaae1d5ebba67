import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { Definition } from '../../../src/shared/questionnaire/definition';
import { QuestionnaireView } from '../../../src/client/questionnaires/respondent/QuestionnaireView';
import type { Answers } from '../../../src/shared/questionnaire/answers';

const c = (id: string, label: string, goTo?: string) => ({ id, label, ...(goTo ? { goTo } : {}) });

/** One question of each type in the first section; the choice of "role" decides where it goes. */
const DEF: Definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      title: '基本資料',
      questions: [
        { id: 'role', type: 'RADIO', title: '你的身份', required: true, options: [c('p', '家長'), c('t', '老師', 's3')], other: true },
        { id: 'likes', type: 'CHECKBOX', title: '喜歡的活動', required: false, options: [c('a', '閱讀'), c('b', '運動'), c('c', '音樂')], choiceRule: { kind: 'atMost', count: 2 } },
        { id: 'grade', type: 'DROPDOWN', title: '子女年級', required: false, options: [c('g1', '中一'), c('g2', '中二')] },
        { id: 'name', type: 'SHORT_TEXT', title: '姓名', required: false, image: 'questionnaires/a.png' },
        { id: 'note', type: 'PARAGRAPH', title: '意見', required: false, description: '請詳細說明' },
        { id: 'score', type: 'LINEAR_SCALE', title: '滿意程度', required: false, scale: { min: 1, max: 5, minLabel: '很差', maxLabel: '很好' } },
        { id: 'gr', type: 'GRID_RADIO', title: '各科評分', required: false, rows: [c('r1', '中文'), c('r2', '英文')], columns: [c('k1', '好'), c('k2', '一般')] },
        { id: 'gc', type: 'GRID_CHECKBOX', title: '上課日子', required: false, rows: [c('w1', '上午')], columns: [c('d1', '星期一'), c('d2', '星期二')] },
        { id: 'day', type: 'DATE', title: '到訪日期', required: false },
        { id: 'at', type: 'TIME', title: '到訪時間', required: false },
      ],
    },
    { id: 's2', title: '家長部分', questions: [{ id: 'pq', type: 'SHORT_TEXT', title: '家長意見', required: false }] },
    { id: 's3', title: '老師部分', questions: [{ id: 'tq', type: 'SHORT_TEXT', title: '老師意見', required: false }] },
  ],
};

let latest: Answers = {};
function Harness({ definition = DEF, onSubmit, preview }: { definition?: Definition; onSubmit?: (a: Answers) => void; preview?: boolean }) {
  const [value, setValue] = useState<Answers>({});
  latest = value;
  return <QuestionnaireView definition={definition} value={value} onChange={setValue} onSubmit={onSubmit} preview={preview} title="家長日問卷" />;
}
function renderView(props: Parameters<typeof Harness>[0] = {}) {
  return render(
    <TestMemoryRouter>
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <Harness {...props} />
      </AdminContext>
    </TestMemoryRouter>,
  );
}
const card = (id: string) => screen.getByTestId(`question-${id}`);

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  latest = {};
});
afterEach(cleanup);

describe('QuestionnaireView', () => {
  it('renders each of the ten types with its own controls', async () => {
    renderView();
    expect(await screen.findByText('家長日問卷')).toBeTruthy();
    expect(screen.getByTestId('section-counter').textContent).toBe('第 1 區段（共 3 個）');
    // RADIO with "other", required mark
    expect(within(card('role')).getByRole('radiogroup', { name: '你的身份' })).toBeTruthy();
    expect(within(card('role')).getAllByRole('radio')).toHaveLength(3);
    expect(within(card('role')).getByText('其他')).toBeTruthy();
    expect(within(card('role')).getByTestId('required-mark')).toBeTruthy();
    // CHECKBOX, DROPDOWN (native select with "choose")
    expect(within(card('likes')).getAllByRole('checkbox')).toHaveLength(3);
    const select = within(card('grade')).getByRole('combobox', { name: '子女年級' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['請選擇', '中一', '中二']);
    // SHORT_TEXT with its image, PARAGRAPH with its description
    expect(within(card('name')).getByRole('textbox', { name: '姓名' })).toBeTruthy();
    expect((within(card('name')).getByRole('img') as HTMLImageElement).getAttribute('src')).toBe('/qe/storage/questionnaires/a.png');
    expect(within(card('note')).getByRole('textbox', { name: '意見' }).tagName).toBe('TEXTAREA');
    expect(within(card('note')).getByText('請詳細說明')).toBeTruthy();
    // LINEAR_SCALE: a row of 5 radios with its end labels
    expect(within(card('score')).getAllByRole('radio')).toHaveLength(5);
    expect(within(card('score')).getByText('很差')).toBeTruthy();
    expect(within(card('score')).getByText('很好')).toBeTruthy();
    // grids as tables (a wide screen in jsdom): rows × columns
    expect(within(card('gr')).getByTestId('grid-table')).toBeTruthy();
    expect(within(card('gr')).getAllByRole('radio')).toHaveLength(4);
    expect(within(card('gr')).getByRole('radio', { name: '英文: 一般' })).toBeTruthy();
    expect(within(card('gc')).getAllByRole('checkbox')).toHaveLength(2);
    // DATE and TIME inputs: texts in our format, with a button for the browser's picker
    expect((within(card('day')).getByTestId('answer-date') as HTMLInputElement).placeholder).toBe('年-月-日');
    expect((within(card('at')).getByTestId('answer-time') as HTMLInputElement).placeholder).toBe('時:分');
    expect(within(card('day')).getByRole('button', { name: '選擇日期' })).toBeTruthy();
    expect(within(card('at')).getByRole('button', { name: '選擇時間' })).toBeTruthy();
  });

  it('turns a grid into one block per row on a phone', async () => {
    const matchMedia = vi.fn((query: string) => ({
      matches: query.includes('max-width:599.95px'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      onchange: null,
      dispatchEvent: () => false,
    }));
    vi.stubGlobal('matchMedia', matchMedia);
    try {
      renderView();
      const blocks = await within(await screen.findByTestId('question-gr')).findByTestId('grid-blocks');
      expect(within(blocks).getByRole('radiogroup', { name: '中文' })).toBeTruthy();
      expect(within(blocks).getAllByLabelText('好')).toHaveLength(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('blocks "next" on a missing required answer and says why; the answer lets it go on', async () => {
    renderView();
    fireEvent.click(await screen.findByTestId('section-next'));
    expect(within(card('role')).getByTestId('answer-problem').textContent).toBe('此問題必須回答');
    expect(screen.getByTestId('section-problems').textContent).toContain('請更正 1 個');
    expect(screen.getByTestId('section-counter').textContent).toBe('第 1 區段（共 3 個）');
    fireEvent.click(within(card('role')).getByLabelText('家長'));
    // the problem follows the answer as it is corrected
    expect(within(card('role')).queryByTestId('answer-problem')).toBeNull();
    fireEvent.click(screen.getByTestId('section-next'));
    expect(screen.getByTestId('section-counter').textContent).toBe('第 2 區段（共 3 個）');
    expect(screen.getByText('家長意見')).toBeTruthy();
  });

  it('checks the response rules on "next": at most 2 of the checkboxes, "other" needs its text', async () => {
    renderView();
    fireEvent.click(within(await screen.findByTestId('question-role')).getByLabelText('其他'));
    for (const label of ['閱讀', '運動', '音樂']) fireEvent.click(within(card('likes')).getByLabelText(label));
    fireEvent.click(screen.getByTestId('section-next'));
    expect(within(card('role')).getByTestId('answer-problem').textContent).toBe('請填寫「其他」的內容');
    expect(within(card('likes')).getByTestId('answer-problem').textContent).toBe('最多選擇 2 項');
    fireEvent.change(within(card('role')).getByTestId('other-text').querySelector('input') ?? within(card('role')).getByTestId('other-text'), { target: { value: '校友' } });
    fireEvent.click(within(card('likes')).getByLabelText('音樂'));
    expect(screen.queryAllByTestId('answer-problem')).toHaveLength(0);
    expect(latest).toMatchObject({ role: { choice: '__other__', otherText: '校友' }, likes: { choices: ['a', 'b'] } });
  });

  it('follows the branching of the chosen option, comes back the same way, and submits the answers on the way', async () => {
    const onSubmit = vi.fn();
    renderView({ onSubmit });
    fireEvent.click(within(await screen.findByTestId('question-role')).getByLabelText('老師'));
    fireEvent.change(within(card('name')).getByRole('textbox'), { target: { value: '陳大文' } });
    fireEvent.click(screen.getByTestId('section-next'));
    expect(screen.getByText('老師意見')).toBeTruthy();
    expect(screen.getByTestId('section-counter').textContent).toBe('第 3 區段（共 3 個）');
    fireEvent.click(screen.getByTestId('section-back'));
    expect(screen.getByTestId('section-counter').textContent).toBe('第 1 區段（共 3 個）');
    fireEvent.click(screen.getByTestId('section-next'));
    fireEvent.change(screen.getByRole('textbox', { name: '老師意見' }), { target: { value: '很好' } });
    fireEvent.click(screen.getByTestId('section-submit'));
    expect(onSubmit).toHaveBeenCalledWith({ role: { choice: 't' }, name: '陳大文', tq: '很好' });
  });

  it('in preview, "submit" sends nothing and says so', async () => {
    const one: Definition = { version: 1, sections: [{ id: 's', questions: [{ id: 'x', type: 'SHORT_TEXT', title: '問題一', required: false }] }] };
    renderView({ definition: one, preview: true });
    fireEvent.click(await screen.findByTestId('section-submit'));
    expect(screen.getByTestId('preview-finished').textContent).toContain('這是預覽');
  });
});
