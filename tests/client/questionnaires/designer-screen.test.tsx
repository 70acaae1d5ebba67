import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import type { NavigateFunction } from 'react-router-dom';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { Definition, QuestionType } from '../../../src/shared/questionnaire/definition';
import type { Questionnaire } from '../../../src/shared/questionnaire/types';
import DesignerScreen from '../../../src/client/questionnaires/designer/DesignerScreen';
import { TYPE_ORDER } from '../../../src/client/questionnaires/designer/typeIcons';

vi.mock('../../../src/client/providers/upload', () => ({
  upload: vi.fn(async () => ({ path: 'questionnaires/2025/pic.png' })),
}));

const DEF: Definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      questions: [
        { id: 'a', type: 'SHORT_TEXT', title: '問題甲', required: true },
        { id: 'b', type: 'PARAGRAPH', title: '問題乙', required: false },
        { id: 'c', type: 'DATE', title: '問題丙', required: false },
      ],
    },
    { id: 's2', title: '第二部分', questions: [{ id: 'd', type: 'TIME', title: '問題丁', required: false }] },
  ],
};

function record(over: Partial<Questionnaire> = {}): Questionnaire {
  return {
    id: 5,
    title: '家長日意見調查',
    titleTranslation: null,
    languages: ['zh-hk'],
    schoolYearId: 3,
    inChargeId: 7,
    inCharge: { id: 7, nameHk: '李老師', nameEn: 'Lee' },
    assistantIds: [],
    type: 'NAMED',
    status: 'PREPARING',
    openDate: null,
    endDate: null,
    createDate: '2025-02-20T02:00:00.000Z',
    lastNoticeTime: null,
    targets: [],
    audienceCount: 0,
    submittedCount: 0,
    respondentCount: 0,
    hasReplies: false,
    mayEdit: true,
    definition: structuredClone(DEF),
    ...over,
  };
}

type Call = { method: string; path: string; body: unknown };
let calls: Call[] = [];
/** A fake server: GET answers the record, PUT what `onPut` says (the saved record by default). */
function fakeServer(rec: Questionnaire, onPut?: (body: { definition: Definition }) => { status: number; envelope: unknown }) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const call = { method: init?.method ?? 'GET', path: new URL(url, 'http://localhost').pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      let status = 200;
      let envelope: unknown = { code: 200, msg: 'ok', data: rec };
      if (call.method === 'PUT') {
        const answer = onPut?.(call.body as { definition: Definition }) ?? {
          status: 200,
          envelope: { code: 200, msg: 'ok', data: { ...rec, definition: (call.body as { definition: Definition }).definition } },
        };
        status = answer.status;
        envelope = answer.envelope;
      }
      return new Response(JSON.stringify(envelope), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
}

let navigate: NavigateFunction | null = null;
let location = { pathname: '', search: '' };
async function renderDesigner(rec = record(), onPut?: Parameters<typeof fakeServer>[1]) {
  fakeServer(rec, onPut);
  render(
    <TestMemoryRouter initialEntries={['/forms/doc?id=5']} navigateCallback={(n) => (navigate = n)} locationCallback={(l) => (location = l)}>
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <DesignerScreen />
      </AdminContext>
    </TestMemoryRouter>,
  );
  await screen.findByTestId('designer');
}
const editors = () => screen.getAllByTestId('question-editor');
const titles = () => screen.getAllByTestId('question-title').map((el) => (el as HTMLTextAreaElement).value);

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the designer', () => {
  it('loads the questionnaire: its title, status and questions, numbered through the sections', async () => {
    await renderDesigner();
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/v1/questionnaires/5' });
    expect(screen.getByTestId('designer-title').textContent).toBe('家長日意見調查');
    expect(screen.getByTestId('designer-status').textContent).toBe('設計中');
    expect(titles()).toEqual(['問題甲', '問題乙', '問題丙', '問題丁']);
    expect(screen.getAllByTestId('question-number').map((n) => n.textContent)).toEqual(['問題 1', '問題 2', '問題 3', '問題 4']);
    expect(screen.getAllByTestId('section-editor')).toHaveLength(2);
    expect(screen.queryByTestId('designer-dirty')).toBeNull();
  });

  describe('adding a question', () => {
    // one question added per test: each adding step re-renders every question on the screen,
    // so ten in one test grew quadratically (over 30 s on a busy 2-core machine)
    // two sections of one question each: the least that shows where a question is added and where it may branch to
    const SMALL: Definition = {
      version: 1,
      sections: [
        { id: 's1', questions: [{ id: 'a', type: 'SHORT_TEXT', title: '問題甲', required: true }] },
        { id: 's2', title: '第二部分', questions: [{ id: 'd', type: 'TIME', title: '問題丁', required: false }] },
      ],
    };
    async function addQuestion(type: QuestionType): Promise<HTMLElement> {
      await renderDesigner(record({ definition: structuredClone(SMALL) }));
      fireEvent.click(screen.getByTestId('add-question-0'));
      fireEvent.click(await screen.findByTestId(`add-type-${type}`));
      // added at the end of the first section, before the second section's question
      await waitFor(() => expect(editors()).toHaveLength(3));
      expect(titles()[2]).toBe('問題丁');
      const added = editors()[1];
      expect(added.getAttribute('data-question-type')).toBe(type);
      expect(screen.getByTestId('designer-dirty')).toBeTruthy();
      return added;
    }

    /** What a new question of each type offers besides its title. */
    const SETTINGS: Record<QuestionType, (added: HTMLElement) => void> = {
      SHORT_TEXT: (added) => expect(within(added).getByTestId('text-rule')).toBeTruthy(),
      PARAGRAPH: (added) => expect(within(added).queryByTestId('choice-label')).toBeNull(),
      RADIO: (added) => {
        expect(
          within(added)
            .getAllByTestId('choice-label')
            .map((i) => (i as HTMLInputElement).value),
        ).toEqual(['選項 1']);
        expect(within(added).getByTestId('add-other')).toBeTruthy();
      },
      CHECKBOX: (added) => expect(within(added).getByTestId('choice-rule')).toBeTruthy(),
      DROPDOWN: (added) => {
        expect(within(added).queryByTestId('add-other')).toBeNull();
        expect(within(added).getByTestId('branching-switch')).toBeTruthy();
      },
      LINEAR_SCALE: (added) => expect((within(added).getByTestId('scale-max') as HTMLSelectElement).value).toBe('5'),
      GRID_RADIO: (added) => {
        expect(within(added).getByTestId('choices-row')).toBeTruthy();
        expect(within(within(added).getByTestId('choices-column')).getAllByTestId('choice-label')).toHaveLength(2);
        expect(within(added).getByTestId('one-per-column')).toBeTruthy();
      },
      GRID_CHECKBOX: (added) => expect(within(added).getByTestId('choice-rule')).toBeTruthy(),
      DATE: (added) => expect(within(added).queryByTestId('choice-label')).toBeNull(),
      TIME: (added) => expect(within(added).queryByTestId('choice-label')).toBeNull(),
    };

    it('offers the ten types, in the designer order', async () => {
      await renderDesigner(record({ definition: structuredClone(SMALL) }));
      fireEvent.click(screen.getByTestId('add-question-0'));
      await screen.findByTestId(`add-type-${TYPE_ORDER[0]}`);
      expect(screen.getAllByTestId(/^add-type-/).map((b) => b.getAttribute('data-testid'))).toEqual(TYPE_ORDER.map((type) => `add-type-${type}`));
    });

    it.each(TYPE_ORDER)('adds a %s question with the settings of its type', async (type) => {
      SETTINGS[type](await addQuestion(type));
    });

    it('gives a new choice question more options, an "other" option and branching', async () => {
      const radio = await addQuestion('RADIO');
      fireEvent.click(within(radio).getByTestId('add-option'));
      expect(
        within(radio)
          .getAllByTestId('choice-label')
          .map((i) => (i as HTMLInputElement).value),
      ).toEqual(['選項 1', '選項 2']);
      fireEvent.click(within(radio).getByTestId('add-other'));
      expect(within(radio).getByTestId('other-option')).toBeTruthy();
      fireEvent.click(within(radio).getByTestId('branching-switch'));
      fireEvent.change(within(radio).getAllByTestId('choice-goto')[1], { target: { value: 'END' } });
      expect((within(radio).getAllByTestId('choice-goto')[1] as HTMLSelectElement).value).toBe('END');
      // the first section's own choices: only the later section and the end can be chosen
      const goto = within(radio).getAllByTestId('choice-goto')[0] as HTMLSelectElement;
      expect([...goto.options].map((o) => [o.textContent, o.disabled])).toEqual([
        ['繼續（按區段設定）', false],
        ['前往第 1 區段', true],
        ['前往第 2 區段（第二部分）', false],
        ['提交問卷', false],
      ]);
    });
  });

  it('reorders with the keyboard buttons, across sections too, keeping the focus on the button', async () => {
    await renderDesigner();
    const downA = within(editors()[0]).getByTestId('question-down');
    expect((within(editors()[0]).getByTestId('question-up') as HTMLButtonElement).disabled).toBe(true);
    downA.focus();
    fireEvent.click(downA);
    expect(titles()).toEqual(['問題乙', '問題甲', '問題丙', '問題丁']);
    await waitFor(() => expect(document.activeElement?.getAttribute('data-move')).toBe('a:down'));
    // the announcement renders after the focus moves (a state update of the same timer): wait for it too
    await waitFor(() => expect(screen.getByTestId('designer-announcement').textContent).toBe('此問題現為問題 2'));
    fireEvent.click(within(editors()[1]).getByTestId('question-down'));
    fireEvent.click(within(editors()[2]).getByTestId('question-down'));
    // past the end of section 1 into section 2
    expect(titles()).toEqual(['問題乙', '問題丙', '問題甲', '問題丁']);
    const [, second] = screen.getAllByTestId('section-editor');
    expect(
      within(second)
        .getAllByTestId('question-title')
        .map((el) => (el as HTMLTextAreaElement).value),
    ).toEqual(['問題甲', '問題丁']);
    fireEvent.click(within(editors()[3]).getByTestId('question-up'));
    expect(titles()).toEqual(['問題乙', '問題丙', '問題丁', '問題甲']);
    expect((within(editors()[3]).getByTestId('question-down') as HTMLButtonElement).disabled).toBe(true);
    // the drag handle is a keyboard-operable button
    const handle = within(editors()[0]).getAllByTestId('drag-handle')[0];
    expect(handle.getAttribute('role')).toBe('button');
    expect(handle.getAttribute('tabindex')).toBe('0');
    expect(handle.getAttribute('aria-label')).toBe('移動問題 1');
  });

  it('duplicates and deletes (after a confirmation)', async () => {
    await renderDesigner();
    fireEvent.click(within(editors()[0]).getByTestId('question-duplicate'));
    expect(titles()).toEqual(['問題甲', '問題甲', '問題乙', '問題丙', '問題丁']);
    fireEvent.click(within(editors()[1]).getByTestId('question-delete'));
    expect(await screen.findByText('刪除此問題？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '移除' }));
    await waitFor(() => expect(titles()).toEqual(['問題甲', '問題乙', '問題丙', '問題丁']));
  });

  it('its JSON import refuses a bad file with the reason, and replaces the questions with a good one after a confirmation', async () => {
    await renderDesigner();
    const input = screen.getByTestId('designer-import-file');
    const pick = (text: string) => fireEvent.change(input, { target: { files: [new File([text], 'q.json', { type: 'application/json' })] } });
    pick('{"version":1,"sections":[]}');
    const refused = await screen.findByTestId('import-refused');
    expect(within(refused).getByText('區段: 最少要有一個區段')).toBeTruthy();
    fireEvent.click(within(refused).getByRole('button', { name: '關閉' }));
    await waitFor(() => expect(screen.queryByTestId('import-refused')).toBeNull());

    pick('{"version":1,"sections":[{"id":"x","questions":[{"id":"q","type":"RADIO","title":"","required":true,"options":[]}]}]}');
    const again = await screen.findByTestId('import-refused');
    expect(within(again).getByText('第 1 區段 › 問題 1 › 標題: 必填')).toBeTruthy();
    expect(within(again).getByText('第 1 區段 › 問題 1 › 選項: 選擇項目不足（選項及列最少一個，欄最少兩個）')).toBeTruthy();
    fireEvent.click(within(again).getByRole('button', { name: '關閉' }));
    await waitFor(() => expect(screen.queryByTestId('import-refused')).toBeNull());

    pick('not json');
    expect(within(await screen.findByTestId('import-refused')).getByText('此檔案不是 JSON 格式的問卷檔案。')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('import-refused')).getByRole('button', { name: '關閉' }));
    await waitFor(() => expect(screen.queryByTestId('import-refused')).toBeNull());

    pick(JSON.stringify({ version: 1, sections: [{ id: 'n', questions: [{ id: 'n1', type: 'DATE', title: '新問題', required: true }] }] }));
    expect(await screen.findByText('以檔案中的 1 個問題取代畫面上的全部問題？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '取代' }));
    await waitFor(() => expect(titles()).toEqual(['新問題']));
    expect(screen.getByTestId('designer-dirty')).toBeTruthy();
  });

  it('checks the definition before saving and shows each problem at its input; then saves with PUT {definition}', async () => {
    await renderDesigner();
    fireEvent.change(within(editors()[0]).getByTestId('question-title'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('designer-save'));
    expect(within(editors()[0]).getByText('必填')).toBeTruthy();
    expect(screen.getByTestId('designer-problems').textContent).toContain('第 1 區段 › 問題 1 › 標題: 必填');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    fireEvent.change(within(editors()[0]).getByTestId('question-title'), { target: { value: '你的姓名' } });
    expect(within(editors()[0]).queryByText('必填')).toBeNull();
    fireEvent.click(screen.getByTestId('designer-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/v1/questionnaires/5');
    expect((put.body as { definition: Definition }).definition.sections[0].questions[0].title).toBe('你的姓名');
    await waitFor(() => expect(screen.queryByTestId('designer-dirty')).toBeNull());
  });

  it("puts the server's 422 field errors (definition.<path>) on their inputs", async () => {
    await renderDesigner(record(), () => ({ status: 422, envelope: { code: 422, msg: '資料有誤', data: { definition: '問題內容有誤', 'definition.sections.1.questions.0.title': '標題已被使用' } } }));
    fireEvent.click(screen.getByTestId('designer-save'));
    expect(await within(editors()[3]).findByText('標題已被使用')).toBeTruthy();
    expect(screen.getByTestId('designer-problems').textContent).toContain('問題內容有誤');
    expect(screen.getByTestId('designer-problems').textContent).toContain('第 2 區段 › 問題 4 › 標題: 標題已被使用');
  });

  it('completes the design from its own toolbar: unsaved changes saved first, then POST ready, then the questionnaire screen', async () => {
    await renderDesigner(record({ targets: [{ kind: 'ALL_STUDENTS' }] }));
    fireEvent.change(within(editors()[0]).getByTestId('question-title'), { target: { value: '你的姓名' } });
    fireEvent.click(screen.getByTestId('designer-ready'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/forms/view', search: '?id=5' }));
    const sent = calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
    expect(sent).toEqual(['PUT /v1/questionnaires/5', 'POST /v1/questionnaires/5/ready']);
  });

  it('does not complete a design with problems or without an audience, and says why', async () => {
    await renderDesigner(record({ targets: [{ kind: 'ALL_STUDENTS' }] }));
    fireEvent.change(within(editors()[0]).getByTestId('question-title'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('designer-ready'));
    expect(screen.getByTestId('designer-problems').textContent).toContain('第 1 區段 › 問題 1 › 標題: 必填');
    cleanup();
    await renderDesigner(record({ targets: [] }));
    fireEvent.click(screen.getByTestId('designer-ready'));
    // (the warning "請選擇目標對象" is a notification): nothing sent, the designer stays
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
    expect(location.pathname).toBe('/forms/doc');
  });

  it('refuses a pattern the answer check cannot run, as it is typed and on save, saying what is not supported', async () => {
    const definition: Definition = { version: 1, sections: [{ id: 's1', questions: [{ id: 'a', type: 'SHORT_TEXT', title: '電話', required: true, textRule: { kind: 'pattern', pattern: '[0-9]{8}' } }] }] };
    await renderDesigner(record({ definition }));
    const rule = within(editors()[0]).getByTestId('text-rule');
    const pattern = within(rule).getByTestId('text-rule-pattern');
    const unsupported = '此格式無法使用：請檢查寫法。不支援反向參照（例如 \\1）及前瞻或後顧（例如 (?=…)、(?!…)、(?<=…)、(?<!…)），重複次數最多 1000';
    expect(rule.textContent).toContain('整個答案須符合此格式，例如 [0-9]{8}');
    expect(rule.textContent).not.toContain(unsupported);

    // a back-reference: said at once, under the pattern, in place of the help
    fireEvent.change(pattern, { target: { value: '(a)\\1' } });
    expect(rule.textContent).toContain(unsupported);
    expect(rule.textContent).not.toContain('整個答案須符合此格式');
    // and on save: nothing is sent, the summary names the rule
    fireEvent.click(screen.getByTestId('designer-save'));
    expect(screen.getByTestId('designer-problems').textContent).toContain(`第 1 區段 › 問題 1 › 回應驗證: ${unsupported}`);
    expect(rule.textContent?.split(unsupported)).toHaveLength(2); // once at the rule, not twice
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    // a lookahead, and a pattern too costly to check
    fireEvent.change(pattern, { target: { value: '(?=x)x' } });
    expect(rule.textContent).toContain(unsupported);
    fireEvent.change(pattern, { target: { value: '(?:(?:a|aa|aaa){1,1000})+b' } });
    expect(rule.textContent).toContain('此格式太複雜（或連同問卷其他格式太複雜），未能快速檢查答案');
    fireEvent.click(screen.getByTestId('designer-save'));
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    // a pattern RE2 runs: no message, and it is saved as written
    fireEvent.change(pattern, { target: { value: '[2-9]\\d{7}' } });
    expect(rule.textContent).not.toContain('此格式無法使用');
    expect(rule.textContent).not.toContain('此格式太複雜');
    expect(rule.textContent).toContain('整個答案須符合此格式');
    fireEvent.click(screen.getByTestId('designer-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect((put.body as { definition: Definition }).definition.sections[0].questions[0].textRule).toEqual({ kind: 'pattern', pattern: '[2-9]\\d{7}' });
  });

  it('asks before leaving with unsaved changes', async () => {
    await renderDesigner();
    fireEvent.change(within(editors()[0]).getByTestId('question-title'), { target: { value: '改了' } });
    act(() => void navigate!('/forms/list'));
    expect(await screen.findByText('放棄未儲存的內容？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByText('放棄未儲存的內容？')).toBeNull());
    expect(location.pathname).toBe('/forms/doc');
    act(() => void navigate!('/forms/list'));
    fireEvent.click(await screen.findByRole('button', { name: '放棄' }));
    await waitFor(() => expect(location.pathname).toBe('/forms/list'));
  });

  it('refuses a file that is no image, or larger than 2 MB, before sending; uploads an image and shows it', async () => {
    await renderDesigner();
    const file = within(editors()[0]).getByTestId('image-file');
    fireEvent.change(file, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect((await within(editors()[0]).findByTestId('image-error')).textContent).toBe('只可上載圖片檔案（PNG、JPEG、GIF、WebP）');
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    fireEvent.change(file, { target: { files: [big] } });
    expect((await within(editors()[0]).findByTestId('image-error')).textContent).toBe('圖片不可大於 2 MB');
    fireEvent.change(file, { target: { files: [new File(['png'], 'pic.png', { type: 'image/png' })] } });
    const img = await within(editors()[0]).findByTestId('image-preview');
    expect(img.getAttribute('src')).toBe('/qe/storage/questionnaires/2025/pic.png');
  });

  it('opens the preview full screen, as a respondent sees it', async () => {
    await renderDesigner();
    fireEvent.click(screen.getByTestId('designer-preview'));
    const dialog = await screen.findByTestId('preview-dialog');
    expect(within(dialog).getByText('家長日意見調查')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('section-next'));
    expect(within(dialog).getByText('此問題必須回答')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('preview-close'));
    await waitFor(() => expect(screen.queryByTestId('preview-dialog')).toBeNull());
  });

  it('is read-only with the preview once the questionnaire is no longer in design', async () => {
    await renderDesigner(record({ status: 'NOT_OPEN' }));
    expect(screen.getByTestId('designer-read-only').textContent).toContain('未開始');
    expect(screen.queryByTestId('designer-save')).toBeNull();
    expect(screen.queryByTestId('designer-import')).toBeNull();
    expect(screen.queryByTestId('question-editor')).toBeNull();
    expect(screen.getByTestId('questionnaire-view')).toBeTruthy();
    expect(screen.getByTestId('designer-export')).toBeTruthy();
  });

  it('says "record not found" without an id', async () => {
    fakeServer(record());
    render(
      <TestMemoryRouter initialEntries={['/forms/doc']}>
        <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
          <DesignerScreen />
        </AdminContext>
      </TestMemoryRouter>,
    );
    expect(await screen.findByTestId('record-not-found')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});
