import { languages } from './questionnaires.js';
import { QUESTIONNAIRE_TYPES } from '../questionnaire/enums.js';
import { envelopeOf, REFUSALS, type Shape } from './envelope.js';

/**
 * GET /v1/my/dashboard, the home screen's one call, described once
 * (docs/conventions.md#call-shapes): the route writes by this schema
 * (src/server/dashboard/index.ts), the OpenAPI page shows it, and the home screen's types are
 * read from it (src/shared/dashboard.ts).
 */

const text = { type: 'string' } as const;
const integer = { type: 'integer' } as const;

/** A questionnaire I am asked to answer, on the home screen. */
export const dashboardQuestionnaire = {
  type: 'object',
  required: ['id', 'title', 'titleTranslation', 'languages', 'type', 'endDate'],
  additionalProperties: false,
  // the title in the main language and the second; `titleIn` picks the reader's (docs/questionnaire-languages.md)
  properties: { id: integer, title: text, titleTranslation: { type: ['string', 'null'] }, languages, type: { type: 'string', enum: QUESTIONNAIRE_TYPES }, endDate: { type: ['string', 'null'], description: 'ISO-8601, UTC; null: no end date' } },
} as const;
export type DashboardQuestionnaire = Shape<typeof dashboardQuestionnaire>;

/** A running questionnaire whose results I read, with how many were asked and have submitted. */
export const runningQuestionnaire = {
  ...dashboardQuestionnaire,
  required: [...dashboardQuestionnaire.required, 'respondents', 'submitted', 'mayRemind'],
  properties: {
    ...dashboardQuestionnaire.properties,
    respondents: integer,
    submitted: { type: 'integer', description: "an anonymous questionnaire's: the replies released so far (in batches), never the live count" },
    mayRemind: { type: 'boolean', description: 'whether I may send its reminder mail (POST /v1/questionnaires/:id/notice)' },
  },
} as const;
export type RunningQuestionnaire = Shape<typeof runningQuestionnaire>;

/** One of my imports into a master-data list. */
export const dashboardImport = {
  type: 'object',
  required: ['id', 'resource', 'status', 'rows', 'added', 'updated', 'skipped', 'createdAt', 'finishedAt'],
  additionalProperties: false,
  properties: {
    id: integer,
    resource: { type: 'string', description: 'the list imported into, e.g. `students`' },
    status: { type: 'string', enum: ['running', 'done', 'failed', 'interrupted'] },
    rows: integer,
    added: integer,
    updated: integer,
    skipped: integer,
    createdAt: { type: 'string', description: 'ISO-8601, UTC' },
    finishedAt: { type: ['string', 'null'], description: 'ISO-8601, UTC' },
  },
} as const;
export type DashboardImport = Shape<typeof dashboardImport>;

/** A card's first rows (at most 10), and how many there are in all. */
const card = <const S extends object>(items: S) =>
  ({ anyOf: [{ type: 'object', required: ['total', 'list'], additionalProperties: false, properties: { total: integer, list: { type: 'array', items } } }, { type: 'null' }] }) as const;

/**
 * What the home screen shows, each card null for whom it does not serve — toAnswer
 * (form-input.view): questionnaires open now I have not submitted, soonest end first,
 * none-ending last; running (data-statistics.view): running questionnaires whose results I read;
 * school (data-statistics.management): the school's running questionnaires in all, and my latest
 * imports.
 */
export const dashboard = {
  type: 'object',
  required: ['toAnswer', 'running', 'school'],
  additionalProperties: false,
  properties: {
    toAnswer: card(dashboardQuestionnaire),
    running: card(runningQuestionnaire),
    school: {
      anyOf: [
        {
          type: 'object',
          required: ['openQuestionnaires', 'respondents', 'submitted', 'imports'],
          additionalProperties: false,
          properties: { openQuestionnaires: integer, respondents: integer, submitted: integer, imports: { type: 'array', items: dashboardImport } },
        },
        { type: 'null' },
      ],
    },
  },
} as const;
export type Dashboard = Shape<typeof dashboard>;

export const DASHBOARD_ANSWERS = {
  /** GET /v1/my/dashboard */
  dashboard: { 200: envelopeOf(dashboard), ...REFUSALS },
} as const;
