import { formatDateTime } from '../common/schoolClock';
import type { Names } from '../../shared/statistics/types';
import { composedKey } from '../../shared/i18n/keys';

/** The message keys of the statistics screens (qe.statistics.*). */
export const statisticsFieldKey = (name: string) => composedKey(`qe.statistics.fields.${name}`);
export const roleKey = (role: string) => composedKey(`qe.statistics.role.${role}`);
export const respondentStatusKey = (status: string) => composedKey(`qe.statistics.respondentStatus.${status}`);
export const questionTypeKey = (type: string) => composedKey(`qe.question.types.${type}`);

/** A name kept in both languages, in the current one (the other when it is missing). */
export function nameOf(names: Names | null | undefined, locale: string): string {
  if (!names) return '';
  return (locale === 'en' ? names.nameEn || names.nameHk : names.nameHk || names.nameEn) ?? '';
}

/** A percentage as the server computed it (one decimal), with its sign; a dash when there is none. */
export const formatPercent = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${value}%`);

/** A mean or median as the server gives it, at most two decimals on screen; a dash without answers. */
export const formatNumber = (value: number | null | undefined) => (value === null || value === undefined ? '—' : String(Math.round(value * 100) / 100));

/**
 * A submit time as the server gives it, on the school's clock: an anonymous reply's is a day only
 * (yyyy-MM-dd, nothing finer, so that it cannot point at a respondent) and is shown as it is.
 */
export const formatWhen = (value: string | null | undefined) => formatDateTime(value);
