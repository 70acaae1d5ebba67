import { languages } from './questionnaires.js';
import { QUESTIONNAIRE_STATUSES, QUESTIONNAIRE_TYPES } from '../questionnaire/enums.js';
import { QUESTION_TYPES } from '../questionnaire/definition-types.js';
import { RESPONDENT_ROLES } from '../statistics/enums.js';
import { answersSchema, definitionSchema, envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { idParams, idSchema, pagingProperties } from './parts.js';

/**
 * Statistics, the results of opened questionnaires (src/shared/statistics/API.md), described
 * once (docs/conventions.md#call-shapes): the server's routes validate and write by these
 * schemas (src/server/statistics/index.ts), the OpenAPI page shows them, and the statistics
 * screens' types are read from them (src/shared/statistics/types.ts, types only).
 */

const text = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const time = { type: ['string', 'null'], description: 'ISO-8601, UTC' } as const;
/** a share of a count: percent() of src/shared/statistics/types.ts, one decimal */
const share = { type: 'number', description: 'a percentage with one decimal' } as const;
const nullable = <const S extends object>(schema: S) => ({ anyOf: [schema, { type: 'null' }] }) as const;

// ---- request parts: what each call accepts (a field not named here is refused, 422)

/** Which respondents a summary counts: every filter optional, all absent = everyone. */
const filterProperties = {
  role: { type: 'string', enum: RESPONDENT_ROLES },
  gradeId: idSchema,
  classId: idSchema,
} as const;

/** GET /v1/statistics */
export const statisticsListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pagingProperties(200),
    sort: { type: 'string', enum: ['createDate', 'title', 'status', 'openDate', 'endDate'] },
    order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
    q: { type: 'string', maxLength: 200 },
    status: { type: 'string', enum: QUESTIONNAIRE_STATUSES },
    schoolYearId: idSchema,
  },
} as const;
export type StatisticsListQuery = Shape<typeof statisticsListQuery>;

/** `/:id` */
export const statisticsParams = idParams;
export type StatisticsParams = Shape<typeof statisticsParams>;

/** GET /v1/statistics/:id and its export: the filter */
export const statisticsFilterQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...filterProperties,
    /** the language of the questionnaire's texts and the report's own (docs/questionnaire-languages.md); default the interface language (Accept-Language) */
    language: { type: 'string', enum: ['zh-hk', 'en'] },
  },
} as const;
export type StatisticsFilterQuery = Shape<typeof statisticsFilterQuery>;

/** GET /v1/statistics/:id/texts: a text question's answers, or a choice question's 'other' texts */
export const statisticsTextsQuery = {
  type: 'object',
  required: ['questionId'],
  additionalProperties: false,
  properties: {
    ...filterProperties,
    ...pagingProperties(200),
    questionId: { type: 'string', minLength: 1, maxLength: 100 },
    part: { type: 'string', enum: ['answer', 'other'], description: "answer (default), or other: a choice question's 'other' texts" },
    q: { type: 'string', maxLength: 200, description: 'contains, case-insensitive' },
    term: { type: 'string', minLength: 1, maxLength: 40, description: 'only the answers that use this word or phrase (one of GET …/terms)' },
    shown: { type: 'boolean', description: 'only the answers marked shown (true), or those not marked shown (false: hidden or never marked)' },
  },
} as const;
export type StatisticsTextsQuery = Shape<typeof statisticsTextsQuery>;

/** At most this many answers are marked by one call: a page of texts is 200 at most. */
export const MAX_TEXT_MARKS = 200;

/** PUT /v1/statistics/:id/texts/marks: text answers of one text question marked shown or hidden for a release */
export const textMarksBody = {
  type: 'object',
  required: ['questionId', 'replyIds', 'shown'],
  additionalProperties: false,
  properties: {
    ...filterProperties,
    questionId: { type: 'string', minLength: 1, maxLength: 100 },
    replyIds: { type: 'array', minItems: 1, maxItems: MAX_TEXT_MARKS, items: { type: 'string', minLength: 1, maxLength: 64 }, description: "the answers' replies (replyId of GET …/texts)" },
    shown: { type: 'boolean', description: 'true: shown in a release; false: hidden' },
  },
} as const;
export type TextMarksBody = Shape<typeof textMarksBody>;

/** GET /v1/statistics/:id/terms: the most frequent words and phrases of a text question's answers, or of a choice question's 'other' texts */
export const statisticsTermsQuery = {
  type: 'object',
  required: ['questionId'],
  additionalProperties: false,
  properties: {
    ...filterProperties,
    questionId: { type: 'string', minLength: 1, maxLength: 100 },
    part: { type: 'string', enum: ['answer', 'other'], description: "answer (default), or other: a choice question's 'other' texts" },
    size: { type: 'integer', minimum: 1, maximum: 100, description: 'how many terms (30 by default)' },
  },
} as const;
export type StatisticsTermsQuery = Shape<typeof statisticsTermsQuery>;

/** GET /v1/statistics/:id/respondents */
export const statisticsRespondentsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...filterProperties,
    ...pagingProperties(200),
    status: { type: 'string', enum: ['SUBMITTED', 'NOT_SUBMITTED'], description: 'named questionnaires only' },
    q: { type: 'string', maxLength: 200, description: 'a name or user no (named questionnaires only)' },
  },
} as const;
export type StatisticsRespondentsQuery = Shape<typeof statisticsRespondentsQuery>;

/** `/:id/replies/:replyId` */
export const statisticsReplyParams = {
  type: 'object',
  required: ['id', 'replyId'],
  additionalProperties: false,
  properties: { id: idSchema, replyId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
export type StatisticsReplyParams = Shape<typeof statisticsReplyParams>;

// ---- answers: what each call's `data` holds

/** Names in both languages, as master data keeps them. */
export const names = { type: 'object', required: ['nameHk', 'nameEn'], additionalProperties: false, properties: { nameHk: text, nameEn: text } } as const;
export type Names = Shape<typeof names>;

/** A record with its names: a person, a grade, a class. */
const named = { type: 'object', required: ['id', 'nameHk', 'nameEn'], additionalProperties: false, properties: { id: integer, nameHk: text, nameEn: text } } as const;

/** One row of the statistics list (docs/product-rules.md#records-and-fields). */
export const statisticsRow = {
  type: 'object',
  required: ['id', 'title', 'titleTranslation', 'languages', 'schoolYear', 'principal', 'status', 'type', 'createDate', 'openDate', 'endDate', 'submittedNum', 'respondentNum', 'responseRate'],
  additionalProperties: false,
  properties: {
    id: integer,
    /** in the main language; `titleIn` picks the reader's (docs/questionnaire-languages.md) */
    title: text,
    titleTranslation: { type: ['string', 'null'] },
    languages,
    schoolYear: { ...nullable({ type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: integer, name: text } }), description: "the questionnaire's school year (its name, e.g. 2026-2027)" },
    principal: { ...named, description: 'the person in charge' },
    status: { type: 'string', enum: QUESTIONNAIRE_STATUSES },
    type: { type: 'string', enum: QUESTIONNAIRE_TYPES },
    createDate: { type: 'string', description: 'ISO-8601, UTC' },
    openDate: time,
    endDate: time,
    submittedNum: { type: 'integer', description: "an anonymous questionnaire's: the replies released so far (in batches), never the live count" },
    respondentNum: integer,
    responseRate: { type: ['number', 'null'], description: 'submittedNum / respondentNum as a percentage with one decimal; null when nobody is asked' },
  },
} as const;
export type StatisticsRow = Shape<typeof statisticsRow>;

/** GET /v1/statistics: a page of the list. */
export const statisticsPage = {
  type: 'object',
  required: ['list', 'total'],
  additionalProperties: false,
  properties: { list: { type: 'array', items: statisticsRow }, total: integer },
} as const;
export type StatisticsPage = Shape<typeof statisticsPage>;

/** The filter a detail was counted for, as it was given. */
export const statisticsFilter = {
  type: 'object',
  additionalProperties: false,
  properties: { role: filterProperties.role, gradeId: integer, classId: integer },
} as const;
export type StatisticsFilter = Shape<typeof statisticsFilter>;

/** A count and its share of the summary's `base`. */
export const count = { type: 'object', required: ['count', 'percent'], additionalProperties: false, properties: { count: integer, percent: share } } as const;
export type Count = Shape<typeof count>;

export const choiceCount = {
  type: 'object',
  required: ['id', 'label', 'count', 'percent'],
  additionalProperties: false,
  properties: { id: { type: 'string', description: "a choice id, or '__other__' for the respondents' own texts" }, label: text, ...count.properties },
} as const;
export type ChoiceCount = Shape<typeof choiceCount>;

export const valueCount = {
  type: 'object',
  required: ['value', 'count', 'percent'],
  additionalProperties: false,
  properties: { value: { type: 'string', description: "a scale point as text ('1'), a date yyyy-MM-dd or a time HH:mm" }, ...count.properties },
} as const;
export type ValueCount = Shape<typeof valueCount>;

const label = { type: 'object', required: ['id', 'label'], additionalProperties: false, properties: { id: text, label: text } } as const;

/** RADIO, DROPDOWN: percent of those who answered; CHECKBOX: percent of respondents who answered the question (a reply counts once per choice). */
export const choicesSummary = {
  type: 'object',
  required: ['kind', 'base', 'choices'],
  additionalProperties: false,
  properties: { kind: { type: 'string', const: 'choices' }, base: integer, choices: { type: 'array', items: choiceCount } },
} as const;

/** GRID_RADIO, GRID_CHECKBOX: per row, each column's count and its percent of those who answered that row. */
export const gridSummary = {
  type: 'object',
  required: ['kind', 'columns', 'rows'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', const: 'grid' },
    columns: { type: 'array', items: label },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'label', 'base', 'cells'],
        additionalProperties: false,
        properties: {
          ...label.properties,
          base: integer,
          cells: { type: 'array', items: { type: 'object', required: ['id', 'count', 'percent'], additionalProperties: false, properties: { id: text, ...count.properties } } },
        },
      },
    },
  },
} as const;

/** LINEAR_SCALE: every point from min to max (zero counts included), mean and median of the answers (null without answers). */
export const scaleSummary = {
  type: 'object',
  required: ['kind', 'base', 'min', 'max', 'points', 'mean', 'median'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', const: 'scale' },
    base: integer,
    min: integer,
    max: integer,
    minLabel: text,
    maxLabel: text,
    points: { type: 'array', items: valueCount },
    mean: { type: ['number', 'null'] },
    median: { type: ['number', 'null'] },
  },
} as const;

/** DATE, TIME: each value given, in order. */
export const distributionSummary = {
  type: 'object',
  required: ['kind', 'base', 'values'],
  additionalProperties: false,
  properties: { kind: { type: 'string', const: 'distribution' }, base: integer, values: { type: 'array', items: valueCount } },
} as const;

/** SHORT_TEXT, PARAGRAPH: how many answered; the texts come from GET …/texts, paged. */
export const textsSummary = { type: 'object', required: ['kind', 'base'], additionalProperties: false, properties: { kind: { type: 'string', const: 'texts' }, base: integer } } as const;

/** The summary that fits the question's type, told by its `kind` (docs/recipes/add-statistics-summary.md). */
export const questionSummary = { anyOf: [choicesSummary, gridSummary, scaleSummary, distributionSummary, textsSummary] } as const;
export type QuestionSummary = Shape<typeof questionSummary>;

export const questionStatistics = {
  type: 'object',
  required: ['id', 'number', 'sectionTitle', 'type', 'title', 'required', 'answered', 'summary'],
  additionalProperties: false,
  properties: {
    id: text,
    number: { type: 'integer', description: '1-based over the whole questionnaire, as the respondent saw it' },
    sectionTitle: text,
    type: { type: 'string', enum: QUESTION_TYPES },
    title: text,
    description: text,
    image: { type: 'string', description: 'a path under /qe/storage/' },
    required: { type: 'boolean' },
    answered: { type: 'integer', description: 'replies that answered this question' },
    summary: { anyOf: [...questionSummary.anyOf, { type: 'null' }], description: 'null when withheld' },
  },
} as const;
export type QuestionStatistics = Shape<typeof questionStatistics>;

/** How many of a group were asked and answered. */
export const groupCount = { type: 'object', required: ['respondentNum', 'submittedNum'], additionalProperties: false, properties: { respondentNum: integer, submittedNum: integer } } as const;
export type GroupCount = Shape<typeof groupCount>;

/**
 * Why an anonymous questionnaire's results are withheld: the filter's group is too small, or
 * leaves too few outside it (`group`); or the questionnaire has fewer replies than the minimum
 * in all (`total`).
 */
export const withheld = {
  type: 'object',
  required: ['minGroupSize', 'reason'],
  additionalProperties: false,
  properties: { minGroupSize: integer, reason: { type: 'string', enum: ['group', 'total'] } },
} as const;
export type Withheld = Shape<typeof withheld>;

const withheldOrNull = { ...nullable(withheld), description: 'anonymous questionnaires only: why every summary, text and reply number is withheld; null when shown' } as const;

/** GET /v1/statistics/:id: every question's summary for the filtered respondents, the groups to filter by, and the counts. */
export const statisticsDetail = {
  type: 'object',
  required: ['questionnaire', 'filter', 'groups', 'replyCount', 'respondentNum', 'submittedNum', 'releaseBatch', 'withheld', 'questions'],
  additionalProperties: false,
  properties: {
    questionnaire: statisticsRow,
    filter: statisticsFilter,
    groups: {
      type: 'object',
      required: ['roles', 'grades', 'classes'],
      additionalProperties: false,
      description: "the groups to filter by: roles; grades and classes of the questionnaire's school year that have respondents",
      properties: {
        roles: { type: 'array', items: { type: 'object', required: ['role', ...groupCount.required], additionalProperties: false, properties: { role: filterProperties.role, ...groupCount.properties } } },
        grades: { type: 'array', items: { type: 'object', required: [...named.required, ...groupCount.required], additionalProperties: false, properties: { ...named.properties, ...groupCount.properties } } },
        classes: {
          type: 'array',
          items: { type: 'object', required: [...named.required, 'gradeId', ...groupCount.required], additionalProperties: false, properties: { ...named.properties, gradeId: integer, ...groupCount.properties } },
        },
      },
    },
    replyCount: { type: 'integer', description: 'the replies the filter selects (every reply without a filter)' },
    respondentNum: { type: 'integer', description: 'respondents the filter selects' },
    submittedNum: { type: 'integer', description: "how many of them submitted (an anonymous questionnaire's: the released replies)" },
    releaseBatch: { type: ['integer', 'null'], description: 'anonymous questionnaires only: replies enter results in batches of at least this many, all of them once it finishes; null for a named one' },
    withheld: withheldOrNull,
    questions: { type: 'array', items: questionStatistics },
  },
} as const;
export type StatisticsDetail = Shape<typeof statisticsDetail>;

/** A respondent of a named questionnaire (who has and has not answered). */
export const namedRespondent = {
  type: 'object',
  required: ['feedbackId', 'role', 'nameHk', 'nameEn', 'userNo', 'class', 'classNumber', 'status', 'submittedAt', 'replyId'],
  additionalProperties: false,
  properties: {
    feedbackId: integer,
    role: filterProperties.role,
    ...names.properties,
    userNo: { type: ['string', 'null'] },
    class: nullable(named),
    classNumber: { type: ['integer', 'null'] },
    status: { type: 'string', enum: ['SUBMITTED', 'NOT_SUBMITTED'] },
    submittedAt: time,
    replyId: { type: ['string', 'null'], description: 'to open the reply: GET /v1/statistics/{id}/replies/{replyId}' },
  },
} as const;
export type NamedRespondent = Shape<typeof namedRespondent>;

/** A reply of an anonymous questionnaire: 'anonymous N', never a name. */
export const anonymousRespondent = {
  type: 'object',
  required: ['number', 'replyId', 'submittedOn'],
  additionalProperties: false,
  properties: { number: integer, replyId: text, submittedOn: { type: 'string', description: 'yyyy-MM-dd: the day only' } },
} as const;
export type AnonymousRespondent = Shape<typeof anonymousRespondent>;

/** GET /v1/statistics/:id/respondents: who was asked and answered (named), or the numbered replies and how many have not submitted (anonymous). */
export const respondentPage = {
  anyOf: [
    {
      type: 'object',
      required: ['anonymous', 'list', 'total'],
      additionalProperties: false,
      properties: { anonymous: { type: 'boolean', const: false }, list: { type: 'array', items: namedRespondent }, total: integer },
    },
    {
      type: 'object',
      required: ['anonymous', 'list', 'total', 'notSubmittedNum', 'withheld'],
      additionalProperties: false,
      properties: { anonymous: { type: 'boolean', const: true }, list: { type: 'array', items: anonymousRespondent }, total: integer, notSubmittedNum: integer, withheld: withheldOrNull },
    },
  ],
} as const;
export type RespondentPage = Shape<typeof respondentPage>;

/** A questionnaire of a series: a statistics row without its response counts (each year's replies are its `replyCount`). */
const p = statisticsRow.properties;
const seriesQuestionnaire = {
  type: 'object',
  required: ['id', 'title', 'titleTranslation', 'languages', 'schoolYear', 'status', 'type', 'openDate', 'endDate'],
  additionalProperties: false,
  properties: { id: p.id, title: p.title, titleTranslation: p.titleTranslation, languages: p.languages, schoolYear: p.schoolYear, status: p.status, type: p.type, openDate: p.openDate, endDate: p.endDate },
} as const;

/** GET /v1/statistics/:id/comparison: the questionnaire's series, year by year (docs/product-rules.md#comparison-across-years) */
export const statisticsComparison = {
  type: 'object',
  required: ['series', 'questions'],
  additionalProperties: false,
  properties: {
    series: {
      type: 'array',
      description: 'the questionnaires of the series the caller may read that have opened, oldest school year first',
      items: {
        type: 'object',
        required: ['questionnaire', 'replyCount', 'withheld'],
        additionalProperties: false,
        properties: { questionnaire: seriesQuestionnaire, replyCount: integer, withheld: withheldOrNull },
      },
    },
    questions: {
      type: 'array',
      description: "every question of the series, matched by id (a copy keeps its questions' ids): in the chosen questionnaire's order, then those it does not have",
      items: {
        type: 'object',
        required: ['id', 'type', 'title', 'years'],
        additionalProperties: false,
        properties: {
          id: text,
          type: { type: 'string', enum: QUESTION_TYPES },
          title: text,
          years: { type: 'array', description: "one per member of the series, in its order: that year's statistics of the question, or null where the year has no such question", items: { anyOf: [questionStatistics, { type: 'null' }] } },
        },
      },
    },
  },
} as const;
export type StatisticsComparison = Shape<typeof statisticsComparison>;

/** One text answer (SHORT_TEXT, PARAGRAPH, or the 'other' text of a choice question). */
export const textAnswer = {
  type: 'object',
  required: ['replyId', 'text', 'shown'],
  additionalProperties: false,
  properties: { replyId: text, text, shown: { type: 'boolean', description: 'marked shown for a release; false when hidden or never marked' } },
} as const;
export type TextAnswer = Shape<typeof textAnswer>;

/** GET /v1/statistics/:id/texts */
export const textPage = {
  type: 'object',
  required: ['list', 'total', 'withheld', 'mayMark'],
  additionalProperties: false,
  properties: {
    list: { type: 'array', items: textAnswer },
    total: integer,
    withheld: withheldOrNull,
    mayMark: { type: 'boolean', description: "whether the caller may mark a text question's answers shown or hidden (PUT …/texts/marks)" },
  },
} as const;
export type TextPage = Shape<typeof textPage>;

/** PUT /v1/statistics/:id/texts/marks */
export const textMarksResult = {
  type: 'object',
  required: ['marked', 'shown'],
  additionalProperties: false,
  properties: { marked: { type: 'integer', description: 'how many answers now have the mark' }, shown: { type: 'boolean' } },
} as const;
export type TextMarksResult = Shape<typeof textMarksResult>;

/** A word or phrase and how many answers use it. */
export const termCount = { type: 'object', required: ['term', 'n'], additionalProperties: false, properties: { term: text, n: integer } } as const;
export type TermCount = Shape<typeof termCount>;

/** GET /v1/statistics/:id/terms: most frequent first (then in code-point order); none while the results are withheld */
export const termList = {
  type: 'object',
  required: ['list', 'withheld'],
  additionalProperties: false,
  properties: { list: { type: 'array', items: termCount }, withheld: withheldOrNull },
} as const;
export type TermList = Shape<typeof termList>;

/** GET /v1/statistics/:id/replies/:replyId: one reply, to read it whole with the questions it answers. */
export const statisticsReply = {
  type: 'object',
  required: ['replyId', 'number', 'submittedOn', 'definition', 'answers'],
  additionalProperties: false,
  properties: {
    replyId: text,
    number: { type: ['integer', 'null'], description: "its 'anonymous N'; null for a named questionnaire" },
    submittedOn: { type: 'string', description: "yyyy-MM-dd: the day only (the school's day)" },
    definition: definitionSchema,
    answers: answersSchema,
  },
} as const;
export type StatisticsReply = Shape<typeof statisticsReply>;

/** The answers of each call, per status; a refusal answers its own status (docs/errors.md). */
export const STATISTICS_ANSWERS = {
  /** GET /v1/statistics */
  list: { 200: envelopeOf(statisticsPage), ...REFUSALS },
  /** GET /v1/statistics/:id */
  detail: { 200: envelopeOf(statisticsDetail), ...REFUSALS },
  /** GET /v1/statistics/:id/texts */
  texts: { 200: envelopeOf(textPage), ...REFUSALS },
  /** PUT /v1/statistics/:id/texts/marks */
  marks: { 200: envelopeOf(textMarksResult), ...REFUSALS },
  /** GET /v1/statistics/:id/comparison */
  comparison: { 200: envelopeOf(statisticsComparison), ...REFUSALS },
  /** GET /v1/statistics/:id/terms */
  terms: { 200: envelopeOf(termList), ...REFUSALS },
  /** GET /v1/statistics/:id/respondents */
  respondents: { 200: envelopeOf(respondentPage), ...REFUSALS },
  /** GET /v1/statistics/:id/replies/:replyId */
  reply: { 200: envelopeOf(statisticsReply), ...REFUSALS },
  /** GET /v1/statistics/:id/export: the workbook itself (xlsx), no envelope; a failure answers 719 */
  export: { ...REFUSALS },
} as const;
