/* eslint-disable @typescript-eslint/no-explicit-any -- the engine reads and writes tables named by the schemas, so it works on a schema-less Kysely */
import { LOGIN_COLUMNS } from '../db/migrations/0021_row_versions.js';
import type { CacheVersions } from '../auth/cache-versions.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Config } from '../config.js';
import { isPostgres, type DB } from '../db/connect.js';
import { eventLoopTurns } from '../event-loop-turns.js';
import { lockFor } from '../db/locks.js';
import { KeptByTables } from './kept-by-tables.js';
import { columnOf, languageFields, missingNames, propertyMeta, type Dependent, type MasterEntity, type PropertySchema } from '../../shared/master/entity.js';
import { masterEntities } from '../../shared/generated/master-entities.js';
import { hashPassword } from '../auth/passwords.js';
import { assignDefaultRole, defaultRoleId } from '../developer/seed.js';
import { BusinessError, FieldError } from '../plugins/errors.js';
import { requiredLanguages } from '../school/languages.js';

export type AnyDb = Kysely<any>;
export type Row = Record<string, any>;
export type FieldErrors = ConstructorParameters<typeof FieldError>[0];

/** Pages of at most this many rows are kept (kept-by-tables.ts): a screen's, not an export's. */
const PAGE_KEPT_SIZE = 100;

export interface ListQuery {
  page?: number;
  size?: number;
  sort?: string;
  order?: string;
  q?: string;
  id?: number[];
  schoolYearId?: number;
  [filter: string]: unknown;
}

/** Business rules of one entity beyond what its schema says (src/server/master/rules/). */
export interface MasterRules {
  /** field errors of a record about to be saved that its schema cannot see (no database reads) */
  validate?(values: Row, existing: Row | null): FieldErrors;
  /** field errors of an imported row whose values contradict each other (a form tidies them; a sheet is refused) */
  importErrors?(values: Row): FieldErrors;
  /** inside the saving transaction, before the write: may adjust `values` or throw FieldError/BusinessError */
  beforeSave?(trx: Transaction<any>, values: Row, existing: Row | null): Promise<void>;
  /** inside the transaction, after the write */
  afterSave?(trx: Transaction<any>, id: number, values: Row): Promise<void>;
  /** inside the deleting transaction, before the delete */
  beforeDelete?(trx: Transaction<any>, record: Row): Promise<void>;
  /** a stored value as written to its column (e.g. a secret encrypted) */
  toColumn?(property: string, value: unknown): unknown;
  /** the rules as one app uses them, when they need its settings (the mail setting seals its password with the server secret) */
  forApp?(config: Config): MasterRules;
}

/** The table (and fixed column values) behind a resource name: an entity's, or a plain table (classes). */
export function tableOf(resource: string): { table: string; scope: Record<string, string | number> } {
  const entity = Object.values(masterEntities).find((e) => e.meta.resource === resource);
  return entity ? { table: entity.meta.table, scope: entity.meta.scope ?? {} } : { table: resource, scope: {} };
}

const now = () => new Date().toISOString();

/** Records of a bulk create (by their index) whose place in a class another record holds already. */
export class PlacesTaken extends Error {
  constructor(readonly indexes: number[]) {
    super('class numbers taken');
  }
}

/** Reading and writing the records of one master-data entity, as its schema describes them. */
export class EntityStore {
  readonly props: [string, PropertySchema][];
  /** properties stored in the entity's own table */
  readonly own: [string, PropertySchema][];
  readonly yearly: [string, PropertySchema][];
  readonly children: [string, PropertySchema][];
  readonly links: [string, PropertySchema][];
  readonly computed: [string, PropertySchema][];
  /** names in the school's languages (nameHk, nameEn) */
  readonly names: Set<string>;
  /** list totals and screen-sized pages, kept while the tables they were read from are unchanged */
  private readonly totals: KeptByTables<number>;
  private readonly pages: KeptByTables<{ list: Row[]; total: number }>;
  /** the tables a list's page reads; null: its pages are never kept (tablesRead) */
  private readonly pageTables: string[] | null;

  constructor(
    readonly db: DB,
    readonly entity: MasterEntity,
    readonly rules: MasterRules = {},
    versions: CacheVersions,
  ) {
    this.props = Object.entries(entity.schema.properties);
    this.totals = new KeptByTables(versions, 500);
    this.pages = new KeptByTables(versions, 200);
    const m = (p: PropertySchema) => propertyMeta(p);
    this.yearly = this.props.filter(([, p]) => m(p).yearly);
    this.children = this.props.filter(([, p]) => m(p).children);
    this.links = this.props.filter(([, p]) => m(p).links);
    this.computed = this.props.filter(([, p]) => m(p).computed);
    this.names = new Set(languageFields(entity.schema).map(([name]) => name));
    this.own = this.props.filter(([name, p]) => name !== 'id' && !m(p).yearly && !m(p).children && !m(p).links && !m(p).computed && !(entity.meta.account && name === 'password'));
    this.pageTables = this.tablesRead();
  }

  get meta() {
    return this.entity.meta;
  }

  /** The property a place given twice is reported on: the last per-year value (a class's number), if any. */
  get placeField(): string | null {
    return this.yearly.length ? this.yearly[this.yearly.length - 1][0] : null;
  }

  private get anyDb(): AnyDb {
    return this.db as unknown as AnyDb;
  }

  /** The school year whose per-year values (a student's class) are read and written. */
  async yearId(db: AnyDb, wanted?: number): Promise<number | null> {
    if (!this.yearly.length) return null;
    if (wanted) {
      // a year that does not exist: 404 rather than a foreign-key failure (500) on write
      if (!(await db.selectFrom('school_years').select('id').where('id', '=', wanted).executeTakeFirst())) throw new BusinessError('RECORD_NOT_FOUND');
      return wanted;
    }
    const current = await db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirst();
    return current?.id ?? null;
  }

  /** The SQL expression of a property, for select, where and order by. */
  private ref(name: string): string {
    const p = this.entity.schema.properties[name];
    if (name === 'id') return 't.id';
    const meta = propertyMeta(p);
    if (meta.yearly) return `y.${meta.yearly.column}`;
    if (meta.computed) return name;
    return `t.${columnOf(name, p)}`;
  }

  /** The entity's rows, with this year's per-year values beside them unless `withYearly` is false (a count that needs none). */
  private base(db: AnyDb, yearId: number | null, withYearly = true) {
    let q = db.selectFrom(`${this.meta.table} as t`);
    for (const [column, value] of Object.entries(this.meta.scope ?? {})) q = q.where(`t.${column}`, '=', value);
    const yearly = this.yearly[0] && propertyMeta(this.yearly[0][1]).yearly;
    if (yearly && withYearly) {
      q = q.leftJoin(`${yearly.table} as y`, (join) => join.onRef(`y.${yearly.ownerColumn}`, '=', 't.id').on(`y.${yearly.yearColumn}`, '=', yearId ?? -1));
    }
    return q;
  }

  private selection(db: AnyDb) {
    const columns: any[] = ['t.id as id', ...this.own.map(([name, p]) => `t.${columnOf(name, p)} as ${name}`)];
    for (const [name] of this.yearly) columns.push(`${this.ref(name)} as ${name}`);
    for (const [name, p] of this.computed) {
      const { table, column } = propertyMeta(p).computed!.count;
      columns.push(db.selectFrom(`${table} as c`).select((eb: any) => eb.fn.countAll().as('n')).whereRef(`c.${column}`, '=', 't.id').as(name));
    }
    return columns;
  }

  /** Whether the query filters or searches on a per-year value (a student's class): then a count must join them. */
  private usesYearly(query: ListQuery): boolean {
    const yearlyNames = new Set(this.yearly.map(([name]) => name));
    const searched = query.q?.trim() ? this.meta.search : [];
    return [...searched, ...(this.meta.filters ?? []).filter((f) => query[f] !== undefined && query[f] !== null && query[f] !== '')].some((f) => yearlyNames.has(f));
  }

  private filtered(db: AnyDb, query: ListQuery, yearId: number | null, withYearly = true) {
    let q = this.base(db, yearId, withYearly);
    if (query.id?.length) q = q.where('t.id', 'in', query.id);
    const text = query.q?.trim();
    if (text && this.meta.search.length) {
      const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      // SQLite's like ignores the case of ASCII letters already, as its lower() folds only those
      // (and lower() on every row of every searched column was half of a search's time); on
      // PostgreSQL lower() under the C collation folds the same letters, in half the time the
      // database's own (UTF-8) collation takes
      const folded = isPostgres(db) ? (f: string) => sql`lower(${sql.ref(this.ref(f))} collate "C")` : (f: string) => sql.ref(this.ref(f));
      q = q.where(({ or }: any) => or(this.meta.search.map((f) => sql<boolean>`${folded(f)} like ${pattern} escape '\\'`)));
    }
    for (const f of this.meta.filters ?? []) {
      const value = query[f];
      if (value === undefined || value === null || value === '') continue;
      q = q.where(this.ref(f), '=', value);
    }
    return q;
  }

  /**
   * A page of records with the total, sorted, searched and filtered (docs/conventions.md#list-queries). A page the
   * size of a screen is kept while every table it is read from stays unchanged (kept-by-tables.ts);
   * an export's thousands of rows are read afresh.
   */
  async list(query: ListQuery): Promise<{ list: Row[]; total: number }> {
    const tables = this.pageTables;
    if (!tables || (query.size ?? 20) > PAGE_KEPT_SIZE) return this.readPage(query);
    const key = JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)));
    return this.pages.get(tables, key, () => this.readPage(query));
  }

  /**
   * Every table a list's page reads: the entity's, its per-year values with the years, counted
   * and linked ones; null when the page shows a column of `users` that moves no counter (a login
   * writes those: migration 0021), so the page is read afresh each time.
   */
  private tablesRead(): string[] | null {
    if (this.meta.table === 'users' && this.own.some(([name, p]) => LOGIN_COLUMNS.includes(columnOf(name, p)))) return null;
    const tables = new Set([this.meta.table]);
    for (const [, p] of this.yearly) tables.add(propertyMeta(p).yearly!.table).add('school_years');
    for (const [, p] of this.computed) tables.add(propertyMeta(p).computed!.count.table);
    for (const [, p] of this.links) tables.add(propertyMeta(p).links!.table);
    return [...tables];
  }

  private async readPage(query: ListQuery): Promise<{ list: Row[]; total: number }> {
    const db = this.anyDb;
    const yearId = await this.yearId(db, query.schoolYearId);
    const size = query.size ?? 20;
    const page = query.page ?? 1;
    const sortField = query.sort && (query.sort === 'id' || query.sort in this.entity.schema.properties) ? query.sort : this.meta.defaultSort.field;
    const order = (query.order ?? (query.sort ? 'asc' : this.meta.defaultSort.order)).toLowerCase() === 'desc' ? 'desc' : 'asc';
    const offset = (page - 1) * size;
    const rows = await this.filtered(db, query, yearId)
      .select(this.selection(db))
      .orderBy(this.ref(sortField), order)
      .orderBy('t.id', order)
      .limit(size)
      .offset(offset)
      .execute();
    // a page that is not full is the last one, which tells the total without counting again
    const total = rows.length < size && (rows.length > 0 || offset === 0) ? offset + rows.length : await this.count(db, query, yearId);
    const list = rows.map((r: Row) => this.answer(r));
    await this.attachLinks(db, list);
    return { list, total };
  }

  /** How many records the list's filters and search select, kept while the tables counted stay unchanged (kept-by-tables.ts). */
  private count(db: AnyDb, query: ListQuery, yearId: number | null): Promise<number> {
    const withYearly = this.usesYearly(query);
    const yearlyTable = withYearly ? propertyMeta(this.yearly[0][1]).yearly!.table : null;
    const filters = (this.meta.filters ?? []).map((f) => query[f] ?? null);
    const key = JSON.stringify([query.id ?? null, query.q?.trim() ?? '', filters, withYearly ? yearId : null]);
    return this.totals.get(yearlyTable ? [this.meta.table, yearlyTable] : [this.meta.table], key, async () =>
      Number(((await this.filtered(db, query, yearId, withYearly).select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirst()) as { n?: number | string } | undefined)?.n ?? 0),
    );
  }

  /** One record with its children and links, or null. */
  async get(id: number, schoolYearId?: number, db: AnyDb = this.anyDb): Promise<Row | null> {
    const yearId = await this.yearId(db, schoolYearId);
    const row = await this.base(db, yearId).select(this.selection(db)).where('t.id', '=', id).executeTakeFirst();
    if (!row) return null;
    const record = this.answer(row);
    await this.attachLinks(db, [record]);
    for (const [name, p] of this.children) {
      const { table, foreignKey, orderBy } = propertyMeta(p).children!;
      const items = (p.items as { properties: Record<string, PropertySchema> }).properties;
      const childRows = await db.selectFrom(table).selectAll().where(foreignKey, '=', id).orderBy(orderBy).orderBy('id').execute();
      record[name] = childRows.map((c: Row) => Object.fromEntries(Object.entries(items).map(([k, cp]) => [k, c[columnOf(k, cp)]])));
    }
    return record;
  }

  /** A stored row as answered: booleans as booleans, counts as numbers, no password. */
  private answer(row: Row): Row {
    const out: Row = {};
    for (const [name, p] of this.props) {
      if (p.writeOnly || propertyMeta(p).links || propertyMeta(p).children) continue;
      let v = row[name];
      if (p.type === 'boolean') v = v === null || v === undefined ? v : Boolean(v);
      else if (propertyMeta(p).computed) v = Number(v ?? 0);
      out[name] = v ?? null;
    }
    return out;
  }

  private async attachLinks(db: AnyDb, records: Row[]) {
    if (!records.length) return;
    for (const [name, p] of this.links) {
      const { table, ownerColumn, valueColumn } = propertyMeta(p).links!;
      const rows = await db.selectFrom(table).select([`${ownerColumn} as owner`, `${valueColumn} as value`]).where(ownerColumn, 'in', records.map((r) => r.id)).execute();
      for (const r of records) r[name] = rows.filter((x: Row) => x.owner === r.id).map((x: Row) => x.value);
    }
  }

  /** Field errors found without the database: date ranges and the entity's own rules. */
  ruleErrors(values: Row, existing: Row | null): FieldErrors {
    const merged = { ...(existing ?? {}), ...values };
    const errors: FieldErrors = {};
    for (const [start, end] of this.meta.dateRanges ?? []) {
      if (merged[start] && merged[end] && merged[start] > merged[end]) errors[end] = { rule: 'dateRange' };
    }
    return { ...errors, ...this.rules.validate?.(values, existing) };
  }

  /** Checks the rules the schema cannot express alone: unique values, date ranges, references. */
  async check(db: AnyDb, values: Row, id: number | null, existing: Row | null = null): Promise<void> {
    const errors: FieldErrors = this.ruleErrors(values, existing);
    for (const name of missingNames(this.entity.schema, values, await requiredLanguages(db))) errors[name] ??= { rule: 'required' };
    for (const field of this.meta.unique ?? []) {
      const value = values[field];
      if (value === undefined || value === null || value === '') continue;
      const p = this.entity.schema.properties[field];
      let q = db.selectFrom(this.meta.table).select('id').where(columnOf(field, p), '=', value);
      if (id !== null) q = q.where('id', '!=', id);
      if (await q.executeTakeFirst()) errors[field] = { rule: 'duplicate', params: { value: String(value) } };
    }
    for (const [name, p] of this.props) {
      const ref = propertyMeta(p).reference;
      const value = values[name];
      if (!ref || value === undefined || value === null) continue;
      const { table, scope } = tableOf(ref.resource);
      let q = db.selectFrom(table).select('id').where('id', '=', value);
      for (const [c, v] of Object.entries(scope)) q = q.where(c, '=', v);
      if (!(await q.executeTakeFirst())) errors[name] = { rule: 'reference' };
    }
    for (const [name, p] of this.links) {
      const ids = values[name] as number[] | undefined;
      if (!ids?.length) continue;
      const { table, scope } = tableOf(propertyMeta(p).links!.resource);
      let q = db.selectFrom(table).select('id').where('id', 'in', ids);
      for (const [c, v] of Object.entries(scope)) q = q.where(c, '=', v);
      if ((await q.execute()).length !== new Set(ids).size) errors[name] = { rule: 'reference' };
    }
    if (Object.keys(errors).length) throw new FieldError(errors);
  }

  private columns(values: Row, creating = false): Row {
    const out: Row = {};
    for (const [name, p] of this.own) {
      if (!(name in values) && !(creating && this.names.has(name))) continue;
      let v = values[name];
      if (p.type === 'boolean') v = v ? 1 : 0;
      if (this.rules.toColumn) v = this.rules.toColumn(name, v);
      // a name in a language the school does not require may be left out: its column keeps ''
      if (this.names.has(name) && (v === null || v === undefined)) v = '';
      out[columnOf(name, p)] = v === '' && !this.names.has(name) ? null : v;
    }
    return out;
  }

  /** Creates a record (and its account, children, links, per-year values); answers its id. */
  async create(values: Row, options: { schoolYearId?: number; passwordHash?: string } = {}): Promise<number> {
    return this.db.transaction().execute(async (t) => {
      const trx = t as unknown as Transaction<any>;
      await this.check(trx, values, null);
      await this.rules.beforeSave?.(trx, values, null);
      const row: Row = { ...this.columns(values, true), ...(this.meta.scope ?? {}) };
      if (this.meta.account) {
        row.password_hash = options.passwordHash ?? (await hashPassword(String(values.password)));
        row.created_at = now();
        row.updated_at = now();
      }
      const { id } = await trx.insertInto(this.meta.table).values(row).returning('id').executeTakeFirstOrThrow();
      await this.writeRelated(trx, id, values, null, options.schoolYearId);
      if (this.meta.account && this.meta.scope?.user_type) await assignDefaultRole(t, id, String(this.meta.scope.user_type));
      await this.rules.afterSave?.(trx, id, values);
      return Number(id);
    });
  }

  /**
   * Creates many checked records at once (an import): batched inserts in one transaction.
   * `passwordHash` gives each account's hash, computed beforehand. `updates` are checked
   * records that exist already (a re-imported export), written first in the same transaction:
   * all or nothing. Their password changes only when the sheet gives one. `within` writes more
   * in the same transaction (an import job's outcome).
   */
  async createMany(records: Row[], passwordHash: (values: Row) => string | undefined, updates: { id: number; values: Row }[] = [], schoolYearId?: number, within?: (trx: Transaction<any>) => Promise<void>): Promise<void> {
    const stamp = now();
    await this.db.transaction().execute(async (t) => {
      const trx = t as unknown as Transaction<any>;
      const yearId = await this.yearId(trx, schoolYearId);
      const yearly = this.yearly.length ? propertyMeta(this.yearly[0][1]).yearly! : null;
      // SQLite's driver answers within the same tick: without pauses the whole import would hold
      // the event loop (its queries still wait for the one connection, other work does not)
      const pause = eventLoopTurns();
      for (const { id, values } of updates) {
        await pause();
        await this.rules.beforeSave?.(trx, values, null);
        const row = this.columns(values);
        if (this.meta.account) {
          row.updated_at = stamp;
          const hash = values.password === undefined ? undefined : passwordHash(values);
          if (hash) row.password_hash = hash;
        }
        if (Object.keys(row).length) await trx.updateTable(this.meta.table).set(row).where('id', '=', id).execute();
        await this.writeRelated(trx, id, values, null, yearId ?? undefined);
        await this.rules.afterSave?.(trx, id, values);
      }
      if (yearly && yearId !== null) {
        await lockFor(t, 'classNumbers');
        const { taken } = await this.placeClashes(trx, yearId, records.map((values) => ({ id: null, values })));
        if (taken.size) throw new PlacesTaken([...taken]);
      }
      // the role new accounts get, chosen on the Roles screen (none: refused before anything is written)
      const role = this.meta.account && this.meta.scope?.user_type ? { id: await defaultRoleId(t, String(this.meta.scope.user_type)) } : undefined;
      for (let i = 0; i < records.length; i += 50) {
        await pause();
        const chunk = records.slice(i, i + 50);
        for (const values of chunk) await this.rules.beforeSave?.(trx, values, null);
        const rows = chunk.map((values) => {
          const row: Row = { ...this.columns(values, true), ...(this.meta.scope ?? {}) };
          if (this.meta.account) Object.assign(row, { password_hash: passwordHash(values), created_at: stamp, updated_at: stamp });
          return row;
        });
        const inserted = await trx.insertInto(this.meta.table).values(rows).returning('id').execute();
        const ids = inserted.map((r: Row) => Number(r.id));
        if (yearly && yearId !== null) {
          const placed = chunk
            .map((values, k) => ({ values, id: ids[k] }))
            .filter(({ values }) => this.yearly.every(([name]) => values[name] !== undefined && values[name] !== null));
          if (placed.length) {
            await trx.insertInto(yearly.table).values(placed.map(({ values, id }) => ({
              [yearly.ownerColumn]: id,
              [yearly.yearColumn]: yearId,
              ...Object.fromEntries(this.yearly.map(([name, p]) => [propertyMeta(p).yearly!.column, values[name]])),
            }))).execute();
          }
        }
        if (role) await trx.insertInto('user_roles').values(ids.map((id) => ({ user_id: id, role_id: role.id }))).execute();
      }
      await within?.(trx);
    });
  }

  /** Updates the given fields of a record; children and links given are replaced as a whole. */
  async update(id: number, values: Row, schoolYearId?: number): Promise<void> {
    await this.db.transaction().execute(async (t) => {
      const trx = t as unknown as Transaction<any>;
      const existing = await this.get(id, schoolYearId, trx);
      if (!existing) throw new BusinessError('RECORD_NOT_FOUND');
      await this.check(trx, { ...existing, ...values }, id, existing);
      await this.rules.beforeSave?.(trx, values, existing);
      const row = this.columns(values);
      if (this.meta.account) row.updated_at = now();
      if (Object.keys(row).length) await trx.updateTable(this.meta.table).set(row).where('id', '=', id).execute();
      await this.writeRelated(trx, id, values, existing, schoolYearId);
      await this.rules.afterSave?.(trx, id, values);
    });
  }

  private async writeRelated(trx: AnyDb, id: number, values: Row, existing: Row | null, schoolYearId?: number) {
    for (const [name, p] of this.links) {
      if (!(name in values)) continue;
      const { table, ownerColumn, valueColumn } = propertyMeta(p).links!;
      await trx.deleteFrom(table).where(ownerColumn, '=', id).execute();
      const ids = [...new Set((values[name] as number[]) ?? [])];
      if (ids.length) await trx.insertInto(table).values(ids.map((v) => ({ [ownerColumn]: id, [valueColumn]: v }))).execute();
    }
    for (const [name, p] of this.children) {
      if (!(name in values)) continue;
      await this.writeChildren(trx, id, p, (values[name] as Row[]) ?? [], (existing?.[name] as Row[]) ?? []);
    }
    const yearly = this.yearly.filter(([name]) => name in values);
    if (yearly.length) {
      const yearId = await this.yearId(trx, schoolYearId);
      const spec = propertyMeta(yearly[0][1]).yearly!;
      const set: Row = Object.fromEntries(yearly.map(([name, p]) => [propertyMeta(p).yearly!.column, values[name] ?? null]));
      const where = (q: any) => q.where(spec.ownerColumn, '=', id).where(spec.yearColumn, '=', yearId);
      const current = yearId === null ? null : await where(trx.selectFrom(spec.table).selectAll()).executeTakeFirst();
      const merged = { ...(current ?? {}), ...set };
      const cleared = this.yearly.every(([, p]) => merged[propertyMeta(p).yearly!.column] === null || merged[propertyMeta(p).yearly!.column] === undefined);
      if (yearId === null) {
        if (!cleared) throw new FieldError({ [yearly[0][0]]: { rule: 'noCurrentYear' } });
      } else if (cleared) {
        await where(trx.deleteFrom(spec.table)).execute();
      } else if (this.yearly.some(([, p]) => merged[propertyMeta(p).yearly!.column] === null || merged[propertyMeta(p).yearly!.column] === undefined)) {
        // a class without a number (or the reverse) is half a placement
        const missing = this.yearly.find(([, p]) => merged[propertyMeta(p).yearly!.column] === null || merged[propertyMeta(p).yearly!.column] === undefined)!;
        throw new FieldError({ [missing[0]]: { rule: 'required' } });
      } else {
        await this.refuseTakenPlace(trx, yearId, id, merged, current);
        if (current) await where(trx.updateTable(spec.table).set(set)).execute();
        else await trx.insertInto(spec.table).values({ ...merged, [spec.ownerColumn]: id, [spec.yearColumn]: yearId }).execute();
      }
    }
  }

  /**
   * A place in a class — the per-year values together: the class and the number in it — is held
   * by one record a year. Answers, by index, the records whose place another stored record holds
   * (`taken`) and those that give the same place as others of `records` (`repeated`: every index
   * that gives it). Places left incomplete are not looked at (they are refused on their own).
   */
  async placeClashes(db: AnyDb, yearId: number, records: { id: number | null; values: Row }[]): Promise<{ taken: Set<number>; repeated: Map<number, number[]> }> {
    const taken = new Set<number>();
    const repeated = new Map<number, number[]>();
    if (!this.yearly.length) return { taken, repeated };
    const spec = propertyMeta(this.yearly[0][1]).yearly!;
    const columns = this.yearly.map(([name, p]) => [name, propertyMeta(p).yearly!.column] as const);
    const placed = records
      .map((r, index) => ({ index, id: r.id, place: columns.map(([name]) => r.values[name]) }))
      .filter((r) => r.place.every((v) => v !== null && v !== undefined));
    const key = (place: unknown[]) => JSON.stringify(place.map(Number));
    const byPlace = new Map<string, number[]>();
    for (const r of placed) byPlace.set(key(r.place), [...(byPlace.get(key(r.place)) ?? []), r.index]);
    for (const indexes of byPlace.values()) if (indexes.length > 1) for (const i of indexes) repeated.set(i, indexes);

    // the stored holders of those places: read by the first value (the class), a few hundred at a time
    const holders = new Map<string, unknown[]>();
    const firsts = [...new Set(placed.map((r) => r.place[0]))];
    for (let i = 0; i < firsts.length; i += 500) {
      const rows = await db
        .selectFrom(spec.table)
        .select([`${spec.ownerColumn} as owner`, ...columns.map(([name, column]) => `${column} as ${name}`)])
        .where(spec.yearColumn, '=', yearId)
        .where(columns[0][1], 'in', firsts.slice(i, i + 500))
        .execute();
      for (const row of rows) {
        const k = key(columns.map(([name]) => row[name]));
        holders.set(k, [...(holders.get(k) ?? []), row.owner]);
      }
    }
    for (const r of placed) if ((holders.get(key(r.place)) ?? []).some((owner) => Number(owner) !== r.id)) taken.add(r.index);
    return { taken, repeated };
  }

  /** Refuses (422 on the number) a changed place in a class that another record holds that year. */
  private async refuseTakenPlace(trx: AnyDb, yearId: number, id: number, merged: Row, current: Row | undefined) {
    const columns = this.yearly.map(([name, p]) => [name, propertyMeta(p).yearly!.column] as const);
    // an unchanged place is left alone: an install may hold places given twice before QE refused them
    if (current && columns.every(([, column]) => Number(current[column]) === Number(merged[column]))) return;
    await lockFor(trx as any, 'classNumbers');
    const { taken } = await this.placeClashes(trx, yearId, [{ id, values: Object.fromEntries(columns.map(([name, column]) => [name, merged[column]])) }]);
    if (taken.size) throw new FieldError({ [this.placeField!]: { rule: 'classNumberTaken' } });
  }

  private async writeChildren(trx: AnyDb, id: number, p: PropertySchema, items: Row[], before: Row[]) {
    const { table, foreignKey } = propertyMeta(p).children!;
    const itemProps = Object.entries((p.items as { properties: Record<string, PropertySchema> }).properties).filter(([k]) => k !== 'id');
    const kept = new Set(items.map((i) => i.id).filter(Boolean));
    const dropped = before.filter((b) => !kept.has(b.id)).map((b) => b.id as number);
    if (dropped.length) {
      await this.refuseIfUsed(trx, dropped, propertyMeta(p).childDependents ?? [], false);
      await trx.deleteFrom(table).where('id', 'in', dropped).execute();
    }
    const rowOf = (item: Row): Row => Object.fromEntries(itemProps.filter(([k]) => k in item).map(([k, cp]) => [columnOf(k, cp), item[k]]));
    const updated = items.filter((item) => item.id && before.some((b) => b.id === item.id));
    // two children swapping a unique value in one save (class 1A becomes 1B and 1B becomes 1A):
    // the changed texts are first parked under values nobody types, so that no row meets
    // another's old value on the way (a unique index would refuse it)
    if (updated.length > 1) {
      for (const item of updated) {
        const old = before.find((b) => b.id === item.id)!;
        const park = Object.fromEntries(
          itemProps.filter(([k]) => k in item && typeof item[k] === 'string' && item[k] !== old[k]).map(([k, cp]) => [columnOf(k, cp), `\u0001${String(item.id)}:${k}`]),
        );
        if (Object.keys(park).length) await trx.updateTable(table).set(park).where('id', '=', item.id).execute();
      }
    }
    for (const item of updated) await trx.updateTable(table).set(rowOf(item)).where('id', '=', item.id).execute();
    // new ones last: they may take a value an updated one gave up
    for (const item of items) if (!updated.includes(item)) await trx.insertInto(table).values({ ...rowOf(item), [foreignKey]: id }).execute();
  }

  /** Refuses (708) when other records use these; cascading dependents are named in the refusal's data. */
  private async refuseIfUsed(db: AnyDb, ids: number[], dependents: Dependent[], cascade: boolean): Promise<Dependent[]> {
    const used: (Dependent & { count: number })[] = [];
    for (const d of dependents) {
      const r = await db.selectFrom(d.table).select((eb: any) => eb.fn.countAll().as('n')).where(d.column, 'in', ids).executeTakeFirst() as { n?: number | string } | undefined;
      const count = Number(r?.n ?? 0);
      if (count) used.push({ ...d, count });
    }
    if (!used.length) return [];
    const blocking = used.filter((d) => !d.cascade);
    if (blocking.length || !cascade) {
      throw new BusinessError('IN_USE', {}, { cascade: blocking.length === 0, dependents: used.map(({ label, count }) => ({ label, count })) });
    }
    return used;
  }

  /** Deletes a record; with `cascade`, also the related records the schema allows to go with it. */
  async remove(id: number, cascade: boolean): Promise<void> {
    await this.db.transaction().execute(async (t) => {
      const trx = t as unknown as Transaction<any>;
      const existing = await this.get(id, undefined, trx);
      if (!existing) throw new BusinessError('RECORD_NOT_FOUND');
      await this.rules.beforeDelete?.(trx, existing);
      const childDependents = this.children.flatMap(([, p]) => propertyMeta(p).childDependents ?? []);
      for (const [name, p] of this.children) {
        const childIds = ((existing[name] as Row[]) ?? []).map((c) => c.id as number);
        if (childIds.length) await this.refuseIfUsed(trx, childIds, childDependents, false);
        await trx.deleteFrom(propertyMeta(p).children!.table).where(propertyMeta(p).children!.foreignKey, '=', id).execute();
      }
      const cascaded = await this.refuseIfUsed(trx, [id], this.meta.dependents ?? [], cascade);
      for (const d of cascaded) await trx.deleteFrom(d.table).where(d.column, '=', id).execute();
      for (const [, p] of this.links) await trx.deleteFrom(propertyMeta(p).links!.table).where(propertyMeta(p).links!.ownerColumn, '=', id).execute();
      if (this.yearly.length) {
        const spec = propertyMeta(this.yearly[0][1]).yearly!;
        await trx.deleteFrom(spec.table).where(spec.ownerColumn, '=', id).execute();
      }
      await trx.deleteFrom(this.meta.table).where('id', '=', id).execute();
    });
  }
}
