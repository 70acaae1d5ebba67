import { languages } from './questionnaires.js';
import { QUESTIONNAIRE_STATUSES, QUESTIONNAIRE_TYPES } from '../questionnaire/enums.js';
import { choicesSummary, gridSummary, names, questionStatistics, scaleSummary, statisticsParams, withheld } from './statistics.js';
import { envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { idSchema } from './parts.js';

/**
 * Results released (docs/product-rules.md#results-released): a finished questionnaire's summary
 * released by its person in charge to its respondents and/or chosen staff, and what those readers
 * get. Not the anonymous replies released in batches (src/server/filling/released.ts): those are
 * replies entering the results, this is the results reaching their readers. Described once
 * (docs/conventions.md#call-shapes): src/server/statistics/result-release.ts answers them.
 */

const text = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const instant = { type: 'string', description: 'ISO-8601, UTC' } as const;

/** At most this many members of staff in one release. */
export const MAX_RELEASE_STAFF = 100;

/** `/:id` of both the staff's and the readers' calls */
export const resultReleaseParams = statisticsParams;
export type ResultReleaseParams = Shape<typeof resultReleaseParams>;

/** PUT /v1/statistics/:id/release: to whom; released again, it replaces who reads it. */
export const resultReleaseBody = {
  type: 'object',
  required: ['respondents', 'staff'],
  additionalProperties: false,
  properties: {
    respondents: { type: 'boolean', description: 'the respondents who submitted a reply read it' },
    staff: { type: 'array', maxItems: MAX_RELEASE_STAFF, uniqueItems: true, items: idSchema, description: 'the user ids of the members of staff (not students) who read it' },
  },
} as const;
export type ResultReleaseBody = Shape<typeof resultReleaseBody>;

const person = { type: 'object', required: ['id', 'nameHk', 'nameEn'], additionalProperties: false, properties: { id: integer, nameHk: text, nameEn: text } } as const;

/** GET, PUT and DELETE /v1/statistics/:id/release: the release as it stands, and what a release would show. */
export const resultReleaseState = {
  type: 'object',
  required: ['status', 'mayRelease', 'shownTexts', 'withheld', 'release'],
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: QUESTIONNAIRE_STATUSES, description: 'only a FINISHED questionnaire is released' },
    mayRelease: { type: 'boolean', description: 'the caller is its person in charge or a results manager (data-statistics.management)' },
    shownTexts: { type: 'integer', description: "how many text answers are marked shown: the only texts a release shows" },
    withheld: { anyOf: [withheld, { type: 'null' }], description: 'an anonymous questionnaire with fewer released replies than its minimum group: nothing may be released' },
    release: {
      anyOf: [
        {
          type: 'object',
          required: ['respondents', 'staff', 'releasedBy', 'releasedAt', 'withdrawnAt'],
          additionalProperties: false,
          properties: {
            respondents: { type: 'boolean' },
            staff: { type: 'array', items: person },
            releasedBy: { anyOf: [person, { type: 'null' }] },
            releasedAt: instant,
            withdrawnAt: { type: ['string', 'null'], description: 'ISO-8601, UTC; null while it stands' },
          },
        },
        { type: 'null' },
      ],
      description: 'null when never released',
    },
  },
} as const;
export type ResultReleaseState = Shape<typeof resultReleaseState>;

/** The questionnaire a summary is of, as its readers see it. */
const summaryQuestionnaire = {
  type: 'object',
  required: ['id', 'title', 'titleTranslation', 'languages', 'type', 'openDate', 'endDate', 'inCharge', 'releasedAt'],
  additionalProperties: false,
  properties: {
    id: integer,
    title: text,
    titleTranslation: { type: ['string', 'null'] },
    languages,
    type: { type: 'string', enum: QUESTIONNAIRE_TYPES },
    openDate: { type: ['string', 'null'] },
    endDate: { type: ['string', 'null'] },
    inCharge: names,
    releasedAt: instant,
  },
} as const;

/** GET /v1/my/result-summaries: the summaries released to me, the latest first. */
export const resultSummaryList = {
  type: 'object',
  required: ['list', 'total'],
  additionalProperties: false,
  properties: { list: { type: 'array', items: summaryQuestionnaire }, total: integer },
} as const;
export type ResultSummaryList = Shape<typeof resultSummaryList>;
export type ResultSummaryItem = ResultSummaryList['list'][number];

/** A question as the statistics detail names it. */
const { id, number, sectionTitle, type, title, answered } = questionStatistics.properties;
const questionHead = { id, number, sectionTitle, type, title, answered };

/** One question of a released summary: a chart's figures, or the texts marked shown — never who answered. */
export const summaryQuestion = {
  type: 'object',
  required: ['id', 'number', 'sectionTitle', 'type', 'title', 'answered', 'summary', 'texts'],
  additionalProperties: false,
  properties: {
    ...questionHead,
    summary: { anyOf: [choicesSummary, gridSummary, scaleSummary, { type: 'null' }], description: 'choice, scale and grid questions: the figures of the statistics detail without a filter; null for a text question' },
    texts: { anyOf: [{ type: 'array', items: text }, { type: 'null' }], description: 'text questions: only the answers staff marked shown (none if none is marked); null for the others' },
  },
} as const;
export type SummaryQuestion = Shape<typeof summaryQuestion>;

/** GET /v1/my/result-summaries/:id */
export const resultSummary = {
  type: 'object',
  required: ['questionnaire', 'replyCount', 'questions'],
  additionalProperties: false,
  properties: {
    questionnaire: summaryQuestionnaire,
    replyCount: { type: 'integer', description: 'the replies the figures are made of' },
    questions: { type: 'array', items: summaryQuestion },
  },
} as const;
export type ResultSummary = Shape<typeof resultSummary>;

export const RESULT_RELEASE_ANSWERS = {
  /** GET, PUT, DELETE /v1/statistics/:id/release */
  state: { 200: envelopeOf(resultReleaseState), ...REFUSALS },
  /** GET /v1/my/result-summaries */
  list: { 200: envelopeOf(resultSummaryList), ...REFUSALS },
  /** GET /v1/my/result-summaries/:id */
  one: { 200: envelopeOf(resultSummary), ...REFUSALS },
} as const;
