import { QUESTIONNAIRE_STATUSES, QUESTIONNAIRE_TYPES, TARGET_KINDS } from '../questionnaire/enums.js';
import { definitionSchema, envelopeOf, REFUSALS, type Shape } from './envelope.js';

/**
 * Questionnaire design, the staff side of questionnaires (src/shared/questionnaire/API.md),
 * described once (docs/conventions.md#call-shapes): the server's routes validate and write by
 * these schemas (src/server/questionnaires/index.ts), the OpenAPI page shows them, and the form
 * and list screens' types are read from them (src/shared/questionnaire/types.ts,
 * src/client/questionnaires/form/api.ts).
 */

const text = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const time = { type: ['string', 'null'], description: 'ISO-8601, UTC' } as const;
/** a record id as these calls accept it */
const id = { type: 'integer', minimum: 1 } as const;

// ---- request parts: what each call accepts (a field not named here is refused, 422)

/** `/:id` */
export const questionnaireParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id } } as const;
export type QuestionnaireParams = Shape<typeof questionnaireParams>;

const dateTime = { type: ['string', 'null'], format: 'date-time' } as const;

/** Who must answer: every choice adds people; a person chosen twice answers once. */
const targetsBody = {
  type: 'array',
  maxItems: 50,
  items: {
    type: 'object',
    required: ['kind'],
    additionalProperties: false,
    properties: { kind: { type: 'string', enum: TARGET_KINDS }, ids: { type: 'array', items: id, maxItems: 5000 } },
  },
} as const;

const fields = {
  title: { type: 'string', minLength: 1, maxLength: 200 },
  /** the title in the questionnaire's second language (docs/questionnaire-languages.md); null or '' when it has none */
  titleTranslation: { type: ['string', 'null'], maxLength: 200 },
  type: { type: 'string', enum: QUESTIONNAIRE_TYPES },
  openDate: dateTime,
  endDate: dateTime,
  assistantIds: { type: 'array', items: id, maxItems: 100 },
  targets: targetsBody,
  // checked by definitionErrors, which names every problem with its place
  definition: definitionSchema,
  schoolYearId: { type: ['integer', 'null'], minimum: 1 },
} as const;

/** GET /v1/questionnaires */
export const questionnairesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1 },
    size: { type: 'integer', minimum: 1, maximum: 200 },
    sort: { type: 'string', enum: ['id', 'title', 'status', 'openDate', 'endDate', 'createDate'] },
    order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
    q: { type: 'string', maxLength: 100 },
    status: { type: 'string', enum: QUESTIONNAIRE_STATUSES },
    schoolYearId: id,
    scope: { type: 'string', enum: ['mine', 'assisting', 'all'] },
  },
} as const;
export type QuestionnairesQuery = Shape<typeof questionnairesQuery>;

/** POST /v1/questionnaires */
export const questionnaireCreateBody = { type: 'object', required: ['title'], additionalProperties: false, properties: fields } as const;
export type QuestionnaireCreateBody = Shape<typeof questionnaireCreateBody>;

/** PUT /v1/questionnaires/:id: the fields given change (what the status allows) */
export const questionnaireChangeBody = { type: 'object', additionalProperties: false, properties: fields } as const;
export type QuestionnaireChangeBody = Shape<typeof questionnaireChangeBody>;

/** POST /v1/questionnaires/:id/extend */
export const extendBody = { type: 'object', required: ['endDate'], additionalProperties: false, properties: { endDate: { type: 'string', format: 'date-time' } } } as const;
export type ExtendBody = Shape<typeof extendBody>;

/** How last year's audience is carried to this year (docs/product-rules.md#copy-for-this-year). */
export const YEAR_COPY_AUDIENCES = ['GRADE', 'PEOPLE'] as const;

/** POST /v1/questionnaires/:id/copy-for-year */
export const yearCopyBody = {
  type: 'object',
  required: ['audience', 'type'],
  additionalProperties: false,
  properties: {
    audience: { type: 'string', enum: YEAR_COPY_AUDIENCES, description: 'GRADE: its classes and grades as they are this year; PEOPLE: the same pupils and staff, wherever they are now (those who left dropped)' },
    type: { type: 'string', enum: QUESTIONNAIRE_TYPES },
  },
} as const;
export type YearCopyBody = Shape<typeof yearCopyBody>;

/** What a copy for this year did to the audience. */
export const yearCopyRemap = {
  type: 'object',
  required: ['audience', 'fromSchoolYearId', 'toSchoolYearId', 'before', 'after', 'dropped'],
  additionalProperties: false,
  properties: {
    audience: { type: 'string', enum: YEAR_COPY_AUDIENCES },
    fromSchoolYearId: { type: ['integer', 'null'] },
    toSchoolYearId: { type: ['integer', 'null'] },
    before: { type: 'integer', description: 'the people the questionnaire was aimed at in its own year' },
    after: { type: 'integer', description: 'the people the copy is aimed at this year' },
    dropped: { type: 'integer', description: 'PEOPLE: those of before no longer in the school (graduates, leavers, accounts closed); GRADE: 0' },
  },
} as const;
export type YearCopyRemap = Shape<typeof yearCopyRemap>;

/** POST /v1/questionnaires/audience-count: the questionnaire's school year, else the current one */
export const audienceCountBody = { type: 'object', required: ['targets'], additionalProperties: false, properties: { targets: targetsBody, schoolYearId: id } } as const;
export type AudienceCountBody = Shape<typeof audienceCountBody>;

/** The pickers' query: by search text, or the given ids (react-admin's getMany), a page of them */
const optionsProperties = {
  q: { type: 'string', maxLength: 100 },
  id: { type: 'array', items: { type: 'integer' }, maxItems: 1000 },
  page: { type: 'integer', minimum: 1 },
  size: { type: 'integer', minimum: 1, maximum: 200 },
  sort: text,
  order: text,
} as const;

/** The kinds of choice the target picker offers (the ALL_* targets need none; USERS are picked as teachers or students). */
export const OPTION_KINDS = ['TEACHER_GROUP', 'GRADE', 'CLASS', 'TEACHER', 'STUDENT'] as const;

/** GET /v1/audience-options */
export const audienceOptionsQuery = {
  type: 'object',
  required: ['kind'],
  additionalProperties: false,
  properties: { ...optionsProperties, kind: { type: 'string', enum: OPTION_KINDS } },
} as const;
export type AudienceOptionsQuery = Shape<typeof audienceOptionsQuery>;

/** GET /v1/staff-options */
export const staffOptionsQuery = { type: 'object', additionalProperties: false, properties: optionsProperties } as const;
export type StaffOptionsQuery = Shape<typeof staffOptionsQuery>;

// ---- answers: what each call's `data` holds

/** One choice of the audience, as stored and answered. */
export const target = {
  type: 'object',
  required: ['kind'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: TARGET_KINDS },
    ids: { type: 'array', items: integer, description: 'teacher group, grade or class ids, or user ids (USERS); none for ALL_*' },
  },
} as const;
export type Target = Shape<typeof target>;

/** The languages a questionnaire is written in, the main one first (its definition's, docs/questionnaire-languages.md). */
export const languages = { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['zh-hk', 'en'] } } as const;

export const person = { type: 'object', required: ['id', 'nameHk', 'nameEn'], additionalProperties: false, properties: { id: integer, nameHk: text, nameEn: text } } as const;
export type Person = Shape<typeof person>;

/** A questionnaire as the list shows it (no questions). */
export const questionnaireSummary = {
  type: 'object',
  required: [
    'id', 'title', 'titleTranslation', 'languages', 'schoolYearId', 'inChargeId', 'inCharge', 'assistantIds', 'type', 'status', 'openDate', 'endDate', 'createDate', 'lastNoticeTime',
    'targets', 'audienceCount', 'submittedCount', 'respondentCount', 'hasReplies', 'mayEdit',
  ],
  additionalProperties: false,
  properties: {
    id: integer,
    title: { type: 'string', description: 'in the main language' },
    titleTranslation: { type: ['string', 'null'], description: 'in the second language, when there is one' },
    languages,
    schoolYearId: { type: ['integer', 'null'] },
    inChargeId: integer,
    inCharge: person,
    assistantIds: { type: 'array', items: integer },
    type: { type: 'string', enum: QUESTIONNAIRE_TYPES },
    status: { type: 'string', enum: QUESTIONNAIRE_STATUSES },
    openDate: time,
    endDate: time,
    createDate: { type: 'string', description: 'ISO-8601, UTC' },
    lastNoticeTime: time,
    targets: { type: 'array', items: target },
    audienceCount: { type: 'integer', description: 'people the audience resolves to (distinct)' },
    submittedCount: { type: 'integer', description: "feedback records submitted (from PROCESSING on; an anonymous questionnaire's as released, in batches)" },
    respondentCount: { type: 'integer', description: 'feedback records in all (from PROCESSING on)' },
    hasReplies: { type: 'boolean', description: 'whether a reply exists (the type is then frozen)' },
    mayEdit: { type: 'boolean', description: 'whether the caller may change it' },
  },
} as const;
export type QuestionnaireSummary = Shape<typeof questionnaireSummary>;

/** One questionnaire with its questions: what reading, creating, changing or moving one answers. */
export const questionnaireDetail = {
  ...questionnaireSummary,
  required: [...questionnaireSummary.required, 'definition'],
  properties: { ...questionnaireSummary.properties, definition: definitionSchema },
} as const;
export type QuestionnaireDetail = Shape<typeof questionnaireDetail>;

/** A questionnaire as the client handles it: from the list, or one with its questions. */
export const questionnaire = { ...questionnaireDetail, required: questionnaireSummary.required } as const;
export type Questionnaire = Shape<typeof questionnaire>;

export const questionnairePage = {
  type: 'object',
  required: ['list', 'total'],
  additionalProperties: false,
  properties: { list: { type: 'array', items: questionnaireSummary }, total: integer },
} as const;
export type QuestionnairePage = Shape<typeof questionnairePage>;

/** How many people each choice covers, and all of them without duplicates. */
export const audienceCount = {
  type: 'object',
  required: ['targets', 'total'],
  additionalProperties: false,
  properties: {
    targets: { type: 'array', items: { ...target, required: [...target.required, 'count'], properties: { ...target.properties, count: integer } } },
    total: integer,
  },
} as const;
export type AudienceCount = Shape<typeof audienceCount>;

/** What a reminder did: mails sent, failed, and respondents without an e-mail address (no mail failed for them). */
export const noticeSent = { type: 'object', required: ['sent', 'failed', 'noAddress'], additionalProperties: false, properties: { sent: integer, failed: integer, noAddress: integer } } as const;
export type NoticeSent = Shape<typeof noticeSent>;

export const imageStored = { type: 'object', required: ['path'], additionalProperties: false, properties: { path: { type: 'string', description: 'under /qe/storage/' } } } as const;
export type ImageStored = Shape<typeof imageStored>;

/** An admin or a teacher, for the assistant picker. `code` is the staff code. */
export const staffOption = {
  type: 'object',
  required: ['id', 'code', 'nameHk', 'nameEn'],
  additionalProperties: false,
  properties: { id: integer, code: { type: ['string', 'null'] }, nameHk: text, nameEn: text },
} as const;
export type StaffOption = Shape<typeof staffOption>;

/** A teacher group, grade, class or person the target picker offers, with the people it covers (1 for a person). */
export const audienceOption = {
  ...staffOption,
  required: [...staffOption.required, 'count'],
  properties: { ...staffOption.properties, count: integer },
} as const;
export type AudienceOption = Shape<typeof audienceOption>;

const pageOf = <const S extends object>(items: S) =>
  ({ type: 'object', required: ['list', 'total'], additionalProperties: false, properties: { list: { type: 'array', items }, total: integer } }) as const;

export const audienceOptionPage = pageOf(audienceOption);
export type AudienceOptionPage = Shape<typeof audienceOptionPage>;
export const staffOptionPage = pageOf(staffOption);
export type StaffOptionPage = Shape<typeof staffOptionPage>;

/** A delete answers nothing in `data`. */
export const changed = { type: 'null' } as const;

/**
 * The answers of each call, per status. A create or a copy answers HTTP 200 with 201 in the
 * envelope's `code` (`ok(data, 201)`); a refusal answers its own status (docs/errors.md).
 */
/** POST /v1/questionnaires/:id/copy-for-year: the draft made, and what became of its audience */
export const yearCopy = {
  type: 'object',
  required: ['questionnaire', 'remap'],
  additionalProperties: false,
  properties: { questionnaire: questionnaireDetail, remap: yearCopyRemap },
} as const;
export type YearCopy = Shape<typeof yearCopy>;

export const QUESTIONNAIRE_ANSWERS = {
  /** GET /v1/questionnaires */
  list: { 200: envelopeOf(questionnairePage), ...REFUSALS },
  /** GET, POST, PUT /v1/questionnaires(/:id), and the transitions, extend and copy: the questionnaire as it is now */
  one: { 200: envelopeOf(questionnaireDetail), ...REFUSALS },
  /** POST /v1/questionnaires/:id/copy-for-year */
  yearCopy: { 200: envelopeOf(yearCopy), ...REFUSALS },
  /** DELETE /v1/questionnaires/:id */
  changed: { 200: envelopeOf(changed), ...REFUSALS },
  /** POST /v1/questionnaires/:id/notice */
  notice: { 200: envelopeOf(noticeSent), ...REFUSALS },
  /** POST /v1/questionnaires/audience-count */
  audienceCount: { 200: envelopeOf(audienceCount), ...REFUSALS },
  /** POST /v1/questionnaires/images */
  image: { 200: envelopeOf(imageStored), ...REFUSALS },
  /** GET /v1/audience-options */
  audienceOptions: { 200: envelopeOf(audienceOptionPage), ...REFUSALS },
  /** GET /v1/staff-options */
  staffOptions: { 200: envelopeOf(staffOptionPage), ...REFUSALS },
} as const;
