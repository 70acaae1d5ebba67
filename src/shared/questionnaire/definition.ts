/**
 * A questionnaire's questions: sections of questions of the ten types (docs/recipes/add-question-type.md).
 * The designer edits it, the server stores it as JSON and checks it with `definitionErrors`,
 * the filling screen renders it and the server validates replies against it.
 */
import { END, QUESTION_TYPES, type AnsweredFrom, type Definition, type DefinitionProblem, type QuestionType } from './definition-types.js';
import { QUESTION_TYPE_RULES } from './question-types/index.js';
import { DEFINITION_LIMITS as LIMITS, isObject, isText } from './question-types/common.js';
import type { AddProblem, PatternBudget } from './question-types/rules.js';
import { CLOSING_MESSAGE_MAX, CONTENT_LANGUAGES } from './languages.js';
import { INTEGER_MAX } from '../calls/parts.js';

/** The shapes of a definition (definition-types.ts), imported from here by the rest of the code. */
export * from './definition-types.js';

/**
 * What each type is answered from (its module's `answeredFrom`): one or more of its `options`, per
 * row of its grid (`rows` × `columns`), a point of its `scale`, or a text.
 */
export const ANSWERED_FROM = Object.fromEntries(QUESTION_TYPES.map((t) => [t, QUESTION_TYPE_RULES[t].answeredFrom])) as Record<QuestionType, AnsweredFrom>;
/** Types whose answer is one or more of `options`. */
export const CHOICE_TYPES: QuestionType[] = QUESTION_TYPES.filter((t) => ANSWERED_FROM[t] === 'options');
/** Types answered per row with one (radio) or more (checkbox) of `columns`. */
export const GRID_TYPES: QuestionType[] = QUESTION_TYPES.filter((t) => ANSWERED_FROM[t] === 'grid');

export const emptyDefinition = (): Definition => ({ version: 1, sections: [{ id: 's1', questions: [] }] });

export const questionCount = (d: Definition) => d.sections.reduce((n, s) => n + s.questions.length, 0);

/** Everything wrong with a definition (empty when it is sound). Used by the server on save and by the designer's JSON import. */
export function definitionErrors(value: unknown): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const add = (path: string, problem: string) => problems.push({ path, problem });
  if (!isObject(value) || value.version !== 1 || !Array.isArray(value.sections)) return [{ path: '', problem: 'notADefinition' }];
  const sections = value.sections as unknown[];
  if (!sections.length) add('sections', 'noSection');
  if (sections.length > LIMITS.sections) add('sections', 'tooMany');
  const sectionIds = new Set<string>();
  const questionIds = new Set<string>();
  let total = 0;
  const budget: PatternBudget = { program: 0 };
  sections.forEach((s, si) => {
    const sp = `sections.${si}`;
    if (!isObject(s) || typeof s.id !== 'string' || !s.id || !Array.isArray(s.questions)) return add(sp, 'notASection');
    if (sectionIds.has(s.id)) add(`${sp}.id`, 'duplicateId');
    sectionIds.add(s.id);
    if (s.title !== undefined && !isText(s.title, 500)) add(`${sp}.title`, 'tooLong');
    if (s.description !== undefined && !isText(s.description)) add(`${sp}.description`, 'tooLong');
    total += s.questions.length;
    (s.questions as unknown[]).forEach((q, qi) => questionErrors(q, `${sp}.questions.${qi}`, questionIds, add, budget));
  });
  if (total > LIMITS.questions) add('sections', 'tooMany');
  if (value.closingMessage !== undefined && !isText(value.closingMessage, CLOSING_MESSAGE_MAX)) add('closingMessage', 'tooLong');
  languageErrors(value, add);
  // branching only forward, to a section that exists, or to the end
  const order = sections.map((s) => (isObject(s) ? String(s.id) : ''));
  const forward = (from: number, target: unknown, path: string) => {
    if (target === undefined) return;
    if (target === END) return;
    const to = order.indexOf(String(target));
    if (to < 0) add(path, 'unknownSection');
    else if (to <= from) add(path, 'backwardJump');
  };
  sections.forEach((s, si) => {
    if (!isObject(s) || !Array.isArray(s.questions)) return;
    forward(si, s.next, `sections.${si}.next`);
    (s.questions as unknown[]).forEach((q, qi) => {
      if (!isObject(q) || !Array.isArray(q.options)) return;
      (q.options as unknown[]).forEach((o, oi) => isObject(o) && forward(si, o.goTo, `sections.${si}.questions.${qi}.options.${oi}.goTo`));
    });
  });
  return problems;
}

/** A question's checks: what every question has, then its type's own (its module's `settingsErrors`). */
function questionErrors(q: unknown, path: string, ids: Set<string>, add: AddProblem, budget: PatternBudget) {
  if (!isObject(q) || typeof q.id !== 'string' || !q.id) return add(path, 'notAQuestion');
  if (ids.has(q.id)) add(`${path}.id`, 'duplicateId');
  ids.add(q.id);
  const type = q.type as QuestionType;
  if (!QUESTION_TYPES.includes(type)) return add(`${path}.type`, 'unknownType');
  if (typeof q.title !== 'string' || !q.title.trim()) add(`${path}.title`, 'required');
  else if (!isText(q.title, 1000)) add(`${path}.title`, 'tooLong');
  if (q.description !== undefined && !isText(q.description)) add(`${path}.description`, 'tooLong');
  if (q.image !== undefined && (typeof q.image !== 'string' || !/^[\w./-]{1,200}$/.test(q.image) || q.image.includes('..'))) add(`${path}.image`, 'badImage');
  if (typeof q.required !== 'boolean') add(`${path}.required`, 'required');
  if (q.otherLabel !== undefined && !isText(q.otherLabel, 500)) add(`${path}.otherLabel`, 'tooLong');
  if (q.bankId !== undefined && !(Number.isSafeInteger(q.bankId) && (q.bankId as number) >= 1 && (q.bankId as number) <= INTEGER_MAX)) add(`${path}.bankId`, 'badBankId');
  QUESTION_TYPE_RULES[type].settingsErrors(q, path, add, budget);
}

/** A translation's entries: texts of the right length, under ids (what no longer exists is dropped on save, `withoutOrphans`). */
const textMap = (v: unknown, max: number) => isObject(v) && Object.keys(v).length <= LIMITS.choices * LIMITS.questions && Object.values(v).every((t) => isText(t, max));

/**
 * The languages (one or two of zh-hk and en, the main one first) and the translations, one per
 * language but the main one, each text no longer than the main text may be.
 */
function languageErrors(value: Record<string, unknown>, add: AddProblem) {
  const langs = value.languages;
  if (langs !== undefined && (!Array.isArray(langs) || !langs.length || langs.length > 2 || new Set(langs).size !== langs.length || !langs.every((l) => (CONTENT_LANGUAGES as readonly unknown[]).includes(l)))) {
    return add('languages', 'badLanguages');
  }
  const others = Array.isArray(langs) ? langs.slice(1) : [];
  const t = value.translations;
  if (t === undefined) return;
  if (!isObject(t)) return add('translations', 'badTranslation');
  for (const [lang, texts] of Object.entries(t)) {
    const at = `translations.${lang}`;
    if (!others.includes(lang) || !isObject(texts)) return add(at, 'badTranslation');
    if (texts.closingMessage !== undefined && !isText(texts.closingMessage, CLOSING_MESSAGE_MAX)) add(`${at}.closingMessage`, 'tooLong');
    if (texts.sections !== undefined && !(isObject(texts.sections) && Object.values(texts.sections).every((s) => isObject(s) && (s.title === undefined || isText(s.title, 500)) && (s.description === undefined || isText(s.description))))) add(`${at}.sections`, 'badTranslation');
    if (texts.questions === undefined) continue;
    if (!isObject(texts.questions) || Object.keys(texts.questions).length > LIMITS.questions * 2) {
      add(`${at}.questions`, 'badTranslation');
      continue;
    }
    for (const [id, q] of Object.entries(texts.questions)) {
      const ok =
        isObject(q) &&
        (q.title === undefined || isText(q.title, 1000)) &&
        (q.description === undefined || isText(q.description)) &&
        ['minLabel', 'maxLabel', 'otherLabel', 'message'].every((f) => q[f] === undefined || isText(q[f], 500)) &&
        ['options', 'rows', 'columns'].every((f) => q[f] === undefined || textMap(q[f], 500));
      if (!ok) add(`${at}.questions.${id}`, 'badTranslation');
    }
  }
}
