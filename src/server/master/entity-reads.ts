/* eslint-disable @typescript-eslint/no-explicit-any -- the engine reads tables named by the schemas, so it works on a schema-less Kysely */
import { sql } from 'kysely';
import { LOGIN_COLUMNS } from '../db/migrations/0021_row_versions.js';
import { isPostgres } from '../db/connect.js';
import { columnOf, propertyMeta } from '../../shared/master/entity.js';
import { BusinessError } from '../plugins/errors.js';
import type { AnyDb, EntityShape, Row } from './entity-shape.js';
import type { ListQuery } from './list-query.js';

/* How a master-data entity's records are read: the list's query, a row as answered, links. */

/** The school year whose per-year values (a student's class) are read and written. */
export async function schoolYearOf(shape: EntityShape, db: AnyDb, wanted?: number): Promise<number | null> {
  if (!shape.yearly.length) return null;
  if (wanted) {
    // a year that does not exist: 404 rather than a foreign-key failure (500) on write
    if (!(await db.selectFrom('school_years').select('id').where('id', '=', wanted).executeTakeFirst())) throw new BusinessError('RECORD_NOT_FOUND');
    return wanted;
  }
  const current = await db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirst();
  return current?.id ?? null;
}

/**
 * The entity's rows, with this year's per-year values beside them unless `withYearly` is false (a
 * count that needs none); those its schema lists too (super administrators) unless `ownOnly`.
 */
export function baseQuery(shape: EntityShape, db: AnyDb, yearId: number | null, withYearly = true, ownOnly = false) {
  let q = db.selectFrom(`${shape.meta.table} as t`);
  for (const [column, value] of Object.entries(shape.meta.scope ?? {})) {
    const also = ownOnly ? [] : (shape.meta.alsoListed?.[column] ?? []);
    q = also.length ? q.where(`t.${column}`, 'in', [value, ...also]) : q.where(`t.${column}`, '=', value);
  }
  const yearly = shape.yearly[0] && propertyMeta(shape.yearly[0][1]).yearly;
  if (yearly && withYearly) {
    q = q.leftJoin(`${yearly.table} as y`, (join) => join.onRef(`y.${yearly.ownerColumn}`, '=', 't.id').on(`y.${yearly.yearColumn}`, '=', yearId ?? -1));
  }
  return q;
}

/** The columns of a record as answered, its counts included. */
export function selection(shape: EntityShape, db: AnyDb) {
  const columns: any[] = ['t.id as id', ...shape.own.map(([name, p]) => `t.${columnOf(name, p)} as ${name}`)];
  for (const [name] of shape.yearly) columns.push(`${shape.ref(name)} as ${name}`);
  for (const [name, p] of shape.computed) {
    const { table, column } = propertyMeta(p).computed!.count;
    columns.push(db.selectFrom(`${table} as c`).select((eb: any) => eb.fn.countAll().as('n')).whereRef(`c.${column}`, '=', 't.id').as(name));
  }
  return columns;
}

/** Whether the query filters or searches on a per-year value (a student's class): then a count must join them. */
export function usesYearly(shape: EntityShape, query: ListQuery): boolean {
  const yearlyNames = new Set(shape.yearly.map(([name]) => name));
  const searched = query.q?.trim() ? shape.meta.search : [];
  return [...searched, ...(shape.meta.filters ?? []).filter((f) => query[f] !== undefined && query[f] !== null && query[f] !== '')].some((f) => yearlyNames.has(f));
}

/** The list's rows as its id list, search and filters select them. */
export function filteredQuery(shape: EntityShape, db: AnyDb, query: ListQuery, yearId: number | null, withYearly = true, ownOnly = false) {
  let q = baseQuery(shape, db, yearId, withYearly, ownOnly);
  if (query.id?.length) q = q.where('t.id', 'in', query.id);
  const text = query.q?.trim();
  if (text && shape.meta.search.length) {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // SQLite's like ignores the case of ASCII letters already, as its lower() folds only those
    // (and lower() on every row of every searched column was half of a search's time); on
    // PostgreSQL lower() under the C collation folds the same letters, in half the time the
    // database's own (UTF-8) collation takes
    const folded = isPostgres(db) ? (f: string) => sql`lower(${sql.ref(shape.ref(f))} collate "C")` : (f: string) => sql.ref(shape.ref(f));
    q = q.where(({ or }: any) => or(shape.meta.search.map((f) => sql<boolean>`${folded(f)} like ${pattern} escape '\\'`)));
  }
  for (const f of shape.meta.filters ?? []) {
    const value = query[f];
    if (value === undefined || value === null || value === '') continue;
    q = q.where(shape.ref(f), '=', value);
  }
  return q;
}

/**
 * Every table a list's page reads: the entity's, its per-year values with the years, counted
 * and linked ones; null when the page shows a column of `users` that moves no counter (a login
 * writes those: migration 0021), so the page is read afresh each time.
 */
export function tablesRead(shape: EntityShape): string[] | null {
  if (shape.meta.table === 'users' && shape.own.some(([name, p]) => LOGIN_COLUMNS.includes(columnOf(name, p)))) return null;
  const tables = new Set([shape.meta.table]);
  for (const [, p] of shape.yearly) tables.add(propertyMeta(p).yearly!.table).add('school_years');
  for (const [, p] of shape.computed) tables.add(propertyMeta(p).computed!.count.table);
  for (const [, p] of shape.links) tables.add(propertyMeta(p).links!.table);
  return [...tables];
}

/** A stored row as answered: booleans as booleans, counts as numbers, no password. */
export function answerRow(shape: EntityShape, row: Row): Row {
  const out: Row = {};
  for (const [name, p] of shape.props) {
    if (p.writeOnly || propertyMeta(p).links || propertyMeta(p).children) continue;
    let v = row[name];
    if (p.type === 'boolean') v = v === null || v === undefined ? v : Boolean(v);
    else if (propertyMeta(p).computed) v = Number(v ?? 0);
    out[name] = v ?? null;
  }
  return out;
}

/** Each record's linked ids (a group's members), read for all of them at once. */
export async function attachLinks(shape: EntityShape, db: AnyDb, records: Row[]) {
  if (!records.length) return;
  for (const [name, p] of shape.links) {
    const { table, ownerColumn, valueColumn } = propertyMeta(p).links!;
    const rows = await db.selectFrom(table).select([`${ownerColumn} as owner`, `${valueColumn} as value`]).where(ownerColumn, 'in', records.map((r) => r.id)).execute();
    for (const r of records) r[name] = rows.filter((x: Row) => x.owner === r.id).map((x: Row) => x.value);
  }
}
