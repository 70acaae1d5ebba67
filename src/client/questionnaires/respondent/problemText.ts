import { useTranslate } from '../../i18n/translate';
import type { Question } from '../../../shared/questionnaire/definition';
import type { AnswerProblem } from '../../../shared/questionnaire/answers';

/** The text of an answer problem: the designer's own message when the rule has one, else ours (qe.question.answerProblems.*). */
export function useAnswerProblemText() {
  const translate = useTranslate();
  return (question: Question, p: AnswerProblem): string => {
    if (p.message) return p.message;
    const row = p.row ? (question.rows?.find((r) => r.id === p.row)?.label ?? '') : '';
    const text = translate(`qe.question.answerProblems.${p.problem}`, { smart_count: p.count ?? 0, min: p.min ?? '', max: p.max ?? '', row });
    // a grid's rule broken in one row: say which
    return row && p.problem !== 'requiredRow' ? translate('qe.question.inRow', { row, text }) : text;
  };
}
