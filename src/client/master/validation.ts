import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { Lang } from '../../shared/errors';
import { fieldMessage, isFieldRule } from '../../shared/field-messages';
import { missingNames, type EntitySchema, type MasterEntity, type PropertySchema } from '../../shared/master/entity';
import { isDateRangeValid } from '../../shared/validation';
import { itemSchema, toPayload } from './schema';

/** One error of ajv's (the fields the mapping reads). */
interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}
type ValidateFunction = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

let validators: Record<string, ValidateFunction> | null = null;

/**
 * The ajv validators compiled from the schemas (generated/validators.ts, about 180 KB of code),
 * fetched when a master-data form first checks its values rather than with the first page.
 */
export async function loadValidators(): Promise<void> {
  validators ??= (await import('./generated/validators')) as unknown as Record<string, ValidateFunction>;
}

/** Rules that speak for a field's length too (the password's "6 to 15 characters"), not only for its pattern. */
const LENGTH_RULES = new Set(['password']);

/** A field's path ('terms.0.beginDate') → its message in the form's language. */
export type FlatErrors = Record<string, string>;

function propertyAt(schema: EntitySchema, path: (string | number)[]): PropertySchema | undefined {
  let current: EntitySchema | undefined = schema;
  let prop: PropertySchema | undefined;
  for (const part of path) {
    if (typeof part === 'number') {
      current = prop ? itemSchema(prop) : undefined;
      continue;
    }
    prop = current?.properties[part];
    if (!prop) return undefined;
  }
  return prop;
}

/** ajv's error → the field it is about and its field rule's text (the property's `x-qe-rule` names its own). */
function mapError(schema: EntitySchema, error: AjvError, lang: Lang): [string, string] | undefined {
  const path: (string | number)[] = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
  if (error.keyword === 'required') path.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties' || path.length === 0) return undefined;
  const prop = propertyAt(schema, path);
  const own = prop?.['x-qe-rule'];
  let rule: string = isFieldRule(error.keyword) ? error.keyword : 'format';
  if (own && (error.keyword === 'pattern' || error.keyword === 'format' || (LENGTH_RULES.has(own) && /Length$/.test(error.keyword)))) rule = own;
  const limit = error.params.limit as number | undefined;
  return [path.join('.'), fieldMessage(rule, lang, limit === undefined ? {} : { limit })];
}

function checkDateRanges(ranges: [string, string][], values: Record<string, unknown>, prefix: string, errors: FlatErrors, lang: Lang) {
  for (const [start, end] of ranges) {
    const key = `${prefix}${end}`;
    if (!errors[key] && !isDateRangeValid(values[start] as string | null, values[end] as string | null)) errors[key] = fieldMessage('dateRange', lang);
  }
}

/**
 * Checks a form's values against the entity's create (add) or update (edit) schema with the
 * ajv validators compiled from those schemas, plus the entity's date ranges (start not after
 * end; the same pairs in child rows such as a year's terms). On edit the fields required on
 * create are still required — except secrets, which edit leaves alone.
 */
export function validateRecord(entity: MasterEntity, mode: 'add' | 'edit', values: Record<string, unknown>, lang: Lang, requiredLanguages: readonly string[] = ['zh-hk', 'en']): FlatErrors {
  const data = toPayload(entity, mode, values);
  const schema = mode === 'add' ? entity.create : entity.update;
  if (!validators) throw new Error('the validators are not loaded yet: await loadValidators() first');
  const validate = validators[`${entity.key}_${mode === 'add' ? 'create' : 'update'}`];
  if (!validate) throw new Error(`no validator compiled for ${entity.key}: run npm run codegen`);
  const errors: FlatErrors = {};
  if (mode === 'edit') {
    for (const name of entity.create.required ?? []) {
      const p = entity.create.properties[name];
      if (p && !p.writeOnly && (data[name] === undefined || data[name] === null)) errors[name] = fieldMessage('required', lang);
    }
  }
  // names in the languages the school requires (its settings decide, not the schema)
  for (const name of missingNames(entity.schema, data, requiredLanguages)) errors[name] ??= fieldMessage('required', lang);
  if (!validate(data)) {
    for (const error of validate.errors ?? []) {
      const mapped = mapError(schema, error, lang);
      if (mapped && !errors[mapped[0]]) errors[mapped[0]] = mapped[1];
    }
  }
  const ranges = entity.meta.dateRanges ?? [];
  checkDateRanges(ranges, data, '', errors, lang);
  for (const [name, p] of Object.entries(schema.properties)) {
    const items = itemSchema(p);
    const rows = data[name];
    if (!items || !Array.isArray(rows)) continue;
    const childRanges = ranges.filter(([s, e]) => s in items.properties && e in items.properties);
    rows.forEach((row, i) => row && checkDateRanges(childRanges, row as Record<string, unknown>, `${name}.${i}.`, errors, lang));
  }
  return errors;
}

/** Flat paths → react-hook-form's nested error object. */
export function toFieldErrors(flat: FlatErrors): FieldErrors {
  const root: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(flat)) {
    const parts = path.split('.');
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = { type: 'manual', message };
      else node = (node[part] ??= /^\d+$/.test(parts[i + 1]) ? [] : {}) as Record<string, unknown>;
    });
  }
  return root as FieldErrors;
}

/** The react-hook-form resolver of an entity's form: the schema's rules, written once. */
export function schemaResolver(entity: MasterEntity, mode: 'add' | 'edit', lang: Lang, requiredLanguages?: readonly string[]): Resolver<FieldValues> {
  return async (values) => {
    await loadValidators();
    const errors = validateRecord(entity, mode, values, lang, requiredLanguages);
    return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors: toFieldErrors(errors) };
  };
}
