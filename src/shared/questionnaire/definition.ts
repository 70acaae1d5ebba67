/**
 * A questionnaire's questions: sections of questions of the ten types (docs/recipes/add-question-type.md).
 * The designer edits it, the server stores it as JSON and checks it with `definitionErrors`,
 * the filling screen renders it and the server validates replies against it.
 */
import { compilePattern, DEFINITION_MAX_PROGRAM, PATTERN_MAX_LENGTH } from './pattern.js';

export const QUESTION_TYPES = [
  'GRID_RADIO',
  'SHORT_TEXT',
  'PARAGRAPH',
  'RADIO',
  'CHECKBOX',
  'DROPDOWN',
  'LINEAR_SCALE',
  'GRID_CHECKBOX',
  'DATE',
  'TIME',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/**
 * What each type is answered from: one or more of its `options`, per row of its grid (`rows` ×
 * `columns`), a point of its `scale`, or a text. A `Record`, so a type added to `QUESTION_TYPES`
 * does not compile until it says which.
 */
export const ANSWERED_FROM: Record<QuestionType, 'options' | 'grid' | 'scale' | 'text'> = {
  GRID_RADIO: 'grid',
  SHORT_TEXT: 'text',
  PARAGRAPH: 'text',
  RADIO: 'options',
  CHECKBOX: 'options',
  DROPDOWN: 'options',
  LINEAR_SCALE: 'scale',
  GRID_CHECKBOX: 'grid',
  DATE: 'text',
  TIME: 'text',
};
/** Types whose answer is one or more of `options`. */
export const CHOICE_TYPES: QuestionType[] = QUESTION_TYPES.filter((t) => ANSWERED_FROM[t] === 'options');
/** Types answered per row with one (radio) or more (checkbox) of `columns`. */
export const GRID_TYPES: QuestionType[] = QUESTION_TYPES.filter((t) => ANSWERED_FROM[t] === 'grid');
/** Where a choice can send the respondent: the id of a later section, or the end. */
export const END = 'END';

export interface Choice {
  /** stable id: answers refer to it, so relabelling an option keeps the replies */
  id: string;
  label: string;
  /** RADIO and DROPDOWN: the section to go to when chosen (a section id or END) */
  goTo?: string;
}

/** CHECKBOX and GRID_CHECKBOX (per row): how many choices an answer must have. */
export interface ChoiceCountRule {
  kind: 'atLeast' | 'atMost' | 'exactly';
  count: number;
}

/** SHORT_TEXT: what the text must be. */
export interface TextRule {
  kind: 'length' | 'number' | 'pattern';
  min?: number;
  max?: number;
  /** a regular expression (kind pattern) */
  pattern?: string;
  /** shown when the rule fails; a default text otherwise */
  message?: string;
}

export interface LinearScale {
  /** 0 or 1 */
  min: number;
  /** 2 to 10 */
  max: number;
  minLabel?: string;
  maxLabel?: string;
}

export interface Question {
  id: string;
  type: QuestionType;
  title: string;
  description?: string;
  /** a stored image's path under /qe/storage/ */
  image?: string;
  required: boolean;
  /** RADIO, CHECKBOX, DROPDOWN */
  options?: Choice[];
  /** RADIO and CHECKBOX: an "other" choice with a text of the respondent's own */
  other?: boolean;
  /** grids */
  rows?: Choice[];
  columns?: Choice[];
  /** grids: each column may be chosen in one row only */
  onePerColumn?: boolean;
  scale?: LinearScale;
  choiceRule?: ChoiceCountRule;
  textRule?: TextRule;
}

export interface Section {
  id: string;
  title?: string;
  description?: string;
  questions: Question[];
  /** after this section, unless a chosen option says otherwise: a section id or END; default the next section */
  next?: string;
}

export interface Definition {
  version: 1;
  sections: Section[];
}

export const emptyDefinition = (): Definition => ({ version: 1, sections: [{ id: 's1', questions: [] }] });

export const questionCount = (d: Definition) => d.sections.reduce((n, s) => n + s.questions.length, 0);

/** One problem of a definition: where (a path like sections.0.questions.2.options) and what (an i18n key's last part). */
export interface DefinitionProblem {
  path: string;
  problem: string;
}

const LIMITS = { sections: 50, questions: 300, choices: 100, text: 2000 };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max = LIMITS.text) => typeof v === 'string' && v.length <= max;

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

function choicesErrors(list: unknown, path: string, add: (p: string, problem: string) => void, min: number) {
  if (!Array.isArray(list) || list.length < min) return add(path, 'tooFewChoices');
  if (list.length > LIMITS.choices) add(path, 'tooMany');
  const ids = new Set<string>();
  list.forEach((c, i) => {
    if (!isObject(c) || typeof c.id !== 'string' || !c.id) return add(`${path}.${i}`, 'notAChoice');
    if (ids.has(c.id)) add(`${path}.${i}.id`, 'duplicateId');
    ids.add(c.id);
    if (typeof c.label !== 'string' || !c.label.trim()) add(`${path}.${i}.label`, 'required');
    else if (!isText(c.label, 500)) add(`${path}.${i}.label`, 'tooLong');
  });
}

/** What the patterns of a definition cost so far (RE2 program size): checked against DEFINITION_MAX_PROGRAM. */
interface PatternBudget {
  program: number;
}

function questionErrors(q: unknown, path: string, ids: Set<string>, add: (p: string, problem: string) => void, budget: PatternBudget) {
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
  if (CHOICE_TYPES.includes(type)) choicesErrors(q.options, `${path}.options`, add, 1);
  if (GRID_TYPES.includes(type)) {
    choicesErrors(q.rows, `${path}.rows`, add, 1);
    choicesErrors(q.columns, `${path}.columns`, add, 2);
  }
  if (type === 'LINEAR_SCALE') {
    const s = q.scale;
    if (!isObject(s) || ![0, 1].includes(s.min as number) || !Number.isInteger(s.max) || (s.max as number) < 2 || (s.max as number) > 10) add(`${path}.scale`, 'badScale');
  }
  if (q.choiceRule !== undefined) {
    const r = q.choiceRule;
    const choices = type === 'GRID_CHECKBOX' ? q.columns : q.options;
    const n = Array.isArray(choices) ? choices.length + (q.other ? 1 : 0) : 0;
    if (!['CHECKBOX', 'GRID_CHECKBOX'].includes(type) || !isObject(r) || !['atLeast', 'atMost', 'exactly'].includes(r.kind as string) || !Number.isInteger(r.count) || (r.count as number) < 1 || (r.count as number) > n) {
      add(`${path}.choiceRule`, 'badRule');
    }
  }
  if (q.textRule !== undefined) {
    const r = q.textRule;
    let bad = type !== 'SHORT_TEXT' || !isObject(r) || !['length', 'number', 'pattern'].includes(r.kind as string);
    if (!bad && isObject(r) && r.kind === 'pattern') {
      if (typeof r.pattern !== 'string') bad = true;
      else if (r.pattern.length > PATTERN_MAX_LENGTH) return add(`${path}.textRule`, 'tooLong');
      else {
        // compiled by the engine answers are checked with (RE2), never by RegExp; what it compiled
        // counts against the questionnaire's budget, refused patterns too, so saving stays cheap
        if (budget.program > DEFINITION_MAX_PROGRAM) return add(`${path}.textRule`, 'complexPattern');
        const compiled = compilePattern(r.pattern);
        // null: a browser still loading the engine; the server judges the pattern on save
        if (!compiled) return;
        budget.program += compiled.size;
        if (!compiled.ok) return add(`${path}.textRule`, compiled.fault);
        if (budget.program > DEFINITION_MAX_PROGRAM) return add(`${path}.textRule`, 'complexPattern');
      }
    }
    if (!bad && isObject(r) && r.min !== undefined && r.max !== undefined && Number(r.min) > Number(r.max)) bad = true;
    if (bad) add(`${path}.textRule`, 'badRule');
  }
}
