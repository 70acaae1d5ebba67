import type { EntitySchema, MasterEntity, PropertySchema } from '../../shared/master/entity';
import { propertyMeta } from '../../shared/master/entity';
import { normaliseUsernameIn } from '../../shared/usernames';

/** What a property is on screen: picks its list column and its form input. */
export type PropertyKind =
  | 'text'
  | 'multiline'
  | 'date'
  | 'enum'
  | 'number'
  | 'boolean'
  | 'reference'
  | 'links'
  | 'children'
  | 'password';

/** The JSON type of a property, without its `null`. */
export function baseType(p: PropertySchema): string | undefined {
  return Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type;
}

export function allowsNull(p: PropertySchema): boolean {
  return Array.isArray(p.type) ? p.type.includes('null') : p.type === 'null';
}

export function kindOf(p: PropertySchema): PropertyKind {
  const meta = propertyMeta(p);
  if (p.writeOnly) return 'password';
  if (meta.reference) return 'reference';
  if (meta.links) return 'links';
  if (meta.children) return 'children';
  if (p.enum) return 'enum';
  if (p.format === 'date') return 'date';
  const type = baseType(p);
  if (type === 'boolean') return 'boolean';
  if (type === 'integer' || type === 'number') return 'number';
  return meta.multiline ? 'multiline' : 'text';
}

/** Computed by the server or never written: shown on the view screen only. */
export const isReadOnly = (p: PropertySchema) => Boolean(p.readOnly || propertyMeta(p).computed);

/** The item schema of a `children` property (a school year's terms, a grade's classes). */
export function itemSchema(p: PropertySchema): EntitySchema | undefined {
  const items = p.items as EntitySchema | undefined;
  return items && items.type === 'object' && items.properties ? items : undefined;
}

/** A list column the server can sort by: a stored value of this entity's own row. */
export function isSortable(p: PropertySchema): boolean {
  const meta = propertyMeta(p);
  return !isReadOnly(p) && !meta.reference && !meta.links && !meta.children && !meta.yearly && !p.writeOnly;
}

export type FormMode = 'add' | 'edit' | 'view';

/**
 * The properties a form shows, in schema order: add shows what may be written, edit the same
 * except an account's password (reset by its own dialog), view everything but secrets.
 */
export function formProperties(entity: MasterEntity, mode: FormMode): string[] {
  const { schema, meta } = entity;
  return Object.entries(schema.properties)
    .filter(([name, p]) => {
      if (name === 'id') return false;
      if (mode === 'view') return !p.writeOnly;
      if (isReadOnly(p)) return false;
      if (mode === 'edit' && p.writeOnly && meta.account) return false;
      return true;
    })
    .map(([name]) => name);
}

/** The values a new record starts with: the schema's defaults. */
export function defaultValues(schema: EntitySchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties)) if (p.default !== undefined) out[name] = structuredClone(p.default);
  return out;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** Keeps the properties of `schema`; an empty value goes as null where null is allowed, otherwise it is left out. */
function clean(schema: EntitySchema, values: Record<string, unknown>, skip: (name: string, p: PropertySchema) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties)) {
    if (!(name in values) || skip(name, p)) continue;
    const value = values[name];
    if (isEmpty(value)) {
      if (allowsNull(p) && value !== undefined) out[name] = null;
      continue;
    }
    const items = itemSchema(p);
    out[name] = items && Array.isArray(value) ? value.map((item) => (item && typeof item === 'object' ? clean(items, item as Record<string, unknown>, () => false) : item)) : value;
  }
  return out;
}

/**
 * What the form sends: only the fields of the create (add) or update (edit) schema — no id,
 * counts or other read-only values. A secret left blank (the mail server's password on edit)
 * is left out, so the stored one is kept.
 */
export function toPayload(entity: MasterEntity, mode: 'add' | 'edit', values: Record<string, unknown>): Record<string, unknown> {
  const schema = mode === 'add' ? entity.create : entity.update;
  const payload = clean(schema, values ?? {}, (name, p) => Boolean(p.writeOnly && (isEmpty(values[name]) || (mode === 'edit' && entity.meta.account))));
  // an account's user name as the server keeps it (ｆｕｌｌ１２３ is full123): checked and sent so
  if (entity.meta.account) normaliseUsernameIn(payload);
  return payload;
}
