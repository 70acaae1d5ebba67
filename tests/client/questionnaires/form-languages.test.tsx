import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { QuestionnaireScreen } from '../../../src/client/questionnaires/form/QuestionnaireScreen';
import { QuestionnaireList } from '../../../src/client/questionnaires/list/QuestionnaireList';
import type { Definition } from '../../../src/shared/questionnaire/definition';
import { flatten } from '../../support/messages';
import appEn from '../../../src/shared/i18n/app-en';
import appZhHk from '../../../src/shared/i18n/app-zh-hk';
import { fakeData, fakeFetch, location, questionnaire, renderAt, type FetchCall } from './support';

const BOTH: Definition = {
  version: 1,
  languages: ['zh-hk', 'en'],
  sections: [{ id: 's1', questions: [{ id: 'a', type: 'SHORT_TEXT', title: '你的姓名', required: true }] }],
  translations: {},
};

/** The school settings' language list the add screen starts from (none: the settings cannot be read). */
let languageList: { code: string; required: string }[] | null = null;
let calls: FetchCall[];
const server = (call: FetchCall): unknown => {
  if (call.path === '/v1/school-info') return languageList ? { nameHk: '學校', nameEn: 'School', languageList } : null;
  if (call.path === '/v1/questionnaires/audience-count') return { targets: [], total: 0 };
  if (call.path === '/v1/staff-options' || call.path === '/v1/audience-options') return { list: [], total: 0 };
  return null;
};

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  languageList = null;
  calls = fakeFetch(server);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const title = (name: RegExp | string) => screen.findByRole('textbox', { name });

describe('the questionnaire form in two languages', () => {
  it('has one title in one language', async () => {
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, fakeData([questionnaire()]));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /標題/ })).toHaveProperty('value', '家長日意見調查'));
    expect(screen.queryByTestId('title-translation')).toBeNull();
  });

  it('has a title in each language, labelled with it, with two; the translation is saved when changed', async () => {
    const data = fakeData([questionnaire({ languages: ['zh-hk', 'en'], titleTranslation: null, definition: structuredClone(BOTH) })]);
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, data);
    await waitFor(async () => expect(await title('標題（中文）')).toHaveProperty('value', '家長日意見調查'));
    const translation = await title('標題（英文）');
    expect(translation.getAttribute('lang')).toBe('en');
    fireEvent.change(translation, { target: { value: 'Parents day survey' } });
    fireEvent.click(screen.getByTestId('q-save'));
    await waitFor(() => expect(data.update).toHaveBeenCalled());
    expect(vi.mocked(data.update).mock.calls[0][1].data).toEqual({ titleTranslation: 'Parents day survey' });
  });

  it("starts a new questionnaire in the school's first required language; with the other added it is the main one, and the questionnaire is created in both", async () => {
    languageList = [
      { code: 'en', required: '1' },
      { code: 'zh-hk', required: '1' },
    ];
    const data = fakeData([]);
    renderAt('/forms/add', <QuestionnaireScreen type="add" />, data);
    expect(((await screen.findByTestId('languages-set')) as HTMLSelectElement).value).toBe('en');
    expect(screen.queryByTestId('title-translation')).toBeNull();
    fireEvent.change(screen.getByTestId('languages-set'), { target: { value: 'both' } });
    expect((screen.getByTestId('languages-main') as HTMLSelectElement).value).toBe('en');
    fireEvent.change(await title('標題（英文）'), { target: { value: 'Parents day survey' } });
    fireEvent.change(await title('標題（中文）'), { target: { value: '家長日意見調查' } });
    fireEvent.click(screen.getByTestId('q-save'));
    await waitFor(() => expect(data.create).toHaveBeenCalled());
    expect(vi.mocked(data.create).mock.calls[0][1].data).toMatchObject({
      title: 'Parents day survey',
      titleTranslation: '家長日意見調查',
      definition: { version: 1, languages: ['en', 'zh-hk'], sections: [{ id: 's1', questions: [] }] },
    });
  });

  it('starts in Chinese when the settings require only Chinese; the teacher may choose both', async () => {
    languageList = [
      { code: 'zh-hk', required: '1' },
      { code: 'en', required: '0' },
    ];
    renderAt('/forms/add', <QuestionnaireScreen type="add" />, fakeData([]));
    expect(((await screen.findByTestId('languages-set')) as HTMLSelectElement).value).toBe('zhHk');
    expect(screen.queryByTestId('title-translation')).toBeNull();
    fireEvent.change(screen.getByTestId('languages-set'), { target: { value: 'both' } });
    expect(await title('標題（英文）')).toBeTruthy();
  });

  it('design complete names the missing translations and calls nothing; the title is filled in here, the rest in the designer', async () => {
    const record = questionnaire({ languages: ['zh-hk', 'en'], targets: [{ kind: 'ALL_STUDENTS' }], definition: structuredClone(BOTH) });
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, fakeData([record]));
    await waitFor(async () => expect(await title('標題（中文）')).toHaveProperty('value', '家長日意見調查'));
    fireEvent.click(screen.getByTestId('q-ready'));
    const dialog = await screen.findByTestId('missing-translations');
    expect(within(dialog).getAllByTestId('missing-translation').map((i) => i.textContent)).toEqual(['問卷標題未有英文文字', '第 1 區段 › 問題 1 › 標題未有英文文字']);
    expect(calls.some((c) => c.path.endsWith('/ready'))).toBe(false);

    fireEvent.click(within(dialog).getByTestId('missing-open-translations'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/forms/doc', search: '?id=1&view=translations' }));
  });
});

describe('the questionnaire list', () => {
  it("shows each title in the reader's language where the questionnaire has it", async () => {
    await act(() => i18nProvider.changeLocale('en'));
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1280 });
    const rows = [
      questionnaire({ id: 1, title: '家長日意見調查', titleTranslation: 'Parents day survey', languages: ['zh-hk', 'en'] }),
      questionnaire({ id: 2, title: '運動會', titleTranslation: null, languages: ['zh-hk'] }),
    ];
    renderAt('/forms/list', <QuestionnaireList />, fakeData(rows));
    expect(await screen.findByText('Parents day survey')).toBeTruthy();
    expect(screen.getByText('運動會')).toBeTruthy();
    expect(screen.queryByText('家長日意見調查')).toBeNull();
  });
});

describe('the texts of the two languages', () => {
  const zh = flatten(appZhHk);
  const en = flatten(appEn);
  const keys = [
    ...['titleIn', 'languages', 'mainLanguage'].map((k) => `qe.questionnaire.fields.${k}`),
    ...['zhHk', 'en'].map((k) => `qe.questionnaire.language.${k}`),
    ...['zhHk', 'en', 'both'].map((k) => `qe.questionnaire.languageSet.${k}`),
    'qe.questionnaire.message.languagesHelp',
    ...['confirmTitle', 'switchMain', 'dropMain', 'dropSecond', 'change'].map((k) => `qe.designer.languages.${k}`),
    ...['label', 'questions', 'translations', 'translationsMissing'].map((k) => `qe.designer.view.${k}`),
    ...['title', 'intro', 'missing', 'allDone', 'onlyMissing', 'noneMissing', 'original', 'input'].map((k) => `qe.designer.translations.${k}`),
    ...['title', 'intro', 'open'].map((k) => `qe.designer.missing.${k}`),
    ...['title', 'label', 'help'].map((k) => `qe.designer.closing.${k}`),
    'qe.designer.preview.language',
    'qe.designer.options.otherLabel',
    'qe.designer.options.otherHelp',
    ...['otherLabel', 'minLabel', 'maxLabel', 'message', 'closingMessage', 'questionnaireTitle', 'languages', 'translations'].map((k) => `qe.designer.where.${k}`),
  ];

  it.each(keys)('%s is in both files, and differs between them', (key) => {
    expect(typeof zh.get(key), key).toBe('string');
    expect(typeof en.get(key), key).toBe('string');
    expect(zh.get(key)).not.toBe(en.get(key));
  });

  it('fills the same placeholders in both languages', () => {
    const placeholders = (text: unknown) => [...new Set(String(text).match(/%\{\w+\}/g) ?? [])].sort();
    expect(keys.filter((k) => JSON.stringify(placeholders(zh.get(k))) !== JSON.stringify(placeholders(en.get(k))))).toEqual([]);
  });
});
