import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter, testDataProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { Definition } from '../../../src/shared/questionnaire/definition';
import { QuestionnaireFillingScreen } from '../../../src/client/filling/QuestionnaireFillingScreen';
import { QuestionnaireFillingList } from '../../../src/client/filling/QuestionnaireFillingList';
import { draftKey } from '../../../src/client/filling/draft';
import type { MyQuestionnaire, MyQuestionnaireDetail } from '../../../src/client/filling/model';
import { authFor, fakeFetch, type FetchCall } from '../questionnaires/support';
import { questionnaireDetail } from './support';

const ME = 7; // the user id of support.authFor's identity

/** Written in Chinese first, with every text in English too; "other" with a label of its own on one question, the catalogue's on the other. */
const DEF: Definition = {
  version: 1,
  languages: ['zh-hk', 'en'],
  sections: [
    {
      id: 's1',
      title: '基本資料',
      questions: [
        { id: 'name', type: 'SHORT_TEXT', title: '姓名', required: true },
        { id: 'pick', type: 'RADIO', title: '最喜歡的科目', required: false, options: [{ id: 'o1', label: '中文' }, { id: 'o2', label: '數學' }], other: true, otherLabel: '其他科目' },
        { id: 'many', type: 'CHECKBOX', title: '興趣', required: false, options: [{ id: 'm1', label: '音樂' }], other: true },
      ],
    },
    { id: 's2', title: '意見', questions: [{ id: 'note', type: 'PARAGRAPH', title: '你的意見', required: false }] },
  ],
  closingMessage: '多謝你的寶貴意見！',
  translations: {
    en: {
      closingMessage: 'Thank you for your views!',
      sections: { s1: { title: 'About you' }, s2: { title: 'Views' } },
      questions: {
        name: { title: 'Name' },
        pick: { title: 'Favourite subject', options: { o1: 'Chinese', o2: 'Mathematics' }, otherLabel: 'Another subject' },
        many: { title: 'Interests', options: { m1: 'Music' } },
        note: { title: 'Your views' },
      },
    },
  },
};

const bilingual = (over: Partial<MyQuestionnaireDetail> = {}) =>
  questionnaireDetail(DEF, { title: '學生意見調查', titleTranslation: 'Student survey', languages: ['zh-hk', 'en'], ...over });

function renderScreen(path = '/questionnaire-filling/detail?id=5') {
  return render(
    <TestMemoryRouter initialEntries={[path]}>
      <AdminContext dataProvider={testDataProvider()} authProvider={authFor(['form-input.view'])} i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path="/questionnaire-filling/detail" element={<QuestionnaireFillingScreen key="detail" type="detail" />} />
          <Route path="/questionnaire-filling/view" element={<QuestionnaireFillingScreen key="view" type="view" />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

/** A server holding questionnaire 5: a POST stores the reply (an anonymous one's answers are not shown back), the draft routes answer. */
function fakeServer(start: MyQuestionnaireDetail = bilingual()) {
  let record = start;
  const calls = fakeFetch((call: FetchCall) => {
    if (call.path === '/v1/my/questionnaires/5' && call.method === 'GET') return record;
    if (call.path === '/v1/my/questionnaires/5/draft') return call.method === 'PUT' ? { savedAt: new Date().toISOString() } : null;
    if (call.path === '/v1/my/questionnaires/5/replies' && call.method === 'POST') {
      const { answers } = call.body as { answers: MyQuestionnaireDetail['answers'] };
      record = { ...record, feedbackStatus: 'SUBMITTED', submittedAt: '2025-03-05T02:00:00.000Z', answers: record.type === 'ANONYMOUS' ? null : answers };
      return { submittedAt: record.submittedAt };
    }
    return { status: 404, code: 404, msg: 'no such call' };
  });
  return { posted: () => calls.filter((c) => c.method === 'POST').map((c) => (c.body as { answers: unknown }).answers) };
}

const card = (id: string) => screen.getByTestId(`question-${id}`);
const textIn = (id: string) => within(card(id)).getByRole('textbox') as HTMLInputElement;
const radios = (id: string) => within(card(id)).getAllByRole('radio') as HTMLInputElement[];

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  localStorage.clear();
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await i18nProvider.changeLocale('zh-hk');
});

describe('a questionnaire in two languages, on the answer screen', () => {
  it('is shown in Chinese when the interface is Chinese, and in English when it is English', async () => {
    fakeServer();
    renderScreen();
    expect(await screen.findByRole('heading', { name: '學生意見調查' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '基本資料' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '姓名' })).toBeTruthy();
    expect(within(card('pick')).getByLabelText('數學')).toBeTruthy();
    expect((screen.getByTestId('content-language-zh-hk') as HTMLButtonElement).getAttribute('aria-pressed')).toBe('true');
    cleanup();

    await i18nProvider.changeLocale('en');
    renderScreen();
    expect(await screen.findByRole('heading', { name: 'Student survey' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'About you' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeTruthy();
    expect(within(card('pick')).getByLabelText('Mathematics')).toBeTruthy();
    expect(screen.queryByText('學生意見調查')).toBeNull();
    expect((screen.getByTestId('content-language-en') as HTMLButtonElement).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('group', { name: 'Language of the questionnaire' })).toBeTruthy();
  });

  it('switches language on the screen itself, keeping the answers typed, the section and the local draft', async () => {
    fakeServer();
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    fireEvent.click(within(card('pick')).getByLabelText('數學'));
    fireEvent.click(screen.getByTestId('section-next'));
    fireEvent.change(await screen.findByRole('textbox', { name: '你的意見' }), { target: { value: '很好' } });

    fireEvent.click(screen.getByRole('button', { name: 'English' }));
    // the interface follows (react-admin mounts the app afresh in the new language) …
    expect(await screen.findByRole('textbox', { name: 'Your views' }, { timeout: 5000 })).toBeTruthy();
    await screen.findByRole('button', { name: 'Back' });
    // … on the same section, the answer still there
    expect(screen.getByRole('heading', { name: 'Views' })).toBeTruthy();
    expect(textIn('note').value).toBe('很好');
    expect(JSON.parse(localStorage.getItem(draftKey(ME, 5))!).answers).toEqual({ name: '陳大文', pick: { choice: 'o2' }, note: '很好' });

    fireEvent.click(screen.getByTestId('section-back'));
    expect((await screen.findByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('陳大文');
    expect((within(card('pick')).getByLabelText('Mathematics') as HTMLInputElement).checked).toBe(true);

    // and back to Chinese
    fireEvent.click(screen.getByRole('button', { name: '繁體中文' }));
    expect((await screen.findByRole('textbox', { name: '姓名' }, { timeout: 5000 }) as HTMLInputElement).value).toBe('陳大文');
    expect((within(card('pick')).getByLabelText('數學') as HTMLInputElement).checked).toBe(true);
    await screen.findByRole('button', { name: '下一頁' });
  });

  it('keeps the answers across a switch even when the browser keeps no draft', async () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    fakeServer(bilingual({ type: 'ANONYMOUS' }));
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    expect(screen.getByTestId('draft-note').textContent).toContain('不允許');
    fireEvent.click(screen.getByRole('button', { name: 'English' }));
    // once the screen is in English (mounted afresh), the answer is still there, and the note still true
    await screen.findByRole('button', { name: 'Next' }, { timeout: 5000 });
    expect(textIn('name').value).toBe('陳大文');
    expect(screen.getByTestId('draft-note').textContent).toContain('does not let us keep');
  });

  it('sends the same answers whichever language they were given in', async () => {
    const answer = async (other: string, next: string) => {
      fireEvent.change(textIn('name'), { target: { value: '陳大文' } });
      fireEvent.click(radios('pick')[2]); // "other"
      fireEvent.change(within(card('pick')).getByTestId('other-text'), { target: { value: '視藝' } });
      fireEvent.click(within(card('many')).getAllByRole('checkbox')[0]);
      fireEvent.change(within(card('many')).getByTestId('other-text'), { target: { value: other } });
      fireEvent.click(screen.getByRole('button', { name: next }));
      fireEvent.change(await waitFor(() => textIn('note')), { target: { value: 'OK' } });
      fireEvent.click(screen.getByTestId('section-submit'));
    };
    const zh = fakeServer();
    renderScreen();
    await screen.findByRole('heading', { name: '學生意見調查' });
    await answer('攝影', '下一頁');
    await screen.findByTestId('filling-submitted');
    cleanup();
    localStorage.clear();

    await i18nProvider.changeLocale('en');
    const en = fakeServer();
    renderScreen();
    await screen.findByRole('heading', { name: 'Student survey' });
    await answer('攝影', 'Next');
    await screen.findByTestId('filling-submitted');

    expect(zh.posted()).toHaveLength(1);
    expect(en.posted()).toEqual(zh.posted());
    expect(zh.posted()[0]).toEqual({ name: '陳大文', pick: { choice: '__other__', otherText: '視藝' }, many: { choices: ['m1', '__other__'], otherText: '攝影' }, note: 'OK' });
  });

  it('labels "other" with the question’s own label, or the catalogue’s in the reader’s language', async () => {
    fakeServer();
    renderScreen();
    await screen.findByRole('heading', { name: '學生意見調查' });
    expect(within(card('pick')).getByLabelText('其他科目')).toBeTruthy();
    expect(within(card('many')).getByLabelText('其他')).toBeTruthy();
    cleanup();

    await i18nProvider.changeLocale('en');
    renderScreen();
    await screen.findByRole('heading', { name: 'Student survey' });
    expect(within(card('pick')).getByLabelText('Another subject')).toBeTruthy();
    expect(within(card('many')).getByLabelText('Other')).toBeTruthy();
  });

  it('shows the closing message in the shown language once the reply is submitted', async () => {
    await i18nProvider.changeLocale('en');
    fakeServer();
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Chan' } });
    expect(screen.queryByTestId('closing-message')).toBeNull();
    fireEvent.click(screen.getByTestId('section-next'));
    fireEvent.click(await screen.findByTestId('section-submit'));
    const submitted = await screen.findByTestId('filling-submitted');
    expect(submitted.textContent).toContain('A submission cannot be edited.');
    expect(within(submitted).getByTestId('closing-message').textContent).toBe('Thank you for your views!');
  });

  it('shows the closing message with the confirmation of an anonymous reply', async () => {
    fakeServer(bilingual({ type: 'ANONYMOUS', feedbackStatus: 'SUBMITTED', submittedAt: '2025-03-05T02:00:00.000Z' }));
    renderScreen('/questionnaire-filling/view?id=5');
    const confirmation = await screen.findByTestId('filling-confirmation');
    expect(confirmation.textContent).toContain('已收到你的回覆');
    expect(within(confirmation).getByTestId('closing-message').textContent).toBe('多謝你的寶貴意見！');
    expect(within(confirmation).getByRole('heading', { name: '學生意見調查' })).toBeTruthy();
  });
});

describe('a questionnaire in one language', () => {
  it('offers no switch, and shows its texts as written whatever the interface language', async () => {
    await i18nProvider.changeLocale('en');
    const { closingMessage: _c, translations: _t, ...chineseOnly } = DEF;
    fakeFetch((call) => (call.path === '/v1/my/questionnaires/5' ? questionnaireDetail({ ...chineseOnly, languages: ['zh-hk'] }, { titleTranslation: 'Unused' }) : null));
    renderScreen();
    expect(await screen.findByRole('heading', { name: '學生意見調查' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '姓名' })).toBeTruthy();
    // the catalogue's "Other" is the reader's
    expect(within(card('many')).getByLabelText('Other')).toBeTruthy();
    expect(screen.queryByTestId('content-language')).toBeNull();
  });
});

describe('my questionnaires, in either language', () => {
  const rows: MyQuestionnaire[] = [
    { ...bilingual(), id: 5 },
    { ...questionnaireDetail(DEF), id: 6, title: '只有中文的問卷' },
  ];
  it('lists each title in the reader’s language where the questionnaire has it', async () => {
    await i18nProvider.changeLocale('en');
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1280 });
    render(
      <TestMemoryRouter initialEntries={['/questionnaire-filling/list']}>
        <AdminContext dataProvider={testDataProvider({ getList: async () => ({ data: rows, total: rows.length }) } as never)} authProvider={authFor(['form-input.view'])} i18nProvider={i18nProvider} store={memoryStore()}>
          <Routes>
            <Route path="/questionnaire-filling/list" element={<QuestionnaireFillingList />} />
          </Routes>
        </AdminContext>
      </TestMemoryRouter>,
    );
    const table = await screen.findByTestId('list-filling');
    expect(await within(table).findByText('Student survey')).toBeTruthy();
    expect(within(table).getByText('只有中文的問卷')).toBeTruthy();
    expect(within(table).queryByText('學生意見調查')).toBeNull();
  });
});
