/**
 * A questionnaire in more than one language (docs/questionnaire-languages.md). The structure —
 * sections, questions, options and their ids, rules, branching — is written once; its texts are
 * written in the questionnaire's main language (the first of `languages`), and each other language
 * keeps its texts in `translations`, by the id of what they belong to. Answers refer to ids, so
 * one set of answers and one set of counts serve every language.
 *
 * Everything that shows a questionnaire (the answer screen, statistics, exports) first takes it in
 * one language with `definitionIn`, and works on plain texts from there.
 */
import type { Lang } from '../i18n/text.js';
import type { Definition, DefinitionProblem, DefinitionTexts, QuestionTexts } from './definition-types.js';

export const CONTENT_LANGUAGES = ['zh-hk', 'en'] as const satisfies readonly Lang[];

/** The languages a definition is written in, the main one first (a definition from before there were two: Chinese). */
export const languagesOf = (d: Pick<Definition, 'languages'>): Lang[] => (d.languages?.length ? d.languages : ['zh-hk']);

export const mainLanguage = (d: Pick<Definition, 'languages'>): Lang => languagesOf(d)[0];

/** The language a reader sees: their own where the questionnaire has it, its main language otherwise. */
export const languageShown = (d: Pick<Definition, 'languages'>, reader: Lang): Lang => (languagesOf(d).includes(reader) ? reader : mainLanguage(d));

/** The texts of a question, a section or the questionnaire, as keys into a translation. */
export type TextKey =
  | readonly ['closingMessage']
  | readonly ['sections', string, 'title' | 'description']
  | readonly ['questions', string, 'title' | 'description' | 'minLabel' | 'maxLabel' | 'otherLabel' | 'message']
  | readonly ['questions', string, 'options' | 'rows' | 'columns', string];

/** One text of a definition: where it stands (a path as `definitionErrors` names places), its key in a translation, its main-language text and its longest length. */
export interface DefinitionText {
  path: string;
  key: TextKey;
  text: string;
  max: number;
}

const QUESTION_TEXT_MAX = { title: 1000, description: 2000, minLabel: 500, maxLabel: 500, otherLabel: 500, message: 500 } as const;
const CHOICE_TEXT_MAX = 500;
const SECTION_TEXT_MAX = { title: 500, description: 2000 } as const;
export const CLOSING_MESSAGE_MAX = 2000;

const written = (t: string | undefined): t is string => typeof t === 'string' && t.trim() !== '';

/**
 * Every text of a definition written in its main language, in the order the designer shows them.
 * A text left empty in the main language (an optional description) needs no translation.
 */
export function textsOf(d: Definition): DefinitionText[] {
  const out: DefinitionText[] = [];
  d.sections.forEach((s, si) => {
    const sp = `sections.${si}`;
    for (const field of ['title', 'description'] as const) {
      if (written(s[field])) out.push({ path: `${sp}.${field}`, key: ['sections', s.id, field], text: s[field], max: SECTION_TEXT_MAX[field] });
    }
    s.questions.forEach((q, qi) => {
      const qp = `${sp}.questions.${qi}`;
      if (written(q.title)) out.push({ path: `${qp}.title`, key: ['questions', q.id, 'title'], text: q.title, max: QUESTION_TEXT_MAX.title });
      if (written(q.description)) out.push({ path: `${qp}.description`, key: ['questions', q.id, 'description'], text: q.description, max: QUESTION_TEXT_MAX.description });
      for (const list of ['options', 'rows', 'columns'] as const) {
        q[list]?.forEach((c, ci) => {
          if (written(c.label)) out.push({ path: `${qp}.${list}.${ci}.label`, key: ['questions', q.id, list, c.id], text: c.label, max: CHOICE_TEXT_MAX });
        });
      }
      if (q.other && written(q.otherLabel)) out.push({ path: `${qp}.otherLabel`, key: ['questions', q.id, 'otherLabel'], text: q.otherLabel, max: QUESTION_TEXT_MAX.otherLabel });
      for (const field of ['minLabel', 'maxLabel'] as const) {
        const t = q.scale?.[field];
        if (written(t)) out.push({ path: `${qp}.scale.${field}`, key: ['questions', q.id, field], text: t, max: QUESTION_TEXT_MAX[field] });
      }
      if (written(q.textRule?.message)) out.push({ path: `${qp}.textRule.message`, key: ['questions', q.id, 'message'], text: q.textRule.message, max: QUESTION_TEXT_MAX.message });
    });
  });
  if (written(d.closingMessage)) out.push({ path: 'closingMessage', key: ['closingMessage'], text: d.closingMessage, max: CLOSING_MESSAGE_MAX });
  return out;
}

/** An object's own entry: an id such as `constructor` or `__proto__` names nothing it inherits. */
function own<T>(o: Record<string, T> | undefined, k: string): T | undefined {
  return o && Object.hasOwn(o, k) ? o[k] : undefined;
}

/** Sets an object's own entry, whatever the id (`__proto__` included). */
function put<T>(o: Record<string, T>, k: string, v: T) {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** A text's translation into `lang` (undefined when there is none). */
export function translationAt(d: Definition, lang: Lang, key: TextKey): string | undefined {
  const t = own(d.translations, lang);
  if (!t) return undefined;
  if (key[0] === 'closingMessage') return t.closingMessage;
  if (key[0] === 'sections') return own(own(t.sections, key[1]), key[2]);
  const q = own(t.questions, key[1]);
  if (!q) return undefined;
  if (key.length === 4) return own(own(q as Record<string, Record<string, string>>, key[2]), key[3]);
  return own(q as Record<string, string>, key[2]);
}

/** The definition with one text's translation into `lang` set (an empty value removes it). */
export function withTranslation(d: Definition, lang: Lang, key: TextKey, value: string): Definition {
  const t: DefinitionTexts = structuredClone(own(d.translations, lang) ?? {});
  const v = value === '' ? undefined : value;
  if (key[0] === 'closingMessage') t.closingMessage = v;
  else if (key[0] === 'sections') {
    t.sections ??= {};
    put(t.sections, key[1], { ...own(t.sections, key[1]), [key[2]]: v });
  } else {
    t.questions ??= {};
    const q: QuestionTexts = { ...own(t.questions, key[1]) };
    if (key.length === 4) q[key[2]] = (() => {
      const list = { ...q[key[2]] };
      put(list, key[3], v as string);
      return list;
    })();
    else q[key[2]] = v;
    put(t.questions, key[1], q);
  }
  return { ...d, translations: { ...d.translations, [lang]: pruned(t) } };
}

/** A translation without empty entries (JSON drops the undefined ones as well). */
function pruned(t: DefinitionTexts): DefinitionTexts {
  return JSON.parse(JSON.stringify(t, (_k, v: unknown) => (v === '' || (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) ? undefined : v))) as DefinitionTexts;
}

/** Sets the text at a path like `sections.0.questions.2.options.1.label` of a copy being built. */
function setAt(target: unknown, path: string, value: string) {
  const parts = path.split('.');
  let at = target as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) at = at[p] as Record<string, unknown>;
  at[parts[parts.length - 1]] = value;
}

/**
 * The definition as a reader of `reader` sees it: in their language where the questionnaire has
 * it (a text not yet translated stays in the main language), in the main language otherwise. The
 * answer is a plain one-language definition, without translations.
 */
export function definitionIn(d: Definition, reader: Lang): Definition {
  const lang = languageShown(d, reader);
  const { translations: _all, ...rest } = d;
  if (lang === mainLanguage(d) || !d.translations?.[lang]) return rest;
  const copy = structuredClone(rest);
  for (const t of textsOf(d)) {
    const translated = translationAt(d, lang, t.key);
    if (written(translated)) setAt(copy, t.path, translated);
  }
  return copy;
}

/**
 * The definition in other languages: translations of what no longer exists are dropped, and a
 * change of main language swaps the texts, so that what was written in the new main language (its
 * translation until now) becomes the main text and the old main texts its translation.
 */
export function withLanguages(d: Definition, languages: Lang[]): Definition {
  const before = mainLanguage(d);
  const main = languages[0];
  let next: Definition = { ...d, languages: [...languages] };
  if (main !== before) {
    const base = definitionIn({ ...d, languages: [before, main] }, main);
    next = { ...base, languages: [...languages], translations: {} };
    for (const t of textsOf(d)) next = withTranslation(next, before, t.key, t.text);
    // a text the new main language had no translation for keeps the old text in its place, and no translation
    for (const t of textsOf(next)) if (!written(translationAt(d, main, t.key))) next = withTranslation(next, before, t.key, '');
  }
  const kept = Object.fromEntries(Object.entries(next.translations ?? {}).filter(([lang]) => languages.slice(1).includes(lang as Lang)));
  return withoutOrphans({ ...next, translations: kept });
}

/**
 * The definition with the translations of texts it no longer has removed (what a saved definition
 * keeps). One pass over the texts, each kept translation put in place: a save of the largest
 * definition (300 questions of 100 options, in two languages) stays a few milliseconds.
 */
export function withoutOrphans(d: Definition): Definition {
  if (!d.translations) return d;
  const texts = textsOf(d);
  const translations: Definition['translations'] = {};
  for (const lang of languagesOf(d).slice(1)) {
    const kept: DefinitionTexts = {};
    for (const t of texts) {
      const v = translationAt(d, lang, t.key);
      if (v === undefined || v === '') continue;
      if (t.key[0] === 'closingMessage') kept.closingMessage = v;
      else if (t.key[0] === 'sections') {
        kept.sections ??= {};
        const section = own(kept.sections, t.key[1]) ?? {};
        section[t.key[2]] = v;
        put(kept.sections, t.key[1], section);
      } else {
        kept.questions ??= {};
        const q: QuestionTexts = own(kept.questions, t.key[1]) ?? {};
        if (t.key.length === 4) {
          const list: Record<string, string> = q[t.key[2]] ?? {};
          put(list, t.key[3], v);
          q[t.key[2]] = list;
        } else q[t.key[2]] = v;
        put(kept.questions, t.key[1], q);
      }
    }
    if (Object.keys(kept).length) translations[lang] = kept;
  }
  const { translations: _old, ...rest } = d;
  return Object.keys(translations).length ? { ...rest, translations } : rest;
}

/** The problem name of a text with no translation into `lang`: qe.designer.problems.missingEnglish / missingChinese. */
export const missingProblem = (lang: Lang) => (lang === 'en' ? 'missingEnglish' : 'missingChinese');

/**
 * What "design complete" needs besides questions: every text written in the main language also
 * written in each other language of the questionnaire. Named by the main text's place.
 */
export function missingTranslations(d: Definition): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const texts = textsOf(d);
  for (const lang of languagesOf(d).slice(1)) {
    for (const t of texts) if (!written(translationAt(d, lang, t.key))) problems.push({ path: t.path, problem: missingProblem(lang) });
  }
  return problems;
}

/** What a questionnaire record carries of its title: the main language's, and the second language's when it has one. */
export interface TitledQuestionnaire {
  title: string;
  titleTranslation?: string | null;
  languages?: Lang[];
}

/** A questionnaire's title as a reader of `reader` sees it (the main title where the second is not written). */
export function titleIn(q: TitledQuestionnaire, reader: Lang): string {
  const langs = q.languages?.length ? q.languages : ['zh-hk'];
  return langs[0] !== reader && langs.includes(reader) && q.titleTranslation?.trim() ? q.titleTranslation : q.title;
}
