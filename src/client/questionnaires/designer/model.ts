/**
 * The designer's edits of a Definition as a reducer: pure, by id (so that a reorder never sends
 * an edit to the wrong question). New ids are made by the caller (`newId`), never inside the
 * reducer.
 */
import { CHOICE_TYPES, GRID_TYPES, type Choice, type Definition, type Question, type QuestionTexts, type QuestionType, type Section } from '../../../shared/questionnaire/definition';
import type { Lang } from '../../../shared/i18n/text';
import { languagesOf, translationAt, withLanguages, withTranslation, type TextKey } from '../../../shared/questionnaire/languages';

let counter = 0;
/** A new id: a random UUID where the browser offers one (secure pages), random hex otherwise, a counter as the last resort. */
export function newId(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  if (c && typeof c.getRandomValues === 'function') return Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  counter += 1;
  return `id-${Date.now().toString(36)}-${counter.toString(36)}`;
}

/** The default texts of new options, rows and columns, in the designer's language. */
export interface DefaultLabels {
  option: (n: number) => string;
  row: (n: number) => string;
  column: (n: number) => string;
}

const choices = (n: number, label: (i: number) => string): Choice[] => Array.from({ length: n }, (_, i) => ({ id: newId(), label: label(i + 1) }));

/** The settings a type starts with: one option, one row and two columns, a 1–5 scale. */
export function newQuestion(type: QuestionType, labels: DefaultLabels): Question {
  return withType({ id: newId(), type, title: '', required: false }, type, labels);
}

/**
 * The question as another type: what both types share is kept (title, description, image,
 * required; options among choice types; rows and columns among grids), settings the new type has
 * no use for are dropped, and what it needs is filled in.
 */
export function withType(q: Question, type: QuestionType, labels: DefaultLabels): Question {
  const { id, title, description, image, required } = q;
  const next: Question = { id, type, title, required };
  if (description !== undefined) next.description = description;
  if (image !== undefined) next.image = image;
  if (CHOICE_TYPES.includes(type)) {
    const keepGoTo = type !== 'CHECKBOX';
    next.options = q.options?.length ? q.options.map((o) => (keepGoTo || !o.goTo ? { ...o } : { id: o.id, label: o.label })) : choices(1, labels.option);
    if (q.other && type !== 'DROPDOWN') {
      next.other = true;
      if (q.otherLabel !== undefined) next.otherLabel = q.otherLabel;
    }
  }
  if (GRID_TYPES.includes(type)) {
    next.rows = q.rows?.length ? q.rows : choices(1, labels.row);
    next.columns = q.columns?.length ? q.columns : choices(2, labels.column);
    if (q.onePerColumn) next.onePerColumn = true;
  }
  if (type === 'LINEAR_SCALE') next.scale = q.scale ?? { min: 1, max: 5 };
  if (q.choiceRule && q.type === type) next.choiceRule = q.choiceRule;
  if (q.textRule && type === 'SHORT_TEXT') next.textRule = q.textRule;
  return next;
}

/** A copy with new ids for the question and its options, rows and columns. */
export function copyQuestion(q: Question): Question {
  const renew = (list?: Choice[]) => list?.map((c) => ({ ...c, id: newId() }));
  // a duplicate is a question of its own: it does not keep the bank question it came from
  const { bankId: _bankId, ...rest } = structuredClone(q);
  const copy: Question = { ...rest, id: newId() };
  if (q.options) copy.options = renew(q.options);
  if (q.rows) copy.rows = renew(q.rows);
  if (q.columns) copy.columns = renew(q.columns);
  return copy;
}

/**
 * The definition with the translations of question `from` copied to its copy `to` (same texts,
 * options, rows and columns in the same order, new ids), so that a duplicated question needs no
 * translating again.
 */
export function withCopiedTranslations(d: Definition, from: Question, to: Question): Definition {
  let next = d;
  const single = ['title', 'description', 'minLabel', 'maxLabel', 'otherLabel', 'message'] as const;
  for (const lang of languagesOf(d).slice(1)) {
    const copy = (a: TextKey, b: TextKey) => {
      const t = translationAt(d, lang, a);
      if (t) next = withTranslation(next, lang, b, t);
    };
    for (const f of single) copy(['questions', from.id, f], ['questions', to.id, f]);
    for (const list of ['options', 'rows', 'columns'] as const) {
      from[list]?.forEach((c, i) => {
        const target = to[list]?.[i];
        if (target) copy(['questions', from.id, list, c.id], ['questions', to.id, list, target.id]);
      });
    }
  }
  return next;
}

export type DesignerAction =
  | { type: 'replace'; definition: Definition }
  /** the languages it is written in, the main one first (a change of main language swaps the texts: languages.ts) */
  | { type: 'setLanguages'; languages: Lang[] }
  /** one text in the second language ('' removes it) */
  | { type: 'translate'; lang: Lang; key: TextKey; value: string }
  | { type: 'setClosingMessage'; message: string }
  | { type: 'updateSection'; id: string; patch: Partial<Omit<Section, 'id' | 'questions'>> }
  | { type: 'addSection'; section: Section }
  | { type: 'removeSection'; id: string }
  | { type: 'moveSection'; id: string; delta: -1 | 1 }
  /** `copyOf`: the question it duplicates, whose translations it takes */
  | { type: 'addQuestion'; sectionId: string; question: Question; after?: string; copyOf?: Question }
  /** a question from the question bank (shared/questionnaire/bank.ts `insertionOf`) with its texts in the other language */
  | { type: 'insertQuestion'; sectionId: string; question: Question; after?: string; translations: Partial<Record<Lang, QuestionTexts>> }
  | { type: 'updateQuestion'; id: string; update: (q: Question) => Question }
  | { type: 'removeQuestion'; id: string }
  | { type: 'moveQuestion'; id: string; delta: -1 | 1 }
  | { type: 'dropQuestion'; id: string; overId: string };

/** The drop target id of a section's (possibly empty) question list. */
export const sectionDropId = (sectionId: string) => `section:${sectionId}`;

/** Where a question is: its section's index and its own. */
export function locate(definition: Definition, questionId: string): { si: number; qi: number } | null {
  for (let si = 0; si < definition.sections.length; si++) {
    const qi = definition.sections[si].questions.findIndex((q) => q.id === questionId);
    if (qi >= 0) return { si, qi };
  }
  return null;
}

const setSection = (d: Definition, si: number, section: Section): Definition => ({ ...d, sections: d.sections.map((s, i) => (i === si ? section : s)) });

/** Takes a question out of its section and puts it in section `si` at position `qi`. */
function place(d: Definition, id: string, si: number, qi: number): Definition {
  const from = locate(d, id);
  if (!from) return d;
  const question = d.sections[from.si].questions[from.qi];
  const sections = d.sections.map((s) => ({ ...s, questions: s.questions.filter((q) => q.id !== id) }));
  const target = sections[si];
  const at = Math.max(0, Math.min(qi, target.questions.length));
  target.questions = [...target.questions.slice(0, at), question, ...target.questions.slice(at)];
  // untouched sections keep their identity (the editors of their questions are memoised)
  return { ...d, sections: sections.map((s, i) => (i === si || i === from.si ? s : d.sections[i])) };
}

export function designerReducer(d: Definition, action: DesignerAction): Definition {
  switch (action.type) {
    case 'replace':
      return action.definition;
    case 'setLanguages':
      return withLanguages(d, action.languages);
    case 'translate':
      return withTranslation(d, action.lang, action.key, action.value);
    case 'setClosingMessage': {
      const { closingMessage: _old, ...rest } = d;
      return action.message === '' ? rest : { ...rest, closingMessage: action.message };
    }
    case 'updateSection': {
      const si = d.sections.findIndex((s) => s.id === action.id);
      if (si < 0) return d;
      const section = { ...d.sections[si], ...action.patch };
      for (const key of Object.keys(action.patch) as (keyof typeof action.patch)[]) if (action.patch[key] === undefined) delete section[key];
      return setSection(d, si, section);
    }
    case 'addSection':
      return { ...d, sections: [...d.sections, action.section] };
    case 'removeSection':
      if (d.sections.length <= 1) return d;
      return { ...d, sections: d.sections.filter((s) => s.id !== action.id) };
    case 'moveSection': {
      const si = d.sections.findIndex((s) => s.id === action.id);
      const to = si + action.delta;
      if (si < 0 || to < 0 || to >= d.sections.length) return d;
      const sections = [...d.sections];
      [sections[si], sections[to]] = [sections[to], sections[si]];
      return { ...d, sections };
    }
    case 'addQuestion': {
      const si = d.sections.findIndex((s) => s.id === action.sectionId);
      if (si < 0) return d;
      const questions = [...d.sections[si].questions];
      const after = action.after ? questions.findIndex((q) => q.id === action.after) : -1;
      questions.splice(after >= 0 ? after + 1 : questions.length, 0, action.question);
      const added = setSection(d, si, { ...d.sections[si], questions });
      return action.copyOf ? withCopiedTranslations(added, action.copyOf, action.question) : added;
    }
    case 'insertQuestion': {
      const added = designerReducer(d, { type: 'addQuestion', sectionId: action.sectionId, question: action.question, after: action.after });
      if (added === d) return d;
      const translations = { ...added.translations };
      for (const lang of languagesOf(d).slice(1)) {
        const texts = action.translations[lang];
        if (!texts) continue;
        const current = translations[lang] ?? {};
        translations[lang] = { ...current, questions: { ...current.questions, [action.question.id]: structuredClone(texts) } };
      }
      return { ...added, translations };
    }
    case 'updateQuestion': {
      const at = locate(d, action.id);
      if (!at) return d;
      const section = d.sections[at.si];
      return setSection(d, at.si, { ...section, questions: section.questions.map((q, i) => (i === at.qi ? action.update(q) : q)) });
    }
    case 'removeQuestion': {
      const at = locate(d, action.id);
      if (!at) return d;
      const section = d.sections[at.si];
      return setSection(d, at.si, { ...section, questions: section.questions.filter((q) => q.id !== action.id) });
    }
    case 'moveQuestion': {
      // one step up or down; past the top or bottom of a section into the neighbouring one
      const at = locate(d, action.id);
      if (!at) return d;
      const count = d.sections[at.si].questions.length;
      if (action.delta < 0) {
        if (at.qi > 0) return place(d, action.id, at.si, at.qi - 1);
        return at.si > 0 ? place(d, action.id, at.si - 1, d.sections[at.si - 1].questions.length) : d;
      }
      if (at.qi < count - 1) return place(d, action.id, at.si, at.qi + 1);
      return at.si < d.sections.length - 1 ? place(d, action.id, at.si + 1, 0) : d;
    }
    case 'dropQuestion': {
      const from = locate(d, action.id);
      if (!from || action.id === action.overId) return d;
      if (action.overId.startsWith('section:')) {
        const si = d.sections.findIndex((s) => sectionDropId(s.id) === action.overId);
        return si < 0 || si === from.si ? d : place(d, action.id, si, d.sections[si].questions.length);
      }
      const to = locate(d, action.overId);
      if (!to) return d;
      return place(d, action.id, to.si, to.qi);
    }
  }
}

/** Whether a question can move one step that way (it crosses into a neighbouring section at a section's edge). */
export function canMove(d: Definition, id: string, delta: -1 | 1): boolean {
  const at = locate(d, id);
  if (!at) return false;
  if (delta < 0) return at.qi > 0 || at.si > 0;
  return at.qi < d.sections[at.si].questions.length - 1 || at.si < d.sections.length - 1;
}

/** Moves an item of a list (options, rows, columns) one step. */
export function moveItem<T>(list: T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta;
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}
