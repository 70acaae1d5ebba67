/**
 * The shapes of a questionnaire's definition: sections of questions of the ten types. Only the
 * list of types and the types themselves, so that the question-type modules
 * (`question-types/`, docs/recipes/add-question-type.md) and `definition.ts`, which checks a
 * definition with them, both import them. `definition.ts` re-exports everything here.
 */

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

/** What a type is answered from: one or more of its `options`, per row of its grid (`rows` × `columns`), a point of its `scale`, or a text. */
export type AnsweredFrom = 'options' | 'grid' | 'scale' | 'text';

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
  /** the "other" choice's label; the catalogue's "Other" in the reader's language when not given */
  otherLabel?: string;
  /** grids */
  rows?: Choice[];
  columns?: Choice[];
  /** grids: each column may be chosen in one row only */
  onePerColumn?: boolean;
  scale?: LinearScale;
  choiceRule?: ChoiceCountRule;
  textRule?: TextRule;
  /**
   * where it came from: the id of the school's bank question it was inserted from
   * (docs/product-rules.md#question-bank). Copies and templates keep it; the comparison across
   * years matches questions by it as well as by id.
   */
  bankId?: number;
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
  /** the languages it is written in, the main one first (languages.ts); absent: Chinese only */
  languages?: ('zh-hk' | 'en')[];
  sections: Section[];
  /** shown to the respondent once their reply is submitted */
  closingMessage?: string;
  /** the texts in each language but the main one, by the id of what they belong to */
  translations?: Partial<Record<'zh-hk' | 'en', DefinitionTexts>>;
}

/** A question's texts in another language: its title, description, each option, row and column by id, scale labels, "other", the text rule's message. */
export interface QuestionTexts {
  title?: string;
  description?: string;
  options?: Record<string, string>;
  rows?: Record<string, string>;
  columns?: Record<string, string>;
  minLabel?: string;
  maxLabel?: string;
  otherLabel?: string;
  message?: string;
}

/** A definition's texts in another language, by section and question id. */
export interface DefinitionTexts {
  closingMessage?: string;
  sections?: Record<string, { title?: string; description?: string }>;
  questions?: Record<string, QuestionTexts>;
}

/** One problem of a definition: where (a path like sections.0.questions.2.options) and what (an i18n key's last part). */
export interface DefinitionProblem {
  path: string;
  problem: string;
}
