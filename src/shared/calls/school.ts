import { EMAIL_PATTERN, PASSWORD_MAX, PASSWORD_MIN } from '../validation.js';
import { envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { idSchema } from './parts.js';

/**
 * The school's calls (src/server/school/): the school info shown before login, the first run,
 * the school settings and its logo, and the "new school year" roll-over, described once
 * (docs/conventions.md#call-shapes). The client's types are read from these schemas
 * (src/client/auth/useSchoolInfo.ts, src/client/school/, src/shared/school/rollover.ts).
 */

const text = { type: 'string' } as const;
const maybeText = { type: ['string', 'null'] } as const;
const integer = { type: 'integer' } as const;

// ---- requests

/** POST /v1/init: the school's names and its first super administrator */
export const initBody = {
  type: 'object',
  additionalProperties: false,
  required: ['schoolNameHk', 'schoolNameEn', 'username', 'password', 'nameHk', 'nameEn'],
  properties: {
    schoolNameHk: { type: 'string', minLength: 1, maxLength: 200 },
    schoolNameEn: { type: 'string', minLength: 1, maxLength: 200 },
    username: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9_.-]+$' },
    password: { type: 'string', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX },
    nameHk: { type: 'string', minLength: 1, maxLength: 100 },
    nameEn: { type: 'string', minLength: 1, maxLength: 100 },
    email: { type: 'string', maxLength: 200 },
  },
} as const;
export type InitBody = Shape<typeof initBody>;

/** One language of the school's language list: whether every record must give its names ('1'). */
const languageEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'required'],
  properties: { code: { type: 'string', enum: ['zh-hk', 'en'] }, required: { type: 'string', enum: ['1', '0'] } },
} as const;
export type LanguageEntry = Shape<typeof languageEntry>;

const optionalText = (max: number) => ({ type: ['string', 'null'], maxLength: max }) as const;
const phone = { type: ['string', 'null'], maxLength: 30, pattern: '^[0-9 +()-]*$' } as const;

/** PUT /v1/school: the school settings screen's form (the fields not given are kept) */
export const schoolSettingsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['nameHk', 'nameEn', 'languageList'],
  properties: {
    nameHk: { type: 'string', minLength: 1, maxLength: 200 },
    nameEn: { type: 'string', minLength: 1, maxLength: 200 },
    addressHk: optionalText(300),
    addressEn: optionalText(300),
    tel: phone,
    fax: phone,
    email: { type: ['string', 'null'], maxLength: 100, pattern: `^$|${EMAIL_PATTERN.source}`, 'x-qe-rule': 'email' },
    /** a grade's code: the grade that graduates at the end of a school year */
    graduateGrade: optionalText(30),
    languageList: { type: 'array', minItems: 1, maxItems: 2, items: languageEntry },
    googleRequired: { type: 'boolean' },
    /** the school's clock: an IANA time zone Intl knows (checked by the server: 422 timeZone) */
    timeZone: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;
export type SchoolSettingsBody = Shape<typeof schoolSettingsBody>;

const positive = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

/** POST /v1/school-years/rollover/preview */
export const rolloverPreviewBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** the grade whose students leave; default school.graduate_grade, else the highest grade */
    graduateGradeId: positive,
    /** from-class → to-class, overriding the default (same class letter one grade up) */
    mapping: {
      type: 'array',
      maxItems: 500,
      items: { type: 'object', additionalProperties: false, required: ['fromClassId', 'toClassId'], properties: { fromClassId: positive, toClassId: positive } },
    },
    /** create the classes next year lacks (the preview lists them) */
    createMissingClasses: { type: 'boolean' },
    /** YYYY-MM-DD the new year becomes current; absent or today and before: at once */
    switchDate: { type: ['string', 'null'], format: 'date' },
  },
} as const;
export type RolloverRequest = Shape<typeof rolloverPreviewBody>;

/** POST /v1/school-years/rollover: the run names its switch date (null: at once), so a call without a body changes nothing */
export const rolloverRunBody = { ...rolloverPreviewBody, required: ['switchDate'] } as const;
export type RolloverRunRequest = Shape<typeof rolloverRunBody>;

// ---- answers

/** The school's fields (docs/product-rules.md#records-and-fields), and whether Google sign-in is offered and required. */
export const schoolInfoSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'schoolId', 'nameHk', 'nameEn', 'schoolLogo', 'addressHk', 'addressEn', 'tel', 'fax', 'app_logo', 'app_view', 'host', 'email', 'graduate_grade',
    'school_pre', 'grade_range', 'edac_connect', 'languageList', 'requiredChinese', 'requiredEnglish', 'googleConfigured', 'googleRequired',
    'timeZone',
  ],
  properties: {
    schoolId: idSchema,
    nameHk: text,
    nameEn: text,
    schoolLogo: { type: ['string', 'null'], description: 'a path under the storage URL' },
    addressHk: maybeText,
    addressEn: maybeText,
    tel: maybeText,
    fax: maybeText,
    app_logo: maybeText,
    app_view: maybeText,
    host: maybeText,
    email: maybeText,
    graduate_grade: { type: ['string', 'null'], description: "the graduating grade's code" },
    school_pre: maybeText,
    grade_range: maybeText,
    edac_connect: maybeText,
    languageList: { type: 'array', items: languageEntry },
    requiredChinese: { type: 'boolean' },
    requiredEnglish: { type: 'boolean' },
    googleConfigured: { type: 'boolean', description: 'Google sign-in is set up on the server: the top bar offers binding' },
    googleRequired: { type: 'boolean', description: 'creators must bind a Google account before they create a questionnaire' },
    timeZone: { type: 'string', description: "the school's time zone (IANA, Asia/Hong_Kong by default): every day and time is shown and typed on it" },
  },
} as const;
export type SchoolInfo = Shape<typeof schoolInfoSchema>;

const grade = { type: 'object', additionalProperties: false, required: ['code', 'nameHk', 'nameEn'], properties: { code: text, nameHk: text, nameEn: text } } as const;

/** GET /v1/school: the school info and the grades the graduating grade is chosen from */
export const schoolSettingsSchema = {
  ...schoolInfoSchema,
  required: [...schoolInfoSchema.required, 'grades'],
  properties: { ...schoolInfoSchema.properties, grades: { type: 'array', items: grade } },
} as const;
export type SchoolSettings = Shape<typeof schoolSettingsSchema>;

export const initState = { type: 'object', additionalProperties: false, required: ['initialised'], properties: { initialised: { type: 'boolean' } } } as const;
export type InitState = Shape<typeof initState>;

const nullableInteger = { type: ['integer', 'null'] } as const;

/** One class's students next year: where they go, or that they graduate. */
const classMove = {
  type: 'object',
  additionalProperties: false,
  required: ['fromClassId', 'fromCode', 'fromNameHk', 'fromNameEn', 'students', 'graduates', 'toClassId', 'toCode', 'toNameHk', 'toNameEn', 'missing'],
  properties: {
    fromClassId: integer,
    fromCode: text,
    fromNameHk: text,
    fromNameEn: text,
    students: integer,
    graduates: { type: 'boolean', description: 'the students of this class leave (graduating grade)' },
    toClassId: { type: ['integer', 'null'], description: 'null for graduates, or when the target class does not exist yet (see missing)' },
    toCode: maybeText,
    toNameHk: maybeText,
    toNameEn: maybeText,
    missing: { type: 'boolean', description: 'the target class is missing next year: it is created when asked to' },
  },
} as const;
export type ClassMove = Shape<typeof classMove>;

const object = <const R extends readonly string[], const P extends object>(required: R, properties: P) => ({ type: 'object', additionalProperties: false, required, properties }) as const;

/** What the roll-over would do, or did (the run answers it with next year's id). */
export const rolloverPreview = object(
  ['fromYear', 'nextYear', 'graduateGradeId', 'grades', 'classes', 'moves', 'after', 'promoted', 'graduates', 'alreadyPlaced', 'missingClasses', 'switchDate'],
  {
    fromYear: object(['id', 'name'], { id: integer, name: text }),
    nextYear: object(['id', 'name', 'beginDate', 'endDate', 'terms'], { id: nullableInteger, name: text, beginDate: text, endDate: text, terms: integer }),
    graduateGradeId: integer,
    grades: { type: 'array', items: object(['id', 'code', 'nameHk', 'nameEn'], { id: integer, code: text, nameHk: text, nameEn: text }) },
    classes: { type: 'array', items: object(['id', 'gradeId', 'code', 'nameHk', 'nameEn'], { id: integer, gradeId: integer, code: text, nameHk: text, nameEn: text }) },
    moves: { type: 'array', items: classMove },
    after: {
      type: 'array',
      description: "students per class next year after the roll-over (those already entered for next year included)",
      items: object(['classId', 'code', 'nameHk', 'nameEn', 'students'], { classId: nullableInteger, code: text, nameHk: text, nameEn: text, students: integer }),
    },
    promoted: integer,
    graduates: integer,
    alreadyPlaced: { type: 'integer', description: 'students who already have a class next year (entered beforehand): kept as entered' },
    missingClasses: { type: 'array', items: object(['gradeId', 'code', 'nameHk', 'nameEn'], { gradeId: integer, code: text, nameHk: text, nameEn: text }) },
    switchDate: maybeText,
  },
);
export type RolloverPreview = Shape<typeof rolloverPreview>;

export const SCHOOL_ANSWERS = {
  /** GET /v1/school-info (public) */
  info: { 200: envelopeOf(schoolInfoSchema), ...REFUSALS },
  /** GET, PUT /v1/school; POST, DELETE /v1/school/logo: the settings as they are now */
  settings: { 200: envelopeOf(schoolSettingsSchema), ...REFUSALS },
  /** GET /v1/init */
  init: { 200: envelopeOf(initState), ...REFUSALS },
  /** POST /v1/init: nothing in `data` (code 201) */
  initialised: { 200: envelopeOf({ type: 'null' }), ...REFUSALS },
  /** POST /v1/school-years/rollover(/preview) */
  rollover: { 200: envelopeOf(rolloverPreview), ...REFUSALS },
} as const;
