import { describe, expect, it } from 'vitest';
import { definitionErrors, type Definition } from '../../src/shared/questionnaire/definition.js';
import { definitionIn, languageShown, missingTranslations, textsOf, titleIn, translationAt, withLanguages, withoutOrphans, withTranslation } from '../../src/shared/questionnaire/languages.js';

/** Written in Chinese, with some of its English (docs/questionnaire-languages.md). */
const lunch = (): Definition => ({
  version: 1,
  languages: ['zh-hk', 'en'],
  closingMessage: '多謝',
  sections: [
    {
      id: 's1',
      title: '午膳',
      questions: [
        { id: 'taste', type: 'RADIO', title: '味道', required: true, options: [{ id: 'good', label: '好' }, { id: 'bad', label: '差' }], other: true, otherLabel: '其他' },
        { id: 'mood', type: 'LINEAR_SCALE', title: '滿意程度', description: '', required: true, scale: { min: 1, max: 5, minLabel: '很差' } },
      ],
    },
  ],
  translations: { en: { sections: { s1: { title: 'Lunch' } }, questions: { taste: { title: 'Taste', options: { good: 'Good' } }, gone: { title: 'Deleted question' } } } },
});

describe('a questionnaire in two languages', () => {
  it('lists every text written in the main language with its place, and none left empty', () => {
    expect(textsOf(lunch()).map((t) => t.path)).toEqual([
      'sections.0.title',
      'sections.0.questions.0.title',
      'sections.0.questions.0.options.0.label',
      'sections.0.questions.0.options.1.label',
      'sections.0.questions.0.otherLabel',
      'sections.0.questions.1.title',
      'sections.0.questions.1.scale.minLabel',
      'closingMessage',
    ]);
  });

  it('shows a reader their language where it is written, the main language elsewhere, and never the translations', () => {
    const en = definitionIn(lunch(), 'en');
    expect(en.translations).toBeUndefined();
    expect(en.sections[0].title).toBe('Lunch');
    expect(en.sections[0].questions[0].title).toBe('Taste');
    expect(en.sections[0].questions[0].options!.map((o) => o.label)).toEqual(['Good', '差']);
    // ids, rules and the rest are the same: one set of answers serves both
    expect(en.sections[0].questions[0].options!.map((o) => o.id)).toEqual(['good', 'bad']);
    expect(definitionIn(lunch(), 'zh-hk').sections[0].title).toBe('午膳');
    const chineseOnly = { ...lunch(), languages: ['zh-hk' as const] };
    expect(languageShown(chineseOnly, 'en')).toBe('zh-hk');
    expect(definitionIn(chineseOnly, 'en').sections[0].title).toBe('午膳');
  });

  it('names each text with no translation, and nothing once all are written', () => {
    expect(missingTranslations(lunch())).toEqual(
      ['sections.0.questions.0.options.1.label', 'sections.0.questions.0.otherLabel', 'sections.0.questions.1.title', 'sections.0.questions.1.scale.minLabel', 'closingMessage'].map((path) => ({ path, problem: 'missingEnglish' })),
    );
    let d = lunch();
    for (const t of textsOf(d)) d = withTranslation(d, 'en', t.key, translationAt(d, 'en', t.key) ?? `EN ${t.text}`);
    expect(missingTranslations(d)).toEqual([]);
    // a blank translation is a missing one
    expect(missingTranslations(withTranslation(d, 'en', ['closingMessage'], '  '))).toEqual([{ path: 'closingMessage', problem: 'missingEnglish' }]);
    expect(missingTranslations({ ...d, languages: ['en', 'zh-hk'] }).every((p) => p.problem === 'missingChinese')).toBe(true);
  });

  it('drops the translations of what it no longer has, and of a language it is no longer in', () => {
    expect(withoutOrphans(lunch()).translations!.en!.questions).toEqual({ taste: { title: 'Taste', options: { good: 'Good' } } });
    expect(withLanguages(lunch(), ['zh-hk']).translations).toBeUndefined();
  });

  it('swaps the texts when the main language changes, keeping what had no translation in place', () => {
    const swapped = withLanguages(lunch(), ['en', 'zh-hk']);
    expect(swapped.languages).toEqual(['en', 'zh-hk']);
    expect(swapped.sections[0].title).toBe('Lunch');
    expect(swapped.sections[0].questions[0].options!.map((o) => o.label)).toEqual(['Good', '差']);
    expect(swapped.translations).toEqual({ 'zh-hk': { sections: { s1: { title: '午膳' } }, questions: { taste: { title: '味道', options: { good: '好' } } } } });
    // and back again: the questionnaire as it was, but for the orphan
    const back = withLanguages(swapped, ['zh-hk', 'en']);
    expect(back.sections).toEqual(lunch().sections);
    expect(back.translations).toEqual(withoutOrphans(lunch()).translations);
  });

  it('keeps ids that name what an object inherits as plain ids', () => {
    const hostile: Definition = {
      version: 1,
      languages: ['zh-hk', 'en'],
      sections: [{ id: '__proto__', title: '部分', questions: [{ id: 'constructor', type: 'RADIO', title: '題目', required: true, options: [{ id: '__proto__', label: '好' }, { id: 'toString', label: '差' }] }] }],
    };
    let d = withTranslation(hostile, 'en', ['sections', '__proto__', 'title'], 'Part');
    d = withTranslation(d, 'en', ['questions', 'constructor', 'options', '__proto__'], 'Good');
    const stored = JSON.parse(JSON.stringify(d)) as Definition;
    expect(definitionIn(stored, 'en').sections[0].title).toBe('Part');
    expect(definitionIn(stored, 'en').sections[0].questions[0].options!.map((o) => o.label)).toEqual(['Good', '差']);
    expect(missingTranslations(stored).map((p) => p.path)).toEqual(['sections.0.questions.0.title', 'sections.0.questions.0.options.1.label']);
    expect(({} as Record<string, unknown>).title).toBeUndefined();
  });

  it('checks languages and translations as a save does', () => {
    expect(definitionErrors(lunch())).toEqual([]);
    const problems = (d: unknown) => definitionErrors(d).map((p) => `${p.path} ${p.problem}`);
    expect(problems({ ...lunch(), languages: [] })).toEqual(['languages badLanguages']);
    expect(problems({ ...lunch(), languages: ['en', 'en'] })).toEqual(['languages badLanguages']);
    expect(problems({ ...lunch(), languages: ['fr'] })).toEqual(['languages badLanguages']);
    // a translation into the main language, or into one it is not written in
    expect(problems({ ...lunch(), languages: ['zh-hk'] })).toEqual(['translations.en badTranslation']);
    expect(problems({ ...lunch(), translations: { en: { questions: { taste: { title: 'x'.repeat(1001) } } } } })).toEqual(['translations.en.questions.taste badTranslation']);
    expect(problems({ ...lunch(), translations: { en: { questions: { taste: { options: { good: 7 } } } } } })).toEqual(['translations.en.questions.taste badTranslation']);
    expect(problems({ ...lunch(), closingMessage: 'x'.repeat(2001) })).toEqual(['closingMessage tooLong']);
  });

  it("picks a questionnaire's title for the reader", () => {
    const q = { title: '午膳意見', titleTranslation: 'Lunch survey', languages: ['zh-hk', 'en'] as ('zh-hk' | 'en')[] };
    expect(titleIn(q, 'en')).toBe('Lunch survey');
    expect(titleIn(q, 'zh-hk')).toBe('午膳意見');
    expect(titleIn({ ...q, titleTranslation: ' ' }, 'en')).toBe('午膳意見');
    expect(titleIn({ ...q, languages: ['zh-hk'] }, 'en')).toBe('午膳意見');
    expect(titleIn({ title: 'Lunch', titleTranslation: '午膳', languages: ['en', 'zh-hk'] }, 'zh-hk')).toBe('午膳');
  });
});
