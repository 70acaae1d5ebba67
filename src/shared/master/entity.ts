/**
 * The `x-qe` extension of the master-data JSON Schemas (docs/architecture.md#master-data-from-schemas): what the standard
 * keywords cannot say. Read by codegen, by the server's generic CRUD engine and by the
 * client's generic screens — one description of each entity for all three.
 */

/** How a property is stored and shown, beyond its JSON Schema type. */
export interface PropertyMeta {
  /** database column; default: the property name in snake_case */
  column?: string;
  /** a reference to another master entity: the id of one of its records */
  reference?: { resource: string; label: string };
  /** computed by the server, never written: the number of rows of `table` whose `column` is this record's id */
  computed?: { count: { table: string; column: string } };
  /** many-to-many ids kept in a link table (`table`.`ownerColumn` → this record, `table`.`valueColumn` → the other) */
  links?: { table: string; ownerColumn: string; valueColumn: string; resource: string; label: string };
  /** one-to-many rows kept in another table, replaced as a whole on save */
  children?: { table: string; foreignKey: string; orderBy: string };
  /** where a child row is still used, so it cannot be dropped (class in a student's record, …) */
  childDependents?: Dependent[];
  /** a value kept per school year (a student's class and number): table row per (owner, year) */
  yearly?: { table: string; ownerColumn: string; yearColumn: string; column: string };
  /** a text input that is a multi-line area */
  multiline?: boolean;
  /** a column of the import/export sheet (its header is the field label in the user's language) */
  sheet?: boolean;
  /** the reference is written in sheets by this field of the other entity (e.g. a class by its code) */
  sheetKey?: string;
  /** kept in lower case: typed or imported in any case, stored and compared in lower case (a school account's address) */
  lowerCase?: boolean;
}

/** A body's values of `lowerCase` properties in lower case, in place (before validation and the unique check). */
export function lowerCaseIn(body: Record<string, unknown>, schema: EntitySchema): void {
  for (const [name, p] of Object.entries(schema.properties)) {
    if (propertyMeta(p).lowerCase && typeof body[name] === 'string') body[name] = (body[name] as string).toLowerCase();
  }
}

/** Records elsewhere that use a record of this entity: deleting it is refused (708) or cascades. */
export interface Dependent {
  table: string;
  column: string;
  /** i18n key naming what depends on it, e.g. qe.master.dependents.teachers */
  label: string;
  /** "delete with all related records": allowed after the stronger confirmation */
  cascade?: boolean;
}

export interface EntityMeta {
  /** API resource: /v1/{resource} */
  resource: string;
  /** screens under /master/{route} */
  route: string;
  /** the route names' stem: {name}List, {name}View, … and the menu title qe.menu.{name} */
  name: string;
  /** permission page code: {permission}.view, .add, .edit, .delete, .import, .export */
  permission: string;
  /** the permission page: the actions it offers (no route for the others), who holds them out of the box; its names are qe.permissions.pages.<permission> of the message files */
  page: { actions: string[]; grantedTo?: ('ADMIN' | 'TEACHER' | 'STUDENT')[] };
  /** place in the master-data menu, lower first (and of its page among the permission pages) */
  menuOrder?: number;
  table: string;
  /** fixed column values of this entity's rows in a shared table (users of one type) */
  scope?: Record<string, string | number>;
  /**
   * other values of scope's columns whose rows are listed, read and edited here too (the super
   * administrators among the administrators). New records and the Excel sheets keep to `scope`,
   * and such a row is changed only by a user of its own type (docs/security.md#super-administrators).
   */
  alsoListed?: Record<string, (string | number)[]>;
  /** a login account: username and password (hashed, never answered, never exported) */
  account?: boolean;
  /** one record only (the mail setting): GET and PUT /v1/{resource} */
  single?: boolean;
  /** list columns, in order */
  columns: string[];
  /** fields the list's search box looks in */
  search: string[];
  /** fields offered as list filters */
  filters?: string[];
  defaultSort: { field: string; order: 'ASC' | 'DESC' };
  /** the list keeps its filters and page when the user comes back */
  cached?: boolean;
  /** values that no two records may share; a duplicate is refused naming the value (707) */
  unique?: string[];
  /** [start, end] field pairs: start not after end */
  dateRanges?: [string, string][];
  dependents?: Dependent[];
  /** Excel import offered (the import columns are the properties marked `sheet`) */
  importable?: boolean;
  /** a business rule module of the server's (src/server/master/rules/{rules}.ts) */
  rules?: string;
  /** icon name of @mui/icons-material for the menu */
  icon?: string;
}

/** A JSON Schema property as the engine reads it. */
export interface PropertySchema {
  type?: string | string[];
  format?: string;
  /** null stands for "none" in an optional choice (a staff member's gender) */
  enum?: (string | number | null)[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  default?: unknown;
  items?: EntitySchema | PropertySchema;
  title?: string;
  'x-qe'?: PropertyMeta;
  /** the field rule of this field's message when its pattern fails (qe.fieldRules.<rule>, src/shared/field-messages.ts) */
  'x-qe-rule'?: string;
  /** what may be typed into this field, where its pattern does not say (src/shared/input-filters.ts) */
  'x-qe-input'?: 'password' | 'identityCard' | 'amount' | 'integer';
}

export interface EntitySchema {
  $id?: string;
  title?: string;
  type: 'object';
  required?: string[];
  additionalProperties?: boolean;
  properties: Record<string, PropertySchema>;
  'x-qe'?: EntityMeta;
}

/** One entity as generated: its schema, the derived create and update schemas, its meta. */
export interface MasterEntity {
  key: string;
  schema: EntitySchema;
  /** no readOnly or computed fields; the required ones of the schema */
  create: EntitySchema;
  /** the same fields, all optional */
  update: EntitySchema;
  meta: EntityMeta;
}

export const propertyMeta = (p: PropertySchema): PropertyMeta => p['x-qe'] ?? {};

/** snake_case of a camelCase property name: the default column. */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const columnOf = (name: string, p: PropertySchema) => propertyMeta(p).column ?? snakeCase(name);

/** The languages a school writes names in (the school's language list: docs/product-rules.md#records-and-fields). */
export type NameLanguage = 'zh-hk' | 'en';

/**
 * A name in one of the school's languages: a property `xxxHk` (Chinese) or `xxxEn` (English)
 * whose pair is in the same schema. The school's language list says which are required
 * so the schemas keep no fixed "required" for them: the create and update
 * variants leave them optional and the server and the forms ask for those the school requires.
 */
export function languageOf(name: string, properties: Record<string, PropertySchema>): NameLanguage | null {
  const m = /^(.+)(Hk|En)$/.exec(name);
  if (!m) return null;
  const pair = `${m[1]}${m[2] === 'Hk' ? 'En' : 'Hk'}`;
  if (!(pair in properties)) return null;
  return m[2] === 'Hk' ? 'zh-hk' : 'en';
}

/** The language-bound names of a schema, with their language. */
export function languageFields(schema: EntitySchema): [string, NameLanguage][] {
  return Object.keys(schema.properties).flatMap((name) => {
    const lang = languageOf(name, schema.properties);
    return lang ? [[name, lang] as [string, NameLanguage]] : [];
  });
}

/** The names a record leaves empty although the school requires their language. */
export function missingNames(schema: EntitySchema, values: Record<string, unknown>, required: readonly string[]): string[] {
  return languageFields(schema)
    .filter(([name, lang]) => required.includes(lang) && (values[name] === undefined || values[name] === null || String(values[name]).trim() === ''))
    .map(([name]) => name);
}
