import type { StatisticsDetail } from '../../../shared/statistics/types';
import { nameOf } from '../labels';
import type { Translate } from './options';

/** The respondents a filter chooses, in words: role, grade, class (their names from the detail's groups). */
export function filterText({ filter, groups }: Pick<StatisticsDetail, 'filter' | 'groups'>, t: Translate, locale: string): string {
  const parts: string[] = [];
  if (filter.role) parts.push(t('qe.pdf.role', { name: t(`qe.userType.${filter.role}`) }));
  if (filter.gradeId !== undefined) {
    const grade = groups.grades.find((g) => g.id === filter.gradeId);
    parts.push(t('qe.pdf.grade', { name: grade ? nameOf(grade, locale) : filter.gradeId }));
  }
  if (filter.classId !== undefined) {
    const klass = groups.classes.find((c) => c.id === filter.classId);
    parts.push(t('qe.pdf.class', { name: klass ? nameOf(klass, locale) : filter.classId }));
  }
  return parts.length ? parts.join(locale === 'en' ? '; ' : '；') : t('qe.pdf.filterAll');
}
