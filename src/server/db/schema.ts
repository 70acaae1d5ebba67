import type { Generated, Insertable, Selectable } from 'kysely';

/** The whole database, typed once (Kysely). Timestamps are ISO-8601 UTC text; expiries epoch ms. */
export interface Database {
  school: SchoolTable;
  users: UsersTable;
  sessions: SessionsTable;
  cache_versions: CacheVersionsTable;
  login_failures: LoginFailuresTable;
  menus: MenusTable;
  actions: ActionsTable;
  roles: RolesTable;
  role_actions: RoleActionsTable;
  user_roles: UserRolesTable;
  school_years: SchoolYearsTable;
  terms: TermsTable;
  grades: GradesTable;
  classes: ClassesTable;
  positions: PositionsTable;
  student_classes: StudentClassesTable;
  teacher_groups: TeacherGroupsTable;
  teacher_group_members: TeacherGroupMembersTable;
  mail_settings: MailSettingsTable;
  questionnaires: QuestionnairesTable;
  questionnaire_assistants: QuestionnaireAssistantsTable;
  questionnaire_templates: QuestionnaireTemplatesTable;
  question_bank: QuestionBankTable;
  feedback: FeedbackTable;
  replies: RepliesTable;
  waiting_replies: WaitingRepliesTable;
  reply_drafts: ReplyDraftsTable;
  reply_answers: ReplyAnswersTable;
  answer_counts: AnswerCountsTable;
  answer_totals: AnswerTotalsTable;
  text_terms: TextTermsTable;
  term_counts: TermCountsTable;
  term_totals: TermTotalsTable;
  text_answer_marks: TextAnswerMarksTable;
  result_releases: ResultReleasesTable;
  result_release_staff: ResultReleaseStaffTable;
  import_jobs: ImportJobsTable;
  import_claims: ImportClaimsTable;
  mail_outbox: MailOutboxTable;
  seeded_codes: SeededCodesTable;
  personal_data_requests: PersonalDataRequestsTable;
  stored_files: StoredFilesTable;
  stored_file_chunks: StoredFileChunksTable;
  backup_job: BackupJobTable;
  instances: InstancesTable;
  restore_holds: RestoreHoldsTable;
  identity_providers: IdentityProvidersTable;
  sign_in_links: SignInLinksTable;
  sign_in_flows: SignInFlowsTable;
  sign_in_password_policy: SignInPasswordPolicyTable;
}

export interface SchoolTable {
  id: Generated<number>;
  name_hk: string;
  name_en: string;
  school_logo: string | null;
  address_hk: string | null;
  address_en: string | null;
  tel: string | null;
  fax: string | null;
  email: string | null;
  host: string | null;
  app_logo: string | null;
  app_view: string | null;
  graduate_grade: string | null;
  school_pre: string | null;
  grade_range: string | null;
  edac_connect: string | null;
  /** JSON text: [{code:'zh-hk', required:'1'}, {code:'en', required:'0'}] */
  languages: string;
  created_at: string;
  /** 1: creators must bind a Google account before creating a questionnaire (710) */
  google_required: Generated<number>;
  /** scheduled backups: every so many hours (0: off), keeping this many; when the last was made (the claim) */
  backup_every_hours: Generated<number>;
  backup_keep: Generated<number>;
  backup_last_at: string | null;
  /** the school's clock, an IANA time zone (src/shared/school-clock.ts) */
  time_zone: Generated<string>;
}

export interface UsersTable {
  id: Generated<number>;
  /** the login account */
  username: string;
  password_hash: string;
  user_type: string;
  /** staff or student code (a student's begins with S) */
  user_no: string | null;
  name_hk: string;
  name_en: string;
  email: string | null;
  google_mail: string | null;
  tel: string | null;
  gender: string | null;
  birthday: string | null;
  avatar: string | null;
  /** 1: may log in; 0: disabled */
  active: number;
  /** teacher: '1' on the job, '0' off the job; student: '1' in school, '2'/'3' left */
  status: string;
  abbr: string | null;
  position_id: number | null;
  seq: number;
  leave_date: string | null;
  login_time: string | null;
  last_login: string | null;
  created_at: string;
  updated_at: string;
  /** zh-hk or en: the language of the user's last login, for mails */
  language?: string | null;
  /** HKID, PASSPORT or OTHER (migration 0013) */
  identity_card_type: string | null;
  /** sealed with the server secret, never answered (src/server/personal/identity-card.ts) */
  identity_card_no: string | null;
  /** what every screen and export shows, e.g. A123***(7) */
  identity_card_masked: string | null;
  /** random; a reminder's sign-in link carries it and dies when it moves (migration 0030, src/server/auth/sign-in-stamp.ts) */
  sign_in_stamp: Generated<string>;
  /** the address of the user's account at the school's sign-in provider, lower case, unique when set (migration 0041, src/server/sign-in/) */
  school_account?: string | null;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** set for a session opened from a reminder link: it reaches this questionnaire only */
  questionnaire_id?: number | null;
}

/** Counters moved on by triggers whenever what QE keeps in memory changes: `auth`, `calendar` (migration 0017). */
export interface CacheVersionsTable {
  name: string;
  version: number;
}

export interface LoginFailuresTable {
  /** 'account:<name>' or 'address:<ip>' */
  key: string;
  count: number;
  window_start: number;
}

export interface MenusTable {
  id: Generated<number>;
  system: string;
  code: string;
  name_hk: string;
  name_en: string;
  sort: number;
}

export interface ActionsTable {
  id: Generated<number>;
  menu_id: number;
  code: string;
  action_group: number;
  name_hk: string;
  name_en: string;
  sort: number;
}

export interface RolesTable {
  id: Generated<number>;
  system: string;
  user_type: string;
  role_code: string;
  name_hk: string;
  name_en: string;
  remark: string | null;
  /** 1: the role new accounts of this user type get (one per user type) */
  is_default: Generated<number>;
}

export interface RoleActionsTable {
  role_id: number;
  action_id: number;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface SchoolYearsTable {
  id: Generated<number>;
  name: string;
  begin_date: string;
  end_date: string;
  /** '1' marks the current (active) year; exactly one row has it */
  year_status: string;
  /** YYYY-MM-DD: the day a prepared year becomes the current one (null: no switch waiting) */
  switch_date?: string | null;
  /** when a "new school year" roll-over filled this year (a second one is refused) */
  rolled_over_at?: string | null;
}

export interface TermsTable {
  id: Generated<number>;
  school_year_id: number;
  name_hk: string;
  name_en: string;
  begin_date: string;
  end_date: string;
  seq: number;
}

export interface GradesTable {
  id: Generated<number>;
  code: string;
  name_hk: string;
  name_en: string;
  seq: number;
}

export interface ClassesTable {
  id: Generated<number>;
  grade_id: number;
  code: string;
  name_hk: string;
  name_en: string;
  seq: number;
}

export interface PositionsTable {
  id: Generated<number>;
  code: string;
  name_hk: string;
  name_en: string;
  seq: number;
}

export interface StudentClassesTable {
  id: Generated<number>;
  user_id: number;
  school_year_id: number;
  class_id: number;
  student_number: number;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type School = Selectable<SchoolTable>;

export interface TeacherGroupsTable {
  id: Generated<number>;
  code: string;
  name_hk: string;
  name_en: string;
  seq: Generated<number>;
}

export interface TeacherGroupMembersTable {
  group_id: number;
  user_id: number;
}

export interface MailSettingsTable {
  id: Generated<number>;
  host: string;
  port: number;
  secure: Generated<number>;
  username: string | null;
  /** the SMTP password, encrypted with a key derived from the server secret (mail/secret.ts); never answered by the API */
  password: string | null;
  /** 1: TLS certificates of the SMTP server are not verified (a school relay with a certificate of its own making) */
  allow_untrusted_certificate: Generated<number>;
  from_address: string;
  from_name: string | null;
  /** the reminder template in Chinese, the schools' own language: every reader's unless the English one is written */
  reminder_subject: string;
  reminder_content: string;
  /** the reminder template for readers in English (migration 0026); null: they get the Chinese one */
  reminder_subject_en: string | null;
  reminder_content_en: string | null;
}

export interface QuestionnairesTable {
  id: Generated<number>;
  title: string;
  school_year_id: number | null;
  in_charge_id: number;
  type: string;
  status: string;
  /** ISO-8601 UTC */
  open_date: string | null;
  end_date: string | null;
  create_date: string;
  last_notice_time: string | null;
  /** ISO-8601 UTC: a "send notice" is running since (renewed as it goes); older than a few minutes it is void (questionnaires/notice.ts) */
  notice_claimed_at?: string | null;
  /** JSON: Target[] */
  targets: string;
  /** JSON: Definition */
  definition: string;
  /** the definition's languages, main first, comma-separated (migration 0025): lists pick titles without reading definitions */
  languages: Generated<string>;
  /** the title in the second language, when there is one */
  title_translation: string | null;
  updated_at: string;
  /** the questionnaire this one was copied from (migration 0036): a series, compared across years */
  source_id?: number | null;
  /** the template this one was made from (migration 0037): questionnaires of one template are a series too */
  template_id?: number | null;
}

/** A school's questionnaire template (migration 0037): a definition to start questionnaires from, no dates, no replies. */
export interface QuestionnaireTemplatesTable {
  id: Generated<number>;
  name_hk: string;
  name_en: string;
  description_hk: string | null;
  description_en: string | null;
  /** JSON: Definition, as questionnaires store it */
  definition: string;
  /** the definition's languages, main first, comma-separated (as questionnaires.languages) */
  languages: Generated<string>;
  /** NAMED or ANONYMOUS: what a questionnaire made from it starts as */
  type: Generated<string>;
  /** NONE, ALL_STUDENTS, STUDENTS_OF_GRADE, ALL_TEACHERS or EVERYONE (src/shared/calls/templates.ts) */
  audience_kind: Generated<string>;
  /** STUDENTS_OF_GRADE: the grade's code, which outlives a school year */
  grade_code: string | null;
  /** 0/1: retired ones are hidden from the list and cannot be used */
  retired: Generated<number>;
  /** which template of QE's starter set it is (templates/starters.ts); null for the school's own */
  starter_key: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** A question of the school's bank (migration 0039): a one-question definition, tagged, searched in both languages. */
export interface QuestionBankTable {
  id: Generated<number>;
  /** JSON: a Definition of one section holding the one question, its translations with it, no go-to targets */
  definition: string;
  /** the question's languages, main first, comma-separated (as questionnaires.languages) */
  languages: Generated<string>;
  /** the question's type (QUESTION_TYPES) */
  type: string;
  /** its title in each language it has; null where it has none */
  title_hk: string | null;
  title_en: string | null;
  /** JSON: the tags as written */
  tags: Generated<string>;
  /** the tags in lower case between bars (`|a|b|`), for the tag filter */
  tag_keys: Generated<string>;
  /** every text of both languages and the tags, lower case, for the search */
  search_text: Generated<string>;
  /** the questionnaire and question it was saved from: the comparison matches that question with the bank's */
  source_questionnaire_id: number | null;
  source_question_id: string | null;
  /** 0/1: retired ones are hidden from the search */
  retired: Generated<number>;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface QuestionnaireAssistantsTable {
  questionnaire_id: number;
  user_id: number;
}

/** One per respondent of an open questionnaire: who must answer and whether they have (never what they answered). */
export interface FeedbackTable {
  id: Generated<number>;
  questionnaire_id: number;
  user_id: number;
  respondent_role: string;
  designated_code: string;
  status: string;
  submitted_at: string | null;
  notified_at: string | null;
  /** the client's key of the submission that was stored: a repeated submit with it answers the first result */
  submission_key?: string | null;
  /** a student's grade and class in the questionnaire's school year when it opened (statistics filters) */
  grade_id?: number | null;
  class_id?: number | null;
}

/** One reply's answers. Anonymous: no feedback id, only the date — nothing joins it to a person. */
export interface RepliesTable {
  id: string;
  questionnaire_id: number;
  feedback_id: number | null;
  /** yyyy-MM-dd */
  submitted_on: string;
  /** JSON: Answers */
  answers: string;
  /** 1 once an anonymous reply has been rewritten among others: see filling/mixing.ts */
  mixed: Generated<number>;
  /** 1 once the reply counts in results: at once for a named one, in batches for anonymous ones (filling/mixing.ts) */
  released: Generated<number>;
  /** 0 while a named reply's countable rows and counters are still to be written (statistics/counting.ts) */
  counted: Generated<number>;
  /** copied from the feedback record: what statistics filter by; for anonymous replies all that is kept of the person */
  respondent_role?: string | null;
  grade_id?: number | null;
  class_id?: number | null;
}

/**
 * An anonymous reply until its release (migration 0028, filling/mixing.ts): a round that changes
 * anything empties this table whole and writes back, in random order, what still waits, so no
 * page keeps a reply as it arrived or where an earlier round put it. No foreign key: that would
 * keep SQLite from clearing the table at once.
 */
export interface WaitingRepliesTable {
  id: string;
  questionnaire_id: number;
  respondent_role: string | null;
  grade_id: number | null;
  class_id: number | null;
  /** yyyy-MM-dd */
  submitted_on: string;
  /** JSON: Answers */
  answers: string;
  /** 1 once a round has rewritten it among the others */
  mixed: Generated<number>;
}

/**
 * A named questionnaire's answers being typed, one per questionnaire and user (migration 0024):
 * what lets a respondent go on with them on another device (src/server/filling/drafts.ts).
 * Never for an anonymous questionnaire.
 */
export interface ReplyDraftsTable {
  questionnaire_id: number;
  user_id: number;
  /** JSON: Answers */
  answers: string;
  /** ISO-8601 UTC */
  saved_at: string;
}

/** A reply's answer rows that carry a text (text answers, 'other' texts): see src/server/statistics/answerRows.ts. */
export interface ReplyAnswersTable {
  reply_id: string;
  questionnaire_id: number;
  question_id: string;
  item: string;
  col: string;
  value_text: string | null;
  value_number: number | null;
  respondent_role: string | null;
  grade_id: number | null;
  class_id: number | null;
}

/** Countable answer rows (statistics/answerRows.ts) counted per (question, item, column) and respondent group ('' and 0: none); migration 0018. */
/** answer_counts summed over the respondent groups (migration 0022): results for everyone. */
export interface AnswerTotalsTable {
  questionnaire_id: number;
  question_id: string;
  item: string;
  col: string;
  n: number;
}

export interface AnswerCountsTable {
  questionnaire_id: number;
  question_id: string;
  item: string;
  col: string;
  respondent_role: string;
  grade_id: number;
  class_id: number;
  n: number;
}

/** Which answers use a term (migration 0035, statistics/terms.ts): `item` '' a text answer, '__other__' a choice's 'other' text. */
export interface TextTermsTable {
  questionnaire_id: number;
  question_id: string;
  item: string;
  term: string;
  reply_id: string;
}

/** A text answer reviewed for a release: shown (1) or hidden (0); an answer without a row is hidden (migration 0038). */
export interface TextAnswerMarksTable {
  reply_id: string;
  question_id: string;
  questionnaire_id: number;
  shown: number;
  /** the member of staff who marked it (null once they are removed) */
  marked_by: number | null;
  /** ISO-8601, UTC */
  marked_at: string;
}

/** A questionnaire's summary released to its respondents and/or chosen staff (migration 0040). */
export interface ResultReleasesTable {
  questionnaire_id: number;
  /** 0/1: the respondents who submitted read it */
  to_respondents: number;
  /** who released it last (null once they are removed) */
  released_by: number | null;
  /** ISO-8601, UTC */
  released_at: string;
  /** ISO-8601, UTC; null while the release stands */
  withdrawn_at: string | null;
}

/** The members of staff a release is for (migration 0040). */
export interface ResultReleaseStaffTable {
  questionnaire_id: number;
  user_id: number;
}

/** How many answers use a term, per respondent group ('' and 0: none), as answer_counts (migration 0035). */
export interface TermCountsTable {
  questionnaire_id: number;
  question_id: string;
  item: string;
  term: string;
  respondent_role: string;
  grade_id: number;
  class_id: number;
  n: number;
}

/** term_counts summed over the groups (migration 0035): the most frequent terms for everyone. */
export interface TermTotalsTable {
  questionnaire_id: number;
  question_id: string;
  item: string;
  term: string;
  n: number;
}

/** An import whose passwords are hashed after the file was checked (migration 0019); times in ms. */
/** The list an import is writing into, claimed by one import at a time on every instance (migration 0034, src/server/master/import-claims.ts). */
export interface ImportClaimsTable {
  /** the master-data resource (`students`) */
  resource: string;
  /** random, the claiming import's own */
  holder: string;
  /** moved on while the import runs; a claim whose heartbeat stopped is taken over */
  heartbeat_at: number;
}

/** The development outbox's mails (QE_MAIL_OUTBOX; migration 0034, src/server/mail/outbox.ts). */
export interface MailOutboxTable {
  /** when it was kept (13-digit milliseconds), then a random part: newest last in text order */
  id: string;
  from_address: string;
  to_address: string;
  subject: string;
  body: string;
  /** ISO 8601 */
  sent_at: string;
}

export interface ImportJobsTable {
  id: Generated<number>;
  /** the master-data resource imported into (`students`) */
  resource: string;
  user_id: number;
  /** running, done, failed (errors says why; nothing written) or interrupted (a restart; nothing written) */
  status: 'running' | 'done' | 'failed' | 'interrupted';
  rows: number;
  /** how many distinct passwords are hashed, and how many are so far */
  passwords: number;
  hashed: number;
  added: number;
  updated: number;
  skipped: number;
  /** the lines of a failed job (JSON array), in the language of the one who imported */
  errors: string | null;
  created_at: number;
  heartbeat_at: number;
  finished_at: number | null;
}

/** A page code (`page`) or action code (`page.action`) QE has seeded once: a deleted one is not seeded again. */
export interface SeededCodesTable {
  system: string;
  code: string;
}

/** A staff member's change to their own personal data, waiting for an approver (migration 0013). */
export interface PersonalDataRequestsTable {
  id: Generated<number>;
  user_id: number;
  /** WAITTING (spelled so: docs/conventions.md#naming), CONFIRM or REJECT */
  status: string;
  tel: string | null;
  gender: string | null;
  birthday: string | null;
  avatar: string | null;
  identity_card_type: string | null;
  /** sealed with the server secret (src/server/personal/identity-card.ts) */
  identity_card_no: string | null;
  identity_card_masked: string | null;
  /** why an approver rejected it */
  reason: string | null;
  decided_by: number | null;
  created_at: string;
  decided_at: string | null;
}

/** A stored file on PostgreSQL (migration 0032; src/server/storage/file-store.ts): visible once `complete` is 1. */
export interface StoredFilesTable {
  id: Generated<number>;
  /** 'storage' (uploads) or 'backups' (archives) */
  area: string;
  path: string;
  size: number;
  complete: number;
  /** epoch milliseconds */
  created_at: number;
}

/** A stored file's bytes, in order of `n`, each at most 1 MiB. */
export interface StoredFileChunksTable {
  file_id: number;
  n: number;
  bytes: Buffer;
}

/** The one backup or restore job (id 1; migration 0032), on every instance the same. */
export interface BackupJobTable {
  id: number;
  job_id: string | null;
  /** 'backup' | 'restore' */
  kind: string | null;
  /** 'running' | 'done' | 'failed' */
  state: string | null;
  done: number;
  total: number;
  name: string | null;
  error_code: number | null;
  error_message: string | null;
  /** epoch milliseconds; a running job whose heartbeat stopped was cut off */
  heartbeat_at: number;
  finished_at: number | null;
}

/** A live instance (migration 0033, backup/restore-hold.ts): its heartbeat, and the restore it has held its writes back for. */
export interface InstancesTable {
  id: string;
  started_at: number;
  seen_at: number;
  held_for: string | null;
}

/** The restore under way on some instance (at most one row, slot 1): every instance holds its writes back while it is there. */
export interface RestoreHoldsTable {
  slot: number;
  id: string;
  instance_id: string;
  started_at: number;
}

/** An OpenID Connect provider the school signs in with (migration 0041, src/server/sign-in/settings.ts). */
export interface IdentityProvidersTable {
  id: Generated<number>;
  /** microsoft | google | oidc */
  kind: string;
  name_hk: string;
  name_en: string;
  /** microsoft: the Entra ID tenant the issuer is pinned to */
  tenant: string | null;
  /** the issuer used: derived from the tenant (microsoft), fixed (google) or as entered (oidc) */
  issuer: string;
  client_id: string;
  /** the client secret sealed with the server secret (mail/secret.ts); never answered */
  secret: string | null;
  /** or the environment variable that holds it */
  secret_env: string | null;
  /** JSON arrays: the e-mail domains, the user types it may sign in */
  domains: string;
  roles: string;
  enabled: number;
  seq: number;
  created_at: string;
  updated_at: string;
}

/** A QE account's link to a provider's account (its `sub`). */
export interface SignInLinksTable {
  id: Generated<number>;
  provider_id: number;
  user_id: number;
  subject: string;
  /** the address the provider asserted when the link was made */
  email: string | null;
  linked_at: string;
  last_used_at: string | null;
}

/** A sign-in or a provider's test between its start and its completion (ten minutes at most). */
export interface SignInFlowsTable {
  /** SHA-256 (base64url) of the `state` sent to the provider */
  state_hash: string;
  provider_id: number;
  /** sign-in | test */
  purpose: string;
  nonce: string;
  code_verifier: string;
  /** SHA-256 (base64url) of the browser's key */
  browser_key_hash: string;
  return_to: string | null;
  redirect_uri: string;
  /** a test: the super administrator who started it (only they complete it) */
  started_by: number | null;
  created_at: number;
  expires_at: number;
}

/** Per user type, whether the password login stays allowed (no row: allowed). */
export interface SignInPasswordPolicyTable {
  user_type: string;
  allowed: number;
  updated_at: string;
}
