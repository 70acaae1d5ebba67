/* eslint-disable @typescript-eslint/no-explicit-any -- the engine reads and writes tables named by the schemas, so it works on a schema-less Kysely */
import type { Kysely } from 'kysely';
import { columnOf, languageFields, propertyMeta, type MasterEntity, type PropertySchema } from '../../shared/master/entity.js';
import { masterEntities } from '../../shared/generated/master-entities.js';

export type AnyDb = Kysely<any>;
export type Row = Record<string, any>;

/** The table (and fixed column values) behind a resource name: an entity's, or a plain table (classes). */
export function tableOf(resource: string): { table: string; scope: Record<string, string | number> } {
  const entity = Object.values(masterEntities).find((e) => e.meta.resource === resource);
  return entity ? { table: entity.meta.table, scope: entity.meta.scope ?? {} } : { table: resource, scope: {} };
}

/**
 * One master-data entity's properties sorted by where they are stored, as its schema says:
 * columns of its own table, per-year values (a student's class and number), child rows (a
 * grade's classes), links (a group's members) and counts computed on reading.
 */
export class EntityShape {
  readonly props: [string, PropertySchema][];
  /** properties stored in the entity's own table */
  readonly own: [string, PropertySchema][];
  readonly yearly: [string, PropertySchema][];
  readonly children: [string, PropertySchema][];
  readonly links: [string, PropertySchema][];
  readonly computed: [string, PropertySchema][];
  /** names in the school's languages (nameHk, nameEn) */
  readonly names: Set<string>;

  constructor(readonly entity: MasterEntity) {
    this.props = Object.entries(entity.schema.properties);
    const m = (p: PropertySchema) => propertyMeta(p);
    this.yearly = this.props.filter(([, p]) => m(p).yearly);
    this.children = this.props.filter(([, p]) => m(p).children);
    this.links = this.props.filter(([, p]) => m(p).links);
    this.computed = this.props.filter(([, p]) => m(p).computed);
    this.names = new Set(languageFields(entity.schema).map(([name]) => name));
    this.own = this.props.filter(([name, p]) => name !== 'id' && !m(p).yearly && !m(p).children && !m(p).links && !m(p).computed && !(entity.meta.account && name === 'password'));
  }

  get meta() {
    return this.entity.meta;
  }

  /** The property a place given twice is reported on: the last per-year value (a class's number), if any. */
  get placeField(): string | null {
    return this.yearly.length ? this.yearly[this.yearly.length - 1][0] : null;
  }

  /** The SQL expression of a property, for select, where and order by. */
  ref(name: string): string {
    const p = this.entity.schema.properties[name];
    if (name === 'id') return 't.id';
    const meta = propertyMeta(p);
    if (meta.yearly) return `y.${meta.yearly.column}`;
    if (meta.computed) return name;
    return `t.${columnOf(name, p)}`;
  }
}
