import type { Lang } from '../../shared/errors.js';
import type { Definition } from '../../shared/questionnaire/definition.js';
import { rulesOf, type CountRow } from '../../shared/questionnaire/question-types/index.js';
import type { QuestionStatistics } from '../../shared/statistics/types.js';

export type { CountRow } from '../../shared/questionnaire/question-types/index.js';
export { medianOf } from '../../shared/questionnaire/question-types/linear-scale.js';

export interface Counts {
  cells: CountRow[];
  /** replies that answered each question */
  answered: Map<string, number>;
  /** grids: replies that answered each row, keyed `${questionId}\0${rowId}` */
  rowBases: Map<string, number>;
}

/** Every question of the definition, numbered, with its summary (its type's `summary`; null when withheld). */
export function summarise(definition: Definition, counts: Counts | null, lang: Lang): QuestionStatistics[] {
  const byQuestion = new Map<string, CountRow[]>();
  for (const c of counts?.cells ?? []) {
    const list = byQuestion.get(c.questionId) ?? [];
    list.push(c);
    byQuestion.set(c.questionId, list);
  }
  let number = 0;
  return definition.sections.flatMap((section) =>
    section.questions.map((q): QuestionStatistics => {
      const answered = counts?.answered.get(q.id) ?? 0;
      return {
        id: q.id,
        number: ++number,
        sectionTitle: section.title ?? '',
        type: q.type,
        title: q.title,
        ...(q.description ? { description: q.description } : {}),
        ...(q.image ? { image: q.image } : {}),
        required: q.required,
        answered,
        summary: counts ? rulesOf(q.type).summary(q, byQuestion.get(q.id) ?? [], answered, counts.rowBases, lang) : null,
      };
    }),
  );
}
