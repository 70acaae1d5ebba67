/**
 * What a respondent's answers look like and whether they are acceptable: the answer shape of
 * each question type, the response rules of the designer, and the way through the sections
 * (branching). Pure functions, free of React and of browser APIs, so that the server can check
 * a submitted reply with the very same rules (this file may move to src/shared).
 */
import { CHOICE_TYPES, END, type Definition, type Question, type Section } from './definition.js';
import { compilePattern, loadPatternEngine } from './pattern.js';

/** The choice id of the "other" option (RADIO, CHECKBOX) — never the id of a real option. */
export const OTHER = '__other__';

/** RADIO and DROPDOWN: the chosen option's id (or OTHER with its text). */
export interface SingleChoiceAnswer {
  choice: string;
  otherText?: string;
}
/** CHECKBOX: the chosen options' ids (OTHER among them with its text). */
export interface MultiChoiceAnswer {
  choices: string[];
  otherText?: string;
}
/** GRID_RADIO: row id → column id. */
export type GridRadioAnswer = Record<string, string>;
/** GRID_CHECKBOX: row id → column ids. */
export type GridCheckboxAnswer = Record<string, string[]>;

/**
 * The answer to one question, by type:
 * SHORT_TEXT, PARAGRAPH: string · DATE: 'YYYY-MM-DD' · TIME: 'HH:mm' · LINEAR_SCALE: number ·
 * RADIO, DROPDOWN: SingleChoiceAnswer · CHECKBOX: MultiChoiceAnswer · GRID_RADIO: GridRadioAnswer ·
 * GRID_CHECKBOX: GridCheckboxAnswer. An unanswered question has no entry (or undefined).
 */
export type Answer = string | number | SingleChoiceAnswer | MultiChoiceAnswer | GridRadioAnswer | GridCheckboxAnswer;
/** A reply: answers keyed by question id. */
export type Answers = Record<string, Answer | undefined>;

/** Hard limits of a text answer (characters), whatever the rules say: checked before a rule, they also bound a pattern's work. */
export const ANSWER_LIMITS = { SHORT_TEXT: 1000, PARAGRAPH: 10000, other: 1000 } as const;

/**
 * Why an answer is refused. `problem` names the message (qe.question.answerProblems.{problem});
 * `count`, `min`, `max` fill it in; `message` is the designer's own text (a text rule's), shown
 * instead when set; `row` is the grid row concerned.
 */
export interface AnswerProblem {
  problem:
    | 'required'
    | 'requiredRow'
    | 'invalid'
    | 'otherText'
    | 'tooLong'
    | 'atLeast'
    | 'atMost'
    | 'exactly'
    | 'onePerColumn'
    | 'length'
    | 'minLength'
    | 'maxLength'
    | 'number'
    | 'minNumber'
    | 'maxNumber'
    | 'numberRange'
    | 'pattern';
  count?: number;
  min?: number;
  max?: number;
  message?: string;
  row?: string;
}
/** Every answer problem name (messages exist for each: a test checks). */
export const ANSWER_PROBLEMS: AnswerProblem['problem'][] = [
  'required',
  'requiredRow',
  'invalid',
  'otherText',
  'tooLong',
  'atLeast',
  'atMost',
  'exactly',
  'onePerColumn',
  'length',
  'minLength',
  'maxLength',
  'number',
  'minNumber',
  'maxNumber',
  'numberRange',
  'pattern',
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
/** Characters as a person counts them (a Chinese character or an emoji is one). */
export const textLength = (text: string) => [...text].length;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** A real calendar day written YYYY-MM-DD. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}
export const isTime = (text: string) => TIME.test(text);
/** A number as a person types it: optional sign, digits, optional decimals. */
export const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

/** The ids of a question's options, rows or columns. */
const ids = (list: { id: string }[] | undefined) => new Set((list ?? []).map((c) => c.id));

/**
 * Whether an answer is there at all: a non-blank text, a chosen option, a scale point, a grid
 * with at least one row answered. (A required grid needs every row: see `answerProblem`.)
 */
export function isAnswered(question: Question, answer: Answer | undefined): boolean {
  if (answer === undefined || answer === null) return false;
  switch (question.type) {
    case 'SHORT_TEXT':
    case 'PARAGRAPH':
    case 'DATE':
    case 'TIME':
      return typeof answer === 'string' && answer.trim() !== '';
    case 'LINEAR_SCALE':
      return typeof answer === 'number';
    case 'RADIO':
    case 'DROPDOWN':
      return isObject(answer) && typeof answer.choice === 'string' && answer.choice !== '';
    case 'CHECKBOX':
      return isObject(answer) && Array.isArray(answer.choices) && answer.choices.length > 0;
    case 'GRID_RADIO':
    case 'GRID_CHECKBOX':
      return isObject(answer) && Object.values(answer).some((v) => (Array.isArray(v) ? v.length > 0 : typeof v === 'string' && v !== ''));
  }
}

/** The answered rows of a grid answer with their column ids (a radio row as a list of one). */
function gridRows(answer: Record<string, unknown>): [string, string[]][] {
  return Object.entries(answer)
    .map(([row, v]): [string, string[]] => [row, Array.isArray(v) ? (v as string[]) : typeof v === 'string' && v !== '' ? [v] : []])
    .filter(([, cols]) => cols.length > 0);
}

function countProblem(rule: Question['choiceRule'], n: number, row?: string): AnswerProblem | null {
  if (!rule) return null;
  const { kind, count } = rule;
  if (kind === 'atLeast' && n < count) return { problem: 'atLeast', count, row };
  if (kind === 'atMost' && n > count) return { problem: 'atMost', count, row };
  if (kind === 'exactly' && n !== count) return { problem: 'exactly', count, row };
  return null;
}

/**
 * Whether the whole text matches a designer's pattern, on RE2 (linear time: see pattern.ts), or
 * undefined when it is not judged. `definitionErrors` refuses a pattern RE2 cannot use when a
 * questionnaire is saved, but one stored before RE2 may hold a back-reference or a lookaround:
 * then the rule is not applied at all (the answer's length limit still is). It never runs on the
 * backtracking engine, which a crafted pattern stalls, and a respondent is never locked out of a
 * question for the designer's mistake; the designer sees the problem when they next open it.
 * (Undefined too in a browser whose engine is still loading: the server judges then.)
 */
export function matchesPattern(pattern: string, text: string): boolean | undefined {
  const compiled = compilePattern(pattern);
  return compiled?.ok ? compiled.pattern.testExact(text) : undefined;
}

/**
 * Loads what checking this definition's answers needs: the pattern engine when a question has a
 * pattern rule (a browser fetches it on demand; until then its patterns are judged by the server only).
 */
export function loadAnswerChecks(definition: Definition): Promise<void> {
  const patterns = definition.sections.some((s) => s.questions.some((q) => q.textRule?.kind === 'pattern'));
  return patterns ? loadPatternEngine() : Promise.resolve();
}

function textRuleProblem(rule: NonNullable<Question['textRule']>, text: string): AnswerProblem | null {
  const { min, max, message } = rule;
  const has = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n);
  let problem: AnswerProblem | null = null;
  if (rule.kind === 'length') {
    const n = textLength(text);
    if ((has(min) && n < min) || (has(max) && n > max)) {
      problem = has(min) && has(max) ? { problem: 'length', min, max } : has(min) ? { problem: 'minLength', min } : { problem: 'maxLength', max };
    }
  } else if (rule.kind === 'number') {
    const value = NUMBER.test(text) ? Number(text) : NaN;
    if (Number.isNaN(value)) problem = { problem: 'number' };
    else if ((has(min) && value < min) || (has(max) && value > max)) {
      problem = has(min) && has(max) ? { problem: 'numberRange', min, max } : has(min) ? { problem: 'minNumber', min } : { problem: 'maxNumber', max };
    }
  } else if (rule.kind === 'pattern') {
    if (matchesPattern(rule.pattern ?? '', text) === false) problem = { problem: 'pattern' };
  }
  if (problem && message && message.trim()) problem.message = message;
  return problem;
}

/**
 * What is wrong with one answer (null when it is acceptable): a missing required answer, an answer
 * of the wrong shape or naming an option that does not exist, and the question's response rules.
 * Texts are judged trimmed (the client trims every string it sends). The rules apply only to what
 * was answered: an unanswered optional question is fine.
 */
export function answerProblem(question: Question, answer: Answer | undefined): AnswerProblem | null {
  if (!isAnswered(question, answer)) return question.required ? { problem: 'required' } : null;
  const a = answer as Answer;
  switch (question.type) {
    case 'SHORT_TEXT':
    case 'PARAGRAPH': {
      const text = (a as string).trim();
      if (textLength(text) > ANSWER_LIMITS[question.type]) return { problem: 'tooLong', max: ANSWER_LIMITS[question.type] };
      return question.type === 'SHORT_TEXT' && question.textRule ? textRuleProblem(question.textRule, text) : null;
    }
    case 'DATE':
      return isDate((a as string).trim()) ? null : { problem: 'invalid' };
    case 'TIME':
      return isTime((a as string).trim()) ? null : { problem: 'invalid' };
    case 'LINEAR_SCALE': {
      const { min = 1, max = 5 } = question.scale ?? {};
      const n = a as number;
      return Number.isInteger(n) && n >= min && n <= max ? null : { problem: 'invalid' };
    }
    case 'RADIO':
    case 'DROPDOWN': {
      const { choice, otherText } = a as SingleChoiceAnswer;
      if (choice === OTHER) {
        if (question.type !== 'RADIO' || !question.other) return { problem: 'invalid' };
        return otherProblem(otherText);
      }
      return ids(question.options).has(choice) ? null : { problem: 'invalid' };
    }
    case 'CHECKBOX': {
      const { choices, otherText } = a as MultiChoiceAnswer;
      const known = ids(question.options);
      if (!isStringArray(choices) || new Set(choices).size !== choices.length) return { problem: 'invalid' };
      if (choices.some((c) => !(known.has(c) || (c === OTHER && question.other)))) return { problem: 'invalid' };
      if (choices.includes(OTHER)) {
        const other = otherProblem(otherText);
        if (other) return other;
      }
      return countProblem(question.choiceRule, choices.length);
    }
    case 'GRID_RADIO':
    case 'GRID_CHECKBOX': {
      const grid = a as Record<string, unknown>;
      const rows = ids(question.rows);
      const columns = ids(question.columns);
      for (const [row, value] of Object.entries(grid)) {
        if (!rows.has(row)) return { problem: 'invalid' };
        if (
          question.type === 'GRID_RADIO'
            ? typeof value !== 'string' || (value !== '' && !columns.has(value))
            : !isStringArray(value) || new Set(value).size !== value.length || value.some((c) => !columns.has(c))
        ) {
          return { problem: 'invalid' };
        }
      }
      const answered = new Map(gridRows(grid));
      if (question.required) {
        const missing = (question.rows ?? []).find((r) => !answered.has(r.id));
        if (missing) return { problem: 'requiredRow', row: missing.id };
      }
      if (question.type === 'GRID_CHECKBOX') {
        for (const r of question.rows ?? []) {
          const cols = answered.get(r.id);
          const problem = cols && countProblem(question.choiceRule, cols.length, r.id);
          if (problem) return problem;
        }
      }
      if (question.onePerColumn) {
        const seen = new Set<string>();
        for (const r of question.rows ?? []) {
          for (const c of answered.get(r.id) ?? []) {
            if (seen.has(c)) return { problem: 'onePerColumn', row: r.id };
            seen.add(c);
          }
        }
      }
      return null;
    }
  }
}

function otherProblem(text: unknown): AnswerProblem | null {
  if (typeof text !== 'string' || !text.trim()) return { problem: 'otherText' };
  if (textLength(text.trim()) > ANSWER_LIMITS.other) return { problem: 'tooLong', max: ANSWER_LIMITS.other };
  return null;
}

/** The problems of a section's answers, by question id (empty when the section may be left). */
export function sectionProblems(section: Section, answers: Answers): Record<string, AnswerProblem> {
  const problems: Record<string, AnswerProblem> = {};
  for (const q of section.questions) {
    const problem = answerProblem(q, answers[q.id]);
    if (problem) problems[q.id] = problem;
  }
  return problems;
}

/** Where a section id (or END) leads as an index; undefined for an unknown id. */
function indexOf(definition: Definition, target: string): number | typeof END | undefined {
  if (target === END) return END;
  const i = definition.sections.findIndex((s) => s.id === target);
  return i < 0 ? undefined : i;
}

/**
 * The section after section `index` (or END): the go-to of a chosen RADIO or DROPDOWN option
 * of that section (the last such question of the section decides, as in Google Forms where one
 * question per section branches), else the section's `next`, else the following section (END
 * after the last). A jump to an unknown or earlier section — which `definitionErrors` refuses —
 * is ignored, so the way can never loop.
 */
export function nextSection(definition: Definition, index: number, answers: Answers): number | typeof END {
  const section = definition.sections[index];
  const following = index + 1 < definition.sections.length ? index + 1 : END;
  if (!section) return END;
  const forward = (target: string | undefined) => {
    if (target === undefined) return undefined;
    const to = indexOf(definition, target);
    return to === END || (to !== undefined && to > index) ? to : undefined;
  };
  let jump: number | typeof END | undefined;
  for (const q of section.questions) {
    if (!CHOICE_TYPES.includes(q.type) || q.type === 'CHECKBOX') continue;
    const a = answers[q.id];
    if (!isObject(a) || typeof a.choice !== 'string') continue;
    const option = q.options?.find((o) => o.id === a.choice);
    const to = forward(option?.goTo);
    if (to !== undefined) jump = to;
  }
  return jump ?? forward(section.next) ?? following;
}

/** The sections a respondent passes through with these answers, in order (indices), from the first to END. */
export function sectionPath(definition: Definition, answers: Answers): number[] {
  const path: number[] = [];
  let at: number | typeof END = definition.sections.length ? 0 : END;
  while (at !== END && path.length <= definition.sections.length) {
    path.push(at);
    at = nextSection(definition, at, answers);
  }
  return path;
}

/** The answers of the sections on the respondent's way only (what a skipped section holds is dropped), without empty ones. */
export function answersOnPath(definition: Definition, answers: Answers): Answers {
  const kept: Answers = {};
  for (const i of sectionPath(definition, answers)) {
    for (const q of definition.sections[i].questions) if (isAnswered(q, answers[q.id])) kept[q.id] = answers[q.id];
  }
  return kept;
}

/**
 * Everything wrong with a whole reply, by question id: the problems of each section on the way,
 * and answers to questions that do not exist. The server's check of a submission.
 */
export function replyProblems(definition: Definition, answers: unknown): Record<string, AnswerProblem> {
  if (!isObject(answers)) return { '': { problem: 'invalid' } };
  const known = new Set(definition.sections.flatMap((s) => s.questions.map((q) => q.id)));
  const problems: Record<string, AnswerProblem> = {};
  for (const id of Object.keys(answers)) if (!known.has(id)) problems[id] = { problem: 'invalid' };
  for (const i of sectionPath(definition, answers as Answers)) Object.assign(problems, sectionProblems(definition.sections[i], answers as Answers));
  return problems;
}
