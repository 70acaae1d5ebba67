import type { QuestionnaireStatus, QuestionnaireType, TargetKind } from '../../../shared/questionnaire/types';
import { composedKey } from '../../../shared/i18n/keys';
import type { Lang } from '../../../shared/i18n/text';

/**
 * The message keys of the questionnaire screens (qe.questionnaire.*). Statuses, types and
 * target kinds are translated on the client (API.md); tests/client/questionnaires check that
 * each has its text in both message files.
 */
export const statusKey = (status: QuestionnaireStatus | string) => composedKey(`qe.questionnaire.status.${status}`);
export const typeKey = (type: QuestionnaireType | string) => composedKey(`qe.questionnaire.type.${type}`);
export const targetKindKey = (kind: TargetKind | string) => composedKey(`qe.questionnaire.targetKind.${kind}`);
export const fieldKey = (name: string) => composedKey(`qe.questionnaire.fields.${name}`);
/** A content language's name (qe.questionnaire.language.*): Chinese, English. */
export const languageKey = (lang: Lang) => (lang === 'en' ? 'qe.questionnaire.language.en' : 'qe.questionnaire.language.zhHk');

/** What the target picker offers: the target kinds, with "chosen people" split into teachers and students. */
export const PICK_KINDS = ['ALL_TEACHERS', 'ALL_STUDENTS', 'TEACHER_GROUP', 'GRADE', 'CLASS', 'TEACHER', 'STUDENT'] as const;
export type PickKind = (typeof PICK_KINDS)[number];
export const pickKey = (pick: PickKind) => (pick === 'TEACHER' || pick === 'STUDENT' ? (`qe.questionnaire.pick.${pick}` as const) : targetKindKey(pick));

/** The list's scope filter: in my charge, assisting, and all (form.management only). */
export const SCOPES = ['mine', 'assisting', 'all'] as const;

/** The chip colour of each status. */
export const STATUS_COLORS: Record<QuestionnaireStatus, 'default' | 'info' | 'success' | 'warning'> = {
  PREPARING: 'warning',
  NOT_OPEN: 'info',
  PROCESSING: 'success',
  FINISHED: 'default',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A bare day as the server keeps some (an anonymous submission: the day only). */
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** yyyy-MM-dd (docs/conventions.md#dates-and-times) of a timestamp, in the browser's time zone; a bare day as it is. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '';
  if (DAY_ONLY.test(value)) return value;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** yyyy-MM-dd HH:mm of a timestamp, in the browser's time zone; a bare day without a time. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  if (DAY_ONLY.test(value)) return value;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${formatDay(value)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Hong Kong's offset from UTC: eight hours all year, no daylight saving (as the server's schoolDay). */
const SCHOOL_OFFSET_MS = 8 * 3_600_000;

/**
 * yyyy-MM-dd HH:mm (24-hour) of a timestamp on the school's clock, Hong Kong time, whatever the
 * browser's time zone (the home screen: deadlines, imports, the last login); a bare day as it is.
 */
export function formatSchoolDateTime(value: string | null | undefined): string {
  if (!value) return '';
  if (DAY_ONLY.test(value)) return value;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return new Date(d.getTime() + SCHOOL_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}

/** The value of an <input type="datetime-local"> for a timestamp. */
export function toLocalInput(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${formatDay(value)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A date-time as the form holds it (ISO from the server, or a yyyy-MM-dd HH:mm text once changed, local time) → ISO UTC, or null. */
export function toIso(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  // with the T, a date-time without an offset is local time by the standard (with a space, only by custom)
  const d = value instanceof Date ? value : new Date(String(value).replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T'));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
