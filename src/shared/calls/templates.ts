import { QUESTIONNAIRE_TYPES } from '../questionnaire/enums.js';
import { idParams, pagingProperties } from './parts.js';
import { definitionSchema, envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { languages, questionnaireDetail } from './questionnaires.js';

/**
 * Questionnaire templates (docs/product-rules.md#templates, src/shared/questionnaire/API.md),
 * described once (docs/conventions.md#call-shapes): src/server/templates/ validates and writes
 * by these schemas.
 */

const integer = { type: 'integer' } as const;
const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
const description = { type: ['string', 'null'], maxLength: 2000 } as const;

/**
 * Who a questionnaire made from a template asks, in the school year it is made in: kinds that
 * outlive a roll-over (no class or person ids). STUDENTS_OF_GRADE names the grade by its code.
 */
export const AUDIENCE_KINDS = ['NONE', 'ALL_STUDENTS', 'STUDENTS_OF_GRADE', 'ALL_TEACHERS', 'EVERYONE'] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

const audienceKind = { type: 'string', enum: AUDIENCE_KINDS } as const;
const gradeCode = { type: ['string', 'null'], maxLength: 50, description: 'STUDENTS_OF_GRADE: the grade’s code' } as const;

/** `/:id` */
export const templateParams = idParams;
export type TemplateParams = Shape<typeof templateParams>;

/** GET /v1/questionnaire-templates */
export const templatesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pagingProperties(200),
    q: { type: 'string', maxLength: 100, description: 'searches the names and descriptions in both languages' },
    retired: { type: 'boolean', description: 'true: the retired ones only' },
    sort: { type: 'string', enum: ['nameHk', 'nameEn', 'updatedAt'] },
    order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
  },
} as const;
export type TemplatesQuery = Shape<typeof templatesQuery>;

/** POST /v1/questionnaires/:id/save-as-template: the audience kind read from the questionnaire's when not given */
export const saveAsTemplateBody = {
  type: 'object',
  required: ['nameHk', 'nameEn'],
  additionalProperties: false,
  properties: { nameHk: name, nameEn: name, descriptionHk: description, descriptionEn: description, audienceKind, gradeCode },
} as const;
export type SaveAsTemplateBody = Shape<typeof saveAsTemplateBody>;

/** PUT /v1/questionnaire-templates/:id: the fields given change */
export const templateChangeBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    nameHk: name,
    nameEn: name,
    descriptionHk: description,
    descriptionEn: description,
    // checked by definitionErrors, as a questionnaire's
    definition: definitionSchema,
    type: { type: 'string', enum: QUESTIONNAIRE_TYPES },
    audienceKind,
    gradeCode,
  },
} as const;
export type TemplateChangeBody = Shape<typeof templateChangeBody>;

/** POST /v1/questionnaire-templates/:id/use */
export const useTemplateBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: QUESTIONNAIRE_TYPES, description: 'the template’s own when not given' },
    audienceKind: { ...audienceKind, description: 'the template’s own kind and grade when not given' },
    gradeCode,
  },
} as const;
export type UseTemplateBody = Shape<typeof useTemplateBody>;

// ---- answers

/** A template as the list shows it (no definition). */
export const templateSummary = {
  type: 'object',
  required: ['id', 'nameHk', 'nameEn', 'descriptionHk', 'descriptionEn', 'languages', 'type', 'audienceKind', 'gradeCode', 'questionCount', 'retired', 'starter', 'createdBy', 'createdAt', 'updatedAt'],
  additionalProperties: false,
  properties: {
    id: integer,
    nameHk: { type: 'string' },
    nameEn: { type: 'string' },
    descriptionHk: { type: ['string', 'null'] },
    descriptionEn: { type: ['string', 'null'] },
    languages,
    type: { type: 'string', enum: QUESTIONNAIRE_TYPES },
    audienceKind,
    gradeCode: { type: ['string', 'null'] },
    questionCount: integer,
    retired: { type: 'boolean' },
    starter: { type: 'boolean', description: 'one of the starter set QE installs' },
    createdBy: { type: ['integer', 'null'] },
    createdAt: { type: 'string', description: 'ISO-8601, UTC' },
    updatedAt: { type: 'string', description: 'ISO-8601, UTC' },
  },
} as const;
export type TemplateSummary = Shape<typeof templateSummary>;

/** One template with its definition: the preview. */
export const templateDetail = {
  ...templateSummary,
  required: [...templateSummary.required, 'definition'],
  properties: { ...templateSummary.properties, definition: definitionSchema },
} as const;
export type TemplateDetail = Shape<typeof templateDetail>;

export const templatePage = {
  type: 'object',
  required: ['list', 'total'],
  additionalProperties: false,
  properties: { list: { type: 'array', items: templateSummary }, total: integer },
} as const;
export type TemplatePage = Shape<typeof templatePage>;

/** What "new from template" made, and whether its audience could be set. */
export const templateUse = {
  type: 'object',
  required: ['questionnaire', 'audience'],
  additionalProperties: false,
  properties: {
    questionnaire: questionnaireDetail,
    audience: {
      type: 'object',
      required: ['kind', 'gradeCode', 'found'],
      additionalProperties: false,
      properties: {
        kind: audienceKind,
        gradeCode: { type: ['string', 'null'] },
        found: { type: 'boolean', description: 'false: the grade no longer exists, so the audience is empty' },
      },
    },
  },
} as const;
export type TemplateUse = Shape<typeof templateUse>;

export const TEMPLATE_ANSWERS = {
  /** GET /v1/questionnaire-templates */
  list: { 200: envelopeOf(templatePage), ...REFUSALS },
  /** GET, PUT /v1/questionnaire-templates/:id, retire, restore, save-as-template: the template as it is now */
  one: { 200: envelopeOf(templateDetail), ...REFUSALS },
  /** POST /v1/questionnaire-templates/:id/use */
  use: { 200: envelopeOf(templateUse), ...REFUSALS },
} as const;
