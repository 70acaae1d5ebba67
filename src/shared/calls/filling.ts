import { languages } from './questionnaires.js';
import { FEEDBACK_STATUSES, QUESTIONNAIRE_STATUSES, QUESTIONNAIRE_TYPES } from '../questionnaire/types.js';
import { answersSchema, definitionSchema, envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { idParams, idSchema, pagingProperties } from './parts.js';

/**
 * The respondent's calls (docs/architecture.md#a-submission), each described once: the server's
 * routes validate and write by these schemas (src/server/filling/index.ts), the OpenAPI page shows
 * them, and the answer screen's types are read from them (src/client/filling/model.ts).
 */

const time = { type: ['string', 'null'], description: 'ISO-8601, UTC' } as const;

export const myQuestionnairesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    schoolYearId: idSchema,
    status: { type: 'string', enum: QUESTIONNAIRE_STATUSES },
    feedbackStatus: { type: 'string', enum: FEEDBACK_STATUSES },
    ...pagingProperties(200),
    // react-admin sends them; the list has one order (in progress first, soonest end)
    sort: { type: 'string' },
    order: { type: 'string' },
  },
} as const;
export type MyQuestionnairesQuery = Shape<typeof myQuestionnairesQuery>;

/** One questionnaire that targets me, as my list shows it. */
export const myQuestionnaire = {
  type: 'object',
  required: ['id', 'title', 'titleTranslation', 'languages', 'status', 'type', 'openDate', 'endDate', 'schoolYearId', 'inCharge', 'feedbackStatus', 'submittedAt', 'designatedCode'],
  additionalProperties: false,
  properties: {
    id: idSchema,
    /** in the main language; `titleIn` picks the reader's (docs/questionnaire-languages.md) */
    title: { type: 'string' },
    titleTranslation: { type: ['string', 'null'] },
    languages,
    status: { type: 'string', enum: QUESTIONNAIRE_STATUSES },
    type: { type: 'string', enum: QUESTIONNAIRE_TYPES },
    openDate: time,
    endDate: time,
    schoolYearId: { type: ['integer', 'null'] },
    inCharge: { type: 'object', required: ['nameHk', 'nameEn'], additionalProperties: false, properties: { nameHk: { type: 'string' }, nameEn: { type: 'string' } } },
    feedbackStatus: { type: 'string', enum: FEEDBACK_STATUSES },
    submittedAt: time,
    /** the respondent's code on this questionnaire: what a paper copy would carry */
    designatedCode: { type: 'string' },
  },
} as const;
export type MyQuestionnaire = Shape<typeof myQuestionnaire>;

/** One questionnaire to answer: its questions, and my answers once submitted (null when anonymous). */
export const myQuestionnaireDetail = {
  ...myQuestionnaire,
  required: [...myQuestionnaire.required, 'definition', 'answers'],
  properties: { ...myQuestionnaire.properties, definition: definitionSchema, answers: { anyOf: [answersSchema, { type: 'null' }] } },
} as const;
export type MyQuestionnaireDetail = Shape<typeof myQuestionnaireDetail>;

export const replyBody = {
  type: 'object',
  required: ['submissionKey', 'answers'],
  additionalProperties: false,
  properties: {
    /** the client's key of this submission: a repeat with the same key answers the first result */
    submissionKey: { type: 'string', minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' },
    answers: answersSchema,
  },
} as const;
export type ReplyBody = Shape<typeof replyBody>;

export const replyStored = { type: 'object', required: ['submittedAt'], additionalProperties: false, properties: { submittedAt: time } } as const;
export type ReplyStored = Shape<typeof replyStored>;

/**
 * PUT /v1/my/questionnaires/:id/draft: the answers being typed of a named questionnaire, kept on
 * the server so that I can go on on another device (docs/product-rules.md#states). The body as
 * a reply's answers (same schema), bounded (docs/security.md#drafts-are-bounded: its own body
 * limit, the questionnaire's largest draft, no key it does not have); answers the questionnaire
 * cannot take are dropped (draftAnswers, src/shared/questionnaire/answers.ts).
 */
export const draftBody = { type: 'object', required: ['answers'], additionalProperties: false, properties: { answers: answersSchema } } as const;
export type DraftBody = Shape<typeof draftBody>;

export const draftStored = { type: 'object', required: ['savedAt'], additionalProperties: false, properties: { savedAt: { type: 'string', description: 'ISO-8601, UTC' } } } as const;
export type DraftStored = Shape<typeof draftStored>;

/** GET …/draft: my draft as kept, or null when there is none. */
export const replyDraft = {
  type: 'object',
  required: ['answers', 'savedAt'],
  additionalProperties: false,
  properties: { answers: answersSchema, savedAt: draftStored.properties.savedAt },
} as const;
export type ReplyDraft = Shape<typeof replyDraft>;

/** POST /v1/quick-login: the token of a reminder mail's link. */
export const quickLoginBody = { type: 'object', required: ['token'], additionalProperties: false, properties: { token: { type: 'string', minLength: 10, maxLength: 2000 } } } as const;
export type QuickLoginBody = Shape<typeof quickLoginBody>;

/** A session for the link's questionnaire only. */
export const quickSession = {
  type: 'object',
  required: ['tk', 'userId', 'questionnaireId'],
  additionalProperties: false,
  properties: { tk: { type: 'string' }, userId: idSchema, questionnaireId: idSchema },
} as const;
export type QuickSession = Shape<typeof quickSession>;

/** The answers of each call, per status. 422: `{questionId: message}` in `data`. */
export const FILLING_ANSWERS = {
  quickLogin: { 200: envelopeOf(quickSession), ...REFUSALS },
  list: { 200: envelopeOf({ type: 'object', required: ['list', 'total'], properties: { list: { type: 'array', items: myQuestionnaire }, total: { type: 'integer' } } }), ...REFUSALS },
  one: { 200: envelopeOf(myQuestionnaireDetail), ...REFUSALS },
  reply: { 200: envelopeOf(replyStored), ...REFUSALS },
  draft: { 200: envelopeOf({ anyOf: [replyDraft, { type: 'null' }] }), ...REFUSALS },
  draftSaved: { 200: envelopeOf(draftStored), ...REFUSALS },
  draftDeleted: { 200: envelopeOf({ type: 'null' }), ...REFUSALS },
} as const;

export { idParams as myQuestionnaireParams };
