/**
 * How much an answer-screen draft of a questionnaire may hold (docs/security.md#drafts-are-bounded):
 * the keys its questions have, and no more bytes than the largest draft its questions take. The
 * server refuses a draft beyond them (src/server/filling/drafts.ts); `draftAnswers` (answers.ts)
 * keeps only answers within `withinDraftBounds`.
 */
import type { Definition, Question } from './definition-types.js';
import { ANSWER_LIMITS, OTHER, textLength, type Answer } from './answer-types.js';
import { ids, isObject } from './question-types/common.js';
import { rulesOf } from './question-types/index.js';

/**
 * The most a draft may hold whatever its questionnaire (bytes of JSON): a questionnaire's own
 * bound (`draftByteLimit`) is far below it unless it has some twenty-five paragraph questions, each
 * written to its limit. The draft route's body limit is this and a little more.
 */
export const DRAFT_MAX_BYTES = 1024 * 1024;

/** The most bytes UTF-8 spends on one character (an emoji, a rare Chinese character). */
const CHAR_BYTES = 4;
const utf8 = new TextEncoder();
/** The bytes of a value written as JSON (UTF-8). */
export const jsonBytes = (value: unknown) => utf8.encode(JSON.stringify(value)).length;

/** The longest text a question's answer holds as typed (characters): a free text's hard limit; a date or time is far shorter. */
const textLimitOf = (question: Question) => (question.type in ANSWER_LIMITS ? ANSWER_LIMITS[question.type as keyof typeof ANSWER_LIMITS] : ANSWER_LIMITS.SHORT_TEXT);
/** Whether a question offers "other" with a text of the respondent's own. */
const offersOther = (question: Question) => rulesOf(question.type).answeredFrom === 'options' && question.other === true;
/** The bytes of a text of `chars` characters written as JSON, at the most UTF-8 takes per character. */
const textBytes = (chars: number) => 2 + CHAR_BYTES * chars;
const idsBytes = (list: { id: string }[] | undefined) => (list ?? []).reduce((sum, c) => sum + jsonBytes(c.id) + 1, 0);

/** The keys an answer to this question may have, when its answer is an object (choices, grids). */
function answerKeys(question: Question): Set<string> {
  const from = rulesOf(question.type).answeredFrom;
  // the choice types, loosely: one option or several, and the "other" text where offered
  if (from === 'options') return new Set(offersOther(question) ? ['choice', 'choices', 'otherText'] : ['choice', 'choices']);
  if (from === 'grid') return ids(question.rows);
  return new Set();
}

/** The bytes of the largest answer a question takes: every option, every cell, every text at its limit in 4-byte characters. */
function answerBytes(question: Question): number {
  switch (rulesOf(question.type).answeredFrom) {
    case 'text':
      return textBytes(textLimitOf(question));
    case 'scale':
      return 4;
    case 'options':
      // {"choice":…,"choices":[…],"otherText":…}
      return 40 + 2 * (idsBytes(question.options) + jsonBytes(OTHER) + 1) + (offersOther(question) ? textBytes(ANSWER_LIMITS.other) : 0);
    case 'grid':
      return 2 + (question.rows ?? []).reduce((sum, row) => sum + jsonBytes(row.id) + 4 + idsBytes(question.columns), 0);
  }
}

/**
 * The most bytes of JSON a draft of this definition holds: every question answered with its
 * largest answer (texts at their hard limits in characters of 4 bytes, the most UTF-8 takes), at
 * most DRAFT_MAX_BYTES. So every reply a respondent can type fits, and nothing much larger.
 */
export function draftByteLimit(definition: Definition): number {
  const known = byteLimits.get(definition);
  if (known !== undefined) return known;
  let bytes = 2;
  for (const section of definition.sections) for (const q of section.questions) bytes += jsonBytes(q.id) + 2 + answerBytes(q);
  const limit = Math.min(bytes, DRAFT_MAX_BYTES);
  byteLimits.set(definition, limit);
  return limit;
}
/** Each definition's bound, worked out once: the server keeps a questionnaire's definition while it is unchanged. */
const byteLimits = new WeakMap<Definition, number>();

/**
 * The keys of a draft's answers the definition does not have (`ghost`, `house.colour`,
 * `rank.no-such-row`), at most `most` of them: a question id no question has, or a part of an
 * answer its question's answers do not have. Empty when every key is known.
 */
export function draftUnknownKeys(definition: Definition, answers: Record<string, unknown>, most = 10): string[] {
  const questions = new Map(definition.sections.flatMap((s) => s.questions.map((q) => [q.id, q] as const)));
  const unknown: string[] = [];
  for (const [id, answer] of Object.entries(answers)) {
    const question = questions.get(id);
    if (!question) unknown.push(id);
    else if (isObject(answer)) {
      const known = answerKeys(question);
      for (const key of Object.keys(answer)) if (!known.has(key)) unknown.push(`${id}.${key}`);
    }
    if (unknown.length >= most) return unknown.slice(0, most);
  }
  return unknown;
}

/**
 * Whether an answer's texts, as typed, are within their hard limits: a text answer (spaces around
 * it included), and an "other" text whether or not "other" is chosen. The inputs hold to these
 * limits; a draft keeps no answer beyond them.
 */
export function withinDraftBounds(question: Question, answer: Answer): boolean {
  if (typeof answer === 'string') return textLength(answer) <= textLimitOf(question);
  if (isObject(answer) && 'otherText' in answer) return typeof answer.otherText === 'string' && textLength(answer.otherText) <= ANSWER_LIMITS.other;
  return true;
}
