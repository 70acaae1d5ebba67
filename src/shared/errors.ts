import type { ServerMessages } from './i18n/server-en.js';
import { serverText, type Lang } from './i18n/text.js';

export type { Lang };

/**
 * The business codes of the envelope (docs/errors.md). `http` is the transport status the server
 * answers with; the client reads `code`. Each key's text, in both languages, is qe.errors.<KEY>
 * of the message files (src/shared/i18n/server-en.ts and server-zh-hk.ts): the compiler refuses
 * a key here without its text, and a text without its key here.
 */
export interface ErrorDef {
  code: number;
  http: number;
}

export const ERRORS = {
  SYSTEM_ERROR: { code: 400, http: 500 },
  SESSION_EXPIRED: { code: 401, http: 401 },
  SESSION_REVOKED: { code: 444, http: 401 },
  RECORD_NOT_FOUND: { code: 404, http: 404 },
  PERMISSION_DENIED: { code: 405, http: 403 },
  INVALID_REQUEST: { code: 406, http: 400 },
  LOGIN_FAILED: { code: 700, http: 400 },
  ACCOUNT_DISABLED: { code: 701, http: 403 },
  LOGIN_RATE_LIMITED: { code: 702, http: 429 },
  PASSWORD_RATE_LIMITED: { code: 702, http: 429 },
  OLD_PASSWORD_WRONG: { code: 703, http: 400 },
  PASSWORD_RULE: { code: 704, http: 400 },
  ALREADY_INITIALISED: { code: 705, http: 409 },
  IMPORT_ERRORS: { code: 706, http: 400 },
  DUPLICATE: { code: 707, http: 409 },
  IN_USE: { code: 708, http: 409 },
  ILLEGAL_TRANSITION: { code: 709, http: 409 },
  GOOGLE_ACCOUNT_REQUIRED: { code: 710, http: 400 },
  SAME_PASSWORD: { code: 711, http: 400 },
  NOT_INITIALISED: { code: 712, http: 409 },
  OWN_DEVELOPER_ACCESS: { code: 709, http: 409 },
  ALREADY_SUBMITTED: { code: 709, http: 409 },
  NOT_OPEN_YET: { code: 709, http: 409 },
  QUESTIONNAIRE_CLOSED: { code: 709, http: 409 },
  NOT_A_RESPONDENT: { code: 405, http: 403 },
  ANONYMOUS_NO_DRAFT: { code: 709, http: 409 },
  // an answer-screen draft over its questionnaire's bound, or saved faster than an answer screen saves (src/server/filling/drafts.ts)
  DRAFT_TOO_LARGE: { code: 406, http: 413 },
  DRAFT_SAVES_LIMITED: { code: 20000, http: 429 },
  NO_QUESTIONS: { code: 714, http: 409 },
  NO_AUDIENCE: { code: 715, http: 409 },
  IMAGE_REFUSED: { code: 716, http: 400 },
  FILE_TYPE_REFUSED: { code: 716, http: 400 },
  MAIL_FAILED: { code: 713, http: 400 },
  MAIL_SETTING_MISSING: { code: 713, http: 400 },
  PUBLIC_URL_REQUIRED: { code: 713, http: 400 },
  MAIL_PASSWORD_UNREADABLE: { code: 713, http: 400 },
  MAIL_CERTIFICATE_UNTRUSTED: { code: 713, http: 400 },
  NOTICE_IN_PROGRESS: { code: 709, http: 409 },
  OPERATION_FAILED: { code: 717, http: 400 },
  DOWNLOAD_ERROR: { code: 719, http: 400 },
  TRY_LATER: { code: 20000, http: 503 },
  RATE_LIMITED: { code: 20000, http: 429 },
  // requests refused before any route reads them: 406 "not valid", each with the HTTP status that says why
  REQUEST_TOO_LARGE: { code: 406, http: 413 },
  URL_TOO_LONG: { code: 406, http: 414 },
  UNSUPPORTED_MEDIA_TYPE: { code: 406, http: 415 },
  HEADERS_TOO_LARGE: { code: 406, http: 431 },
  REQUEST_TIMEOUT: { code: 406, http: 408 },
  EXPECTATION_FAILED: { code: 406, http: 417 },
  TERM_NOT_RUNNING: { code: 20002, http: 400 },
  // school settings: 720–724
  LANGUAGE_REQUIRED: { code: 720, http: 400 },
  GOOGLE_NOT_CONFIGURED: { code: 721, http: 400 },
  GRADUATE_GRADE_UNKNOWN: { code: 722, http: 400 },
  TEMPLATE_RETIRED: { code: 709, http: 409 },
  // the role new accounts get is chosen explicitly (740-741)
  NO_DEFAULT_ROLE: { code: 740, http: 409 },
  DEFAULT_ROLE_NEEDED: { code: 741, http: 409 },
  // the question bank (742–744)
  BANK_QUESTION_MISSING: { code: 742, http: 404 },
  BANK_QUESTION_RETIRED: { code: 743, http: 409 },
  BANK_WORDING_ONLY: { code: 744, http: 400 },
  // staff personal data (730–734)
  PERSONAL_NO_CHANGE: { code: 730, http: 400 },
  PERSONAL_REQUEST_DECIDED: { code: 731, http: 409 },
  PERSONAL_OWN_REQUEST: { code: 732, http: 403 },
  PERSONAL_STAFF_ONLY: { code: 733, http: 403 },
  AVATAR_MISSING: { code: 734, http: 400 },
  // text answers marked shown or hidden for a release (735–737)
  TEXT_MARK_NOT_TEXT: { code: 735, http: 400 },
  TEXT_MARK_NOT_ANSWER: { code: 736, http: 400 },
  TEXT_MARK_WITHHELD: { code: 737, http: 409 },
  // results released to respondents and chosen staff (738–739, 745–749)
  RESULT_SUMMARY_NOT_RELEASED: { code: 738, http: 404 },
  RESULT_RELEASE_NO_READERS: { code: 739, http: 400 },
  RESULT_RELEASE_NOT_FINISHED: { code: 745, http: 409 },
  RESULT_RELEASE_WITHHELD: { code: 746, http: 409 },
  RESULT_RELEASE_NOT_YOURS: { code: 747, http: 403 },
  RESULT_RELEASE_NOT_STAFF: { code: 748, http: 400 },
  RESULT_RELEASE_NONE: { code: 749, http: 409 },
  // the "new school year" roll-over
  ROLLOVER_DONE: { code: 725, http: 409 },
  ROLLOVER_CLASS_MISSING: { code: 726, http: 409 },
  ROLLOVER_NO_CURRENT_YEAR: { code: 727, http: 409 },
  ROLLOVER_BAD_MAPPING: { code: 728, http: 400 },
  ROLLOVER_SWITCH_DATE: { code: 729, http: 400 },
  // backup and restore: 750–758
  BACKUP_RUNNING: { code: 750, http: 409 },
  BACKUP_NOT_FOUND: { code: 751, http: 404 },
  BACKUP_FOREIGN: { code: 752, http: 400 },
  BACKUP_CORRUPT: { code: 753, http: 400 },
  BACKUP_TAMPERED: { code: 754, http: 400 },
  BACKUP_PASSPHRASE: { code: 755, http: 400 },
  BACKUP_PASSPHRASE_NEEDED: { code: 756, http: 400 },
  BACKUP_NEWER: { code: 757, http: 400 },
  BACKUP_CONFIRM: { code: 758, http: 400 },
  RESTORING: { code: 759, http: 409 },
  // imports hashed as a job
  IMPORT_RUNNING: { code: 761, http: 409 },
  RESTORE_WAITED: { code: 760, http: 409 },
  // several instances, faults and hostile archives: 762–769
  DATABASE_UNAVAILABLE: { code: 762, http: 503 },
  DISK_FULL: { code: 763, http: 507 },
  SERVER_CLOSING: { code: 764, http: 503 },
  BACKUP_SCHOOL_CONFIRM: { code: 765, http: 400 },
  BACKUP_CONTENT_REFUSED: { code: 766, http: 400 },
  BACKUP_EXPANDS: { code: 767, http: 400 },
  BACKUP_GUESSES_LIMITED: { code: 768, http: 429 },
  BACKUP_CHECKING: { code: 769, http: 409 },
  // sign-in with the school's accounts: 770–779, 718, 723 (src/server/sign-in/); a provider's
  // trouble is a 400, not a 5xx, so that the login screen shows its words rather than "system error"
  SIGN_IN_OPTION_GONE: { code: 770, http: 404 },
  SIGN_IN_FLOW_INVALID: { code: 771, http: 400 },
  SIGN_IN_PROVIDER_UNAVAILABLE: { code: 772, http: 400 },
  SIGN_IN_PROVIDER_REFUSED: { code: 773, http: 400 },
  SIGN_IN_TOKEN_INVALID: { code: 774, http: 400 },
  SIGN_IN_ADDRESS_REFUSED: { code: 775, http: 403 },
  SIGN_IN_NO_ACCOUNT: { code: 776, http: 403 },
  SIGN_IN_ROLE_REFUSED: { code: 777, http: 403 },
  PASSWORD_LOGIN_OFF: { code: 778, http: 403 },
  PASSWORD_POLICY_NO_PROVIDER: { code: 779, http: 409 },
  SIGN_IN_TEST_NOT_YOURS: { code: 718, http: 403 },
  SIGN_IN_SECRET_MISSING: { code: 723, http: 400 },
  SIGN_IN_SUPER_ADMIN_ONLY: { code: 780, http: 403 },
} as const satisfies Record<keyof ServerMessages['qe']['errors'], ErrorDef>;

export type ErrorKey = keyof typeof ERRORS;

export const SESSION_CODES = new Set([401, 444]);
export const SUCCESS_CODES = new Set([200, 201]);

export function interpolate(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/%\{(\w+)\}/g, (_, k: string) => (k in params ? String(params[k]) : `%{${k}}`));
}

/** The message of a business error in a language (qe.errors.<KEY>), its placeholders filled. */
export function errorText(key: ErrorKey, lang: Lang, params?: Record<string, string | number>): string {
  return serverText(lang, `qe.errors.${key}`, params);
}
