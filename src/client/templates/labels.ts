import type { AudienceKind, TemplateSummary } from '../../shared/calls/templates';
import type { Translate } from '../i18n/messages';

/** The template's name in the reader's language. */
export const templateName = (t: Pick<TemplateSummary, 'nameHk' | 'nameEn'>, locale: string) => (locale === 'en' ? t.nameEn : t.nameHk) || t.nameHk || t.nameEn;

/** Its description in the reader's language, else the other one's. */
export const templateDescription = (t: Pick<TemplateSummary, 'descriptionHk' | 'descriptionEn'>, locale: string) =>
  (locale === 'en' ? t.descriptionEn || t.descriptionHk : t.descriptionHk || t.descriptionEn) ?? '';

/** "All teachers", or "Students of grade S1" for a grade. */
export function audienceText(translate: Translate, kind: AudienceKind, gradeCode: string | null): string {
  if (kind === 'STUDENTS_OF_GRADE' && gradeCode) return translate('qe.template.ofGrade', { grade: gradeCode });
  return translate(`qe.template.audience.${kind}`);
}
