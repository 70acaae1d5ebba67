/**
 * What the choice types share (RADIO, DROPDOWN: one option; CHECKBOX: several), answered from
 * their `options`, RADIO and CHECKBOX with an "other" of the respondent's own text. Each type's
 * module composes these.
 */
import { messageText } from '../../master/labels.js';
import { percent } from '../../statistics/types.js';
import type { Question } from '../definition-types.js';
import { ANSWER_LIMITS, OTHER, textLength, type Answer, type AnswerProblem, type MultiChoiceAnswer, type SingleChoiceAnswer } from '../answer-types.js';
import { cell, choicesErrors, countIn, countProblem, ids, isObject, isStringArray, labelsOf, oneColumn, ruleErrors, type RulesTaken } from './common.js';
import type { ExportTranslate, QuestionTypeRules } from './rules.js';

/** The check of a choice question's settings: at least one option, and the rules it takes. */
const choiceSettingsErrors =
  (taken: RulesTaken): QuestionTypeRules['settingsErrors'] =>
  (q, path, add, budget) => {
    choicesErrors(q.options, `${path}.options`, add, 1);
    ruleErrors(q, path, add, budget, taken);
  };

function otherProblem(text: unknown): AnswerProblem | null {
  if (typeof text !== 'string' || !text.trim()) return { problem: 'otherText' };
  if (textLength(text.trim()) > ANSWER_LIMITS.other) return { problem: 'tooLong', max: ANSWER_LIMITS.other };
  return null;
}

/** A choice's label, an 'other' with its text. */
function choiceLabel(question: Question) {
  const options = labelsOf(question.options);
  return (id: string, t: ExportTranslate, otherText?: string) => (id === OTHER ? t('other', { text: otherText ?? '' }) : (options.get(id) ?? id));
}

/** The summary of a choice question: each option's count (and the other's, where offered or given). */
const choicesSummary: QuestionTypeRules['summary'] = (question, cells, answered, _rowBases, lang) => {
  const count = countIn(cells);
  const choices = (question.options ?? []).map((o) => ({ id: o.id, label: o.label, count: count(o.id) }));
  if (question.other || count(OTHER)) choices.push({ id: OTHER, label: question.otherLabel?.trim() || messageText(lang, 'qe.question.other'), count: count(OTHER) });
  return { kind: 'choices', base: answered, choices: choices.map((c) => ({ ...c, percent: percent(c.count, answered) })) };
};

/** One option (RADIO, DROPDOWN): `offersOther` when the type may offer "other". */
export function singleChoice(offersOther: boolean): Omit<QuestionTypeRules, 'type'> {
  return {
    answeredFrom: 'options',
    settingsErrors: choiceSettingsErrors({}),
    isAnswered: (answer) => isObject(answer) && typeof answer.choice === 'string' && answer.choice !== '',
    answerProblem(question, answer) {
      const { choice, otherText } = answer as SingleChoiceAnswer;
      if (choice === OTHER) {
        if (!offersOther || !question.other) return { problem: 'invalid' };
        return otherProblem(otherText);
      }
      return ids(question.options).has(choice) ? null : { problem: 'invalid' };
    },
    sampleAnswer(question, s) {
      const choiceIds = (question.options ?? []).map((o) => o.id);
      return offersOther && s.otherChosen() ? { choice: OTHER, otherText: s.pick(s.texts.other) } : { choice: choiceIds[s.skewed(choiceIds.length)] };
    },
    rowsOf(_question, answer) {
      const a = answer as SingleChoiceAnswer;
      if (!a?.choice) return [];
      return [cell(a.choice, '', a.choice === OTHER ? (a.otherText ?? null) : null)];
    },
    summary: choicesSummary,
    answerColumns: oneColumn((question) => {
      const label = choiceLabel(question);
      return (answer, t) => {
        const a = answer as SingleChoiceAnswer;
        return a.choice ? label(a.choice, t, a.otherText) : null;
      };
    }),
  };
}

/** Several options (CHECKBOX), as many as its choice rule allows, "other" among them where offered. */
export function multipleChoice(): Omit<QuestionTypeRules, 'type'> {
  return {
    answeredFrom: 'options',
    settingsErrors: choiceSettingsErrors({ choiceRule: 'options' }),
    isAnswered: (answer) => isObject(answer) && Array.isArray(answer.choices) && answer.choices.length > 0,
    answerProblem(question, answer) {
      const { choices, otherText } = answer as MultiChoiceAnswer;
      const known = ids(question.options);
      if (!isStringArray(choices) || new Set(choices).size !== choices.length) return { problem: 'invalid' };
      if (choices.some((c) => !(known.has(c) || (c === OTHER && question.other)))) return { problem: 'invalid' };
      if (choices.includes(OTHER)) {
        const other = otherProblem(otherText);
        if (other) return other;
      }
      return countProblem(question.choiceRule, choices.length);
    },
    sampleAnswer(question, s) {
      const choiceIds = (question.options ?? []).map((o) => o.id);
      const total = choiceIds.length + (question.other ? 1 : 0);
      const count = s.howMany(total);
      const withOther = s.otherChosen() && count >= 1;
      const choices = s.some(choiceIds.length, withOther ? count - 1 : count).map((i) => choiceIds[i]);
      return withOther ? { choices: [...choices, OTHER], otherText: s.pick(s.texts.other) } : { choices };
    },
    rowsOf(_question, answer) {
      const a = answer as MultiChoiceAnswer;
      return [...new Set(a?.choices ?? [])].map((c) => cell(c, '', c === OTHER ? (a.otherText ?? null) : null));
    },
    summary: choicesSummary,
    answerColumns: oneColumn((question) => {
      const label = choiceLabel(question);
      return (answer: Answer, t) => {
        const a = answer as MultiChoiceAnswer;
        return (a.choices ?? []).map((c) => label(c, t, a.otherText)).join('; ');
      };
    }),
  };
}
