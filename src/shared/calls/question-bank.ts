import { QUESTION_TYPES } from '../questionnaire/definition-types.js';
import { idParams, idSchema, pagingProperties } from './parts.js';
import { definitionSchema, envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { languages } from './questionnaires.js';

/**
 * The school's question bank (docs/product-rules.md#question-bank, src/shared/questionnaire/API.md),
 * described once (docs/conventions.md#call-shapes): src/server/question-bank/ validates and writes
 * by these schemas. A bank question is held as a one-question definition: one section holding the
 * question, its texts in each of its languages (`languages`, `translations`) as a questionnaire's.
 */

const integer = { type: 'integer' } as const;

/** The most tags a bank question has, and the longest tag. */
export const BANK_TAGS_MAX = 20;
export const BANK_TAG_LENGTH = 40;

/** A tag: words, no bar (the tag filter's separator) and no control characters. */
const tag = { type: 'string', minLength: 1, maxLength: BANK_TAG_LENGTH, pattern: '^[^|\\u0000-\\u001f\\u007f]*[^|\\s][^|\\u0000-\\u001f\\u007f]*$' } as const;
const tags = { type: 'array', maxItems: BANK_TAGS_MAX, items: tag, description: 'kept in the order given, duplicates (ignoring case and spaces around) once' } as const;

/** `/:id` */
export const bankParams = idParams;
export type BankParams = Shape<typeof bankParams>;

/** GET /v1/question-bank */
export const bankQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pagingProperties(50),
    q: { type: 'string', maxLength: 100, description: 'searches every text of both languages and the tags, case-insensitively' },
    tag: { ...tag, description: 'only those with this tag (case-insensitive)' },
    type: { type: 'string', enum: QUESTION_TYPES },
    retired: { type: 'boolean', description: 'true: the retired ones only' },
  },
} as const;
export type BankQuery = Shape<typeof bankQuery>;

/** POST /v1/question-bank: the server reads the question from the questionnaire as saved */
export const bankSaveBody = {
  type: 'object',
  required: ['questionnaireId', 'questionId'],
  additionalProperties: false,
  properties: {
    questionnaireId: idSchema,
    questionId: { type: 'string', minLength: 1, maxLength: 100 },
    tags,
  },
} as const;
export type BankSaveBody = Shape<typeof bankSaveBody>;

/**
 * PUT /v1/question-bank/:id: the fields given change. `definition`: the one-question definition
 * with new wording — the same type, options, rows and columns (by id, in order), else 744.
 */
export const bankChangeBody = {
  type: 'object',
  additionalProperties: false,
  properties: { tags, definition: definitionSchema },
} as const;
export type BankChangeBody = Shape<typeof bankChangeBody>;

// ---- answers

/** One bank question, whole: the list answers them so, for the search's preview. */
export const bankQuestion = {
  type: 'object',
  required: ['id', 'type', 'titleHk', 'titleEn', 'languages', 'tags', 'definition', 'retired', 'createdBy', 'createdByName', 'createdAt', 'updatedAt'],
  additionalProperties: false,
  properties: {
    id: integer,
    type: { type: 'string', enum: QUESTION_TYPES },
    titleHk: { type: ['string', 'null'], description: 'its title in Chinese; null when it has no Chinese' },
    titleEn: { type: ['string', 'null'], description: 'its title in English; null when it has no English' },
    languages,
    tags: { type: 'array', items: { type: 'string' } },
    definition: { ...definitionSchema, description: 'one section holding the question, its translations with it; no go-to targets' },
    retired: { type: 'boolean' },
    createdBy: { type: ['integer', 'null'] },
    createdByName: { type: ['string', 'null'] },
    createdAt: { type: 'string', description: 'ISO-8601, UTC' },
    updatedAt: { type: 'string', description: 'ISO-8601, UTC' },
  },
} as const;
export type BankQuestion = Shape<typeof bankQuestion>;

export const bankPage = {
  type: 'object',
  required: ['list', 'total'],
  additionalProperties: false,
  properties: { list: { type: 'array', items: bankQuestion }, total: integer },
} as const;
export type BankPage = Shape<typeof bankPage>;

/** The tags in use among the questions not retired, most used first (the search's chips). */
export const bankTags = {
  type: 'array',
  items: { type: 'object', required: ['tag', 'count'], additionalProperties: false, properties: { tag: { type: 'string' }, count: integer } },
} as const;
export type BankTags = Shape<typeof bankTags>;

export const BANK_ANSWERS = {
  /** GET /v1/question-bank */
  list: { 200: envelopeOf(bankPage), ...REFUSALS },
  /** GET /v1/question-bank/tags */
  tags: { 200: envelopeOf(bankTags), ...REFUSALS },
  /** GET, PUT /v1/question-bank/:id, POST /v1/question-bank, retire, restore: the question as it is now */
  one: { 200: envelopeOf(bankQuestion), ...REFUSALS },
} as const;
