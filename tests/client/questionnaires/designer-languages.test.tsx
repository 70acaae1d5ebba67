import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { Definition } from '../../../src/shared/questionnaire/definition';
import type { Questionnaire } from '../../../src/shared/questionnaire/types';
import DesignerScreen from '../../../src/client/questionnaires/designer/DesignerScreen';
import { parseDefinitionFile } from '../../../src/client/questionnaires/designer/DefinitionFile';
import { describePath } from '../../../src/client/questionnaires/designer/problems';
import { languageChange, titlesWithLanguages, translationGaps } from '../../../src/client/questionnaires/designer/translations';
import { questionnaire } from './support';

vi.mock('../../../src/client/providers/upload', () => ({ upload: vi.fn(async () => ({ path: 'questionnaires/2025/pic.png' })) }));

/** Two questions, one with an option: five texts to translate with the title. */
const CHINESE: Definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      questions: [
        { id: 'a', type: 'SHORT_TEXT', title: '你的姓名', required: true },
        { id: 'b', type: 'RADIO', title: '會否出席', required: false, options: [{ id: 'o1', label: '會' }] },
      ],
    },
  ],
};

/** The same in two languages, Chinese first, with only the first question's title and the option in English. */
const BOTH: Definition = {
  ...structuredClone(CHINESE),
  languages: ['zh-hk', 'en'],
  translations: { en: { questions: { a: { title: 'Your name' }, b: { options: { o1: 'Yes' } } } } },
};

const record = (over: Partial<Questionnaire> = {}): Questionnaire => questionnaire({ id: 5, definition: structuredClone(CHINESE), ...over });

type Call = { method: string; path: string; body: unknown };
let calls: Call[] = [];
let location = { pathname: '', search: '' };

/** A fake server: GET answers the record, PUT the record as sent, POST ready what `onReady` says (the record by default). */
function fakeServer(rec: Questionnaire, onReady?: () => { status: number; envelope: unknown }) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const call = { method: init?.method ?? 'GET', path: new URL(url, 'http://localhost').pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      let answer = { status: 200, envelope: { code: 200, msg: 'ok', data: rec } as unknown };
      if (call.method === 'PUT') answer = { status: 200, envelope: { code: 200, msg: 'ok', data: { ...rec, ...(call.body as object) } } };
      if (call.path.endsWith('/ready') && onReady) answer = onReady();
      return new Response(JSON.stringify(answer.envelope), { status: answer.status, headers: { 'content-type': 'application/json' } });
    }),
  );
}

async function renderDesigner(rec: Questionnaire, { view, onReady }: { view?: string; onReady?: () => { status: number; envelope: unknown } } = {}) {
  fakeServer(rec, onReady);
  render(
    <TestMemoryRouter initialEntries={[`/forms/doc?id=5${view ? `&view=${view}` : ''}`]} locationCallback={(l) => (location = l)}>
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <DesignerScreen />
      </AdminContext>
    </TestMemoryRouter>,
  );
  await screen.findByTestId('designer');
}

const rows = () => screen.getAllByTestId('translation-row');
const row = (path: string) => rows().find((r) => r.getAttribute('data-path') === path)!;
const input = (path: string) => within(row(path)).getByTestId('translation-input') as HTMLInputElement;
const put = () => calls.find((c) => c.method === 'PUT')?.body as { definition: Definition; title?: string; titleTranslation?: string | null } | undefined;

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the designer in two languages', () => {
  it('has no translations view in one language; choosing both adds it, and a translation typed there is saved in the definition', async () => {
    await renderDesigner(record());
    expect(screen.queryByTestId('designer-views')).toBeNull();
    expect((screen.getByTestId('languages-set') as HTMLSelectElement).value).toBe('zhHk');

    // adding a language changes nothing written: no question asked
    fireEvent.change(screen.getByTestId('languages-set'), { target: { value: 'both' } });
    expect((screen.getByTestId('languages-main') as HTMLSelectElement).value).toBe('zh-hk');
    expect(screen.getByTestId('view-translations').textContent).toBe('翻譯（4 項未填）');

    fireEvent.click(screen.getByTestId('view-translations'));
    const panel = await screen.findByTestId('translations-panel');
    expect(within(panel).getByTestId('translations-count').textContent).toBe('尚有 4 項未有英文文字');
    expect(rows().map((r) => r.getAttribute('data-path'))).toEqual(['titleTranslation', 'sections.0.questions.0.title', 'sections.0.questions.1.title', 'sections.0.questions.1.options.0.label']);
    // each with its place and its main text, every one marked missing
    expect(row('sections.0.questions.1.options.0.label').textContent).toContain('第 1 區段 › 問題 2 › 選項 1 › 文字');
    expect(within(row('sections.0.questions.1.title')).getByTestId('translation-original').textContent).toBe('會否出席');
    expect(rows().every((r) => r.getAttribute('data-missing') === 'true')).toBe(true);
    expect(row('sections.0.questions.0.title').textContent).toContain('未有英文文字');
    expect(input('sections.0.questions.0.title').getAttribute('aria-label')).toBe('第 1 區段 › 問題 1 › 標題（英文）');

    fireEvent.change(input('sections.0.questions.0.title'), { target: { value: 'Your name' } });
    fireEvent.change(input('titleTranslation'), { target: { value: 'Parents day survey' } });
    expect(row('sections.0.questions.0.title').getAttribute('data-missing')).toBe('false');
    expect(screen.getByTestId('translations-count').textContent).toBe('尚有 2 項未有英文文字');

    fireEvent.click(screen.getByTestId('designer-save'));
    await waitFor(() => expect(put()).toBeTruthy());
    expect(put()!.definition.languages).toEqual(['zh-hk', 'en']);
    expect(put()!.definition.translations).toEqual({ en: { questions: { a: { title: 'Your name' } } } });
    expect(put()).toMatchObject({ title: '家長日意見調查', titleTranslation: 'Parents day survey' });
  });

  it('"only the untranslated" keeps a row being filled in', async () => {
    await renderDesigner(record({ definition: structuredClone(BOTH), languages: ['zh-hk', 'en'] }), { view: 'translations' });
    await screen.findByTestId('translations-panel');
    fireEvent.click(screen.getByTestId('translations-only-missing'));
    expect(rows().map((r) => r.getAttribute('data-path'))).toEqual(['titleTranslation', 'sections.0.questions.1.title']);
    fireEvent.change(input('sections.0.questions.1.title'), { target: { value: 'Will you come?' } });
    expect(rows()).toHaveLength(2);
  });

  it('asks before a new main language swaps the texts, then swaps them and the title', async () => {
    await renderDesigner(record({ definition: structuredClone(BOTH), languages: ['zh-hk', 'en'], titleTranslation: 'Parents day survey' }));
    fireEvent.change(screen.getByTestId('languages-main'), { target: { value: 'en' } });
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('主要語言會改為英文：已填寫的英文翻譯會成為問題的文字，原有的中文文字會成為翻譯。');
    fireEvent.click(within(dialog).getByRole('button', { name: '更改' }));
    await waitFor(() => expect((screen.getByTestId('languages-main') as HTMLSelectElement).value).toBe('en'));
    expect(screen.getAllByTestId('question-title').map((t) => (t as HTMLTextAreaElement).value)).toEqual(['Your name', '會否出席']);
    expect(screen.getByTestId('designer-title').textContent).toBe('Parents day survey');

    fireEvent.click(screen.getByTestId('designer-save'));
    await waitFor(() => expect(put()).toBeTruthy());
    expect(put()).toMatchObject({ title: 'Parents day survey', titleTranslation: '家長日意見調查' });
    expect(put()!.definition.languages).toEqual(['en', 'zh-hk']);
    expect(put()!.definition.translations).toEqual({ 'zh-hk': { questions: { a: { title: '你的姓名' }, b: { options: { o1: '會' } } } } });
  });

  it('design complete names every missing translation in a dialog, calls nothing, and leads to the translations', async () => {
    await renderDesigner(record({ definition: structuredClone(BOTH), languages: ['zh-hk', 'en'], targets: [{ kind: 'ALL_STUDENTS' }] }));
    fireEvent.click(screen.getByTestId('designer-ready'));
    const dialog = await screen.findByTestId('missing-translations');
    const items = within(dialog).getAllByTestId('missing-translation');
    expect(items.map((i) => i.getAttribute('data-path'))).toEqual(['titleTranslation', 'sections.0.questions.1.title']);
    expect(items[0].textContent).toBe('問卷標題未有英文文字');
    expect(items[1].textContent).toBe('第 1 區段 › 問題 2 › 標題未有英文文字');
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);

    fireEvent.click(within(items[1]).getByRole('button'));
    await screen.findByTestId('translations-panel');
    await waitFor(() => expect(document.activeElement).toBe(input('sections.0.questions.1.title')));
    expect(location.pathname).toBe('/forms/doc');
  });

  it("shows the server's refusal for a missing translation in the same dialog", async () => {
    const translated: Definition = { ...structuredClone(BOTH), translations: { en: { questions: { a: { title: 'Your name' }, b: { title: 'Coming?', options: { o1: 'Yes' } } } } } };
    await renderDesigner(record({ definition: translated, languages: ['zh-hk', 'en'], titleTranslation: 'Survey', targets: [{ kind: 'ALL_STUDENTS' }] }), {
      onReady: () => ({ status: 422, envelope: { code: 422, msg: '未有英文文字', data: { 'definition.sections.0.questions.0.title': '未有英文文字' } } }),
    });
    fireEvent.click(screen.getByTestId('designer-ready'));
    const dialog = await screen.findByTestId('missing-translations');
    expect(within(dialog).getAllByTestId('missing-translation').map((i) => i.textContent)).toEqual(['第 1 區段 › 問題 1 › 標題未有英文文字']);
    expect(screen.queryByTestId('designer-problems')).toBeNull();
  });

  it('edits the label of "other" and the closing message in the main language', async () => {
    const definition: Definition = { version: 1, sections: [{ id: 's1', questions: [{ id: 'b', type: 'RADIO', title: '會否出席', required: false, options: [{ id: 'o1', label: '會' }], other: true }] }] };
    await renderDesigner(record({ definition }));
    const other = screen.getByTestId('other-label') as HTMLInputElement;
    expect(other.placeholder).toBe('其他');
    fireEvent.change(other, { target: { value: '其他原因' } });
    fireEvent.change(screen.getByTestId('closing-message'), { target: { value: '多謝你的意見！' } });
    fireEvent.click(screen.getByTestId('designer-save'));
    await waitFor(() => expect(put()).toBeTruthy());
    expect(put()!.definition.sections[0].questions[0].otherLabel).toBe('其他原因');
    expect(put()!.definition.closingMessage).toBe('多謝你的意見！');
    expect(put()).not.toHaveProperty('title');
  });

  it('previews in either language, a text not yet translated in the main one', async () => {
    await renderDesigner(record({ definition: structuredClone(BOTH), languages: ['zh-hk', 'en'], titleTranslation: 'Parents day survey' }));
    fireEvent.click(screen.getByTestId('designer-preview'));
    const preview = await screen.findByTestId('preview-dialog');
    expect(preview.textContent).toContain('你的姓名');
    fireEvent.click(within(preview).getByTestId('preview-language-en'));
    await waitFor(() => expect(preview.textContent).toContain('Your name'));
    expect(preview.textContent).toContain('Parents day survey');
    expect(preview.textContent).toContain('會否出席');
  });

  it('works in English too', async () => {
    await act(() => i18nProvider.changeLocale('en'));
    await renderDesigner(record({ definition: structuredClone(BOTH), languages: ['zh-hk', 'en'] }), { view: 'translations' });
    const panel = await screen.findByTestId('translations-panel');
    expect(within(panel).getByTestId('translations-count').textContent).toBe('2 texts have no English version yet');
    expect(input('sections.0.questions.1.title').getAttribute('aria-label')).toBe('Section 1 › Question 2 › Title (English)');
  });
});

describe('the designer language helpers', () => {
  const titles = { title: '家長日意見調查', titleTranslation: 'Parents day survey' };

  it('move the title as withLanguages moves the texts', () => {
    expect(titlesWithLanguages(titles, ['zh-hk', 'en'], ['en', 'zh-hk'])).toEqual({ title: 'Parents day survey', titleTranslation: '家長日意見調查' });
    expect(titlesWithLanguages(titles, ['zh-hk', 'en'], ['en'])).toEqual({ title: 'Parents day survey', titleTranslation: '' });
    expect(titlesWithLanguages(titles, ['zh-hk', 'en'], ['zh-hk'])).toEqual({ title: '家長日意見調查', titleTranslation: '' });
    expect(titlesWithLanguages({ ...titles, titleTranslation: '' }, ['zh-hk', 'en'], ['en', 'zh-hk'])).toEqual({ title: '家長日意見調查', titleTranslation: '' });
  });

  it('say which change of languages needs asking', () => {
    expect(languageChange(CHINESE, { ...titles, titleTranslation: '' }, ['zh-hk', 'en'])).toBeNull();
    expect(languageChange(BOTH, titles, ['en', 'zh-hk'])).toEqual({ kind: 'switchMain', count: 3 });
    expect(languageChange(BOTH, titles, ['zh-hk'])).toEqual({ kind: 'dropSecond', count: 3 });
    expect(languageChange(BOTH, titles, ['en'])).toEqual({ kind: 'dropMain', count: 3 });
  });

  it('name the missing title first, then the texts', () => {
    expect(translationGaps(BOTH, '')).toEqual([
      { path: 'titleTranslation', problem: 'missingEnglish' },
      { path: 'sections.0.questions.1.title', problem: 'missingEnglish' },
    ]);
    expect(translationGaps({ ...BOTH, languages: ['en', 'zh-hk'], translations: {} }, 'x').map((p) => p.problem)).toEqual(['missingChinese', 'missingChinese', 'missingChinese']);
    expect(translationGaps(CHINESE, '')).toEqual([]);
  });

  it('describe the places of the new texts', () => {
    const t = i18nProvider.translate as Parameters<typeof describePath>[0];
    expect(describePath(t, 'sections.0.questions.1.otherLabel')).toBe('第 1 區段 › 問題 2 › 「其他」的文字');
    expect(describePath(t, 'sections.0.questions.1.scale.minLabel')).toBe('第 1 區段 › 問題 2 › 刻度 › 最低分標籤');
    expect(describePath(t, 'sections.0.questions.0.textRule.message')).toBe('第 1 區段 › 問題 1 › 回應驗證 › 錯誤訊息');
    expect(describePath(t, 'closingMessage')).toBe('提交後的訊息');
    expect(describePath(t, 'titleTranslation')).toBe('問卷標題');
  });
});

describe('a definition file in two languages', () => {
  it('is imported with its languages and translations, those of texts it does not have dropped', () => {
    const file = { ...structuredClone(BOTH), translations: { en: { questions: { a: { title: 'Your name' }, gone: { title: 'Deleted question' } }, sections: { old: { title: 'Old' } } } } };
    const parsed = parseDefinitionFile(JSON.stringify(file));
    expect(parsed).toHaveProperty('definition');
    const d = (parsed as { definition: Definition }).definition;
    expect(d.languages).toEqual(['zh-hk', 'en']);
    expect(d.translations).toEqual({ en: { questions: { a: { title: 'Your name' } } } });
  });

  it('is refused with a translation into a language it is not written in', () => {
    const parsed = parseDefinitionFile(JSON.stringify({ ...structuredClone(CHINESE), translations: { en: { questions: { a: { title: 'Your name' } } } } }));
    expect(parsed).toHaveProperty('problems');
  });
});
