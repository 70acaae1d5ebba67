/**
 * What a respondent's answers look like and whether they are acceptable: the answer shape of
 * each question type (answer-types.ts), its rules (each type's module in question-types/,
 * docs/recipes/add-question-type.md), and the way through the sections (branching). Pure
 * functions, free of React and of browser APIs, so that the server can check a submitted reply
 * with the very same rules.
 */
import { CHOICE_TYPES, END, type Definition, type Question, type Section } from './definition.js';
import { loadPatternEngine } from './pattern.js';
import type { Answer, AnswerProblem, Answers } from './answer-types.js';
import { rulesOf } from './question-types/index.js';
import { withinDraftBounds } from './draft-bounds.js';

export * from './answer-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether an answer is there at all: a non-blank text, a chosen option, a scale point, a grid
 * with at least one row answered. (A required grid needs every row: see `answerProblem`.)
 */
export function isAnswered(question: Question, answer: Answer | undefined): boolean {
  if (answer === undefined || answer === null) return false;
  return rulesOf(question.type).isAnswered(answer);
}

/**
 * Loads what checking this definition's answers needs: the pattern engine when a question has a
 * pattern rule (a browser fetches it on demand; until then its patterns are judged by the server only).
 */
export function loadAnswerChecks(definition: Definition): Promise<void> {
  const patterns = definition.sections.some((s) => s.questions.some((q) => q.textRule?.kind === 'pattern'));
  return patterns ? loadPatternEngine() : Promise.resolve();
}

/**
 * What is wrong with one answer (null when it is acceptable): a missing required answer, an answer
 * of the wrong shape or naming an option that does not exist, and the question's response rules.
 * Texts are judged trimmed (a free text's leading spaces are kept, keptAnswer, but are not content). The rules apply only to what
 * was answered: an unanswered optional question is fine.
 */
export function answerProblem(question: Question, answer: Answer | undefined): AnswerProblem | null {
  if (!isAnswered(question, answer)) return question.required ? { problem: 'required' } : null;
  return rulesOf(question.type).answerProblem(question, answer as Answer);
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
    for (const q of definition.sections[i].questions) if (isAnswered(q, answers[q.id])) kept[q.id] = keptAnswer(q, answers[q.id]!);
  }
  return kept;
}

/** A text the respondent wrote (a free text, an 'other'): its trailing whitespace goes, nothing else. */
export const asTyped = (text: string): string => text.trimEnd();

/**
 * An answer as QE keeps it (docs/product-rules.md#answers-as-typed): a free text (SHORT_TEXT,
 * PARAGRAPH) and an 'other' text keep their leading and inner spaces and line breaks, only their
 * trailing whitespace goes; every other text of an answer (a date, a time, an option or row id)
 * is trimmed. A reply and a draft are kept by it, on the server and in the answer screen alike.
 */
export function keptAnswer(question: Question, answer: Answer): Answer {
  if (typeof answer === 'string') return rulesOf(question.type).keepsText ? asTyped(answer) : answer.trim();
  const trimmed = (v: unknown): unknown => (typeof v === 'string' ? v.trim() : Array.isArray(v) ? v.map(trimmed) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trimmed(x)])) : v);
  if (!isObject(answer)) return trimmed(answer) as Answer;
  return Object.fromEntries(Object.entries(answer).map(([k, v]) => [k, k === 'otherText' && typeof v === 'string' ? asTyped(v) : trimmed(v)])) as Answer;
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

/**
 * What a draft keeps of answers still being typed (docs/product-rules.md#states): the answers to
 * the definition's questions that are there and of a shape their question takes — an unknown
 * question id, an empty answer, one naming an option that does not exist or a text over its
 * hard limit (ANSWER_LIMITS, which the inputs hold to, as typed: `withinDraftBounds`) is dropped, not refused. The other rules
 * (required, a text rule, counts) are a submission's to judge: a draft may break them for now. The server keeps a draft by this; the answer screen compares by it.
 */
export function draftAnswers(definition: Definition, answers: unknown): Answers {
  const kept: Answers = {};
  if (!isObject(answers)) return kept;
  for (const section of definition.sections) {
    for (const q of section.questions) {
      if (!Object.hasOwn(answers, q.id)) continue;
      const answer = answers[q.id] as Answer | undefined;
      if (!isAnswered(q, answer)) continue;
      const problem = answerProblem(q, answer)?.problem;
      if (problem === 'invalid' || problem === 'tooLong' || !withinDraftBounds(q, answer as Answer)) continue;
      kept[q.id] = keptAnswer(q, answer as Answer);
    }
  }
  return kept;
}
