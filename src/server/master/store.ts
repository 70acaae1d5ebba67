/* eslint-disable @typescript-eslint/no-explicit-any -- the engine reads and writes tables named by the schemas, so it works on a schema-less Kysely */
import type { CacheVersions } from '../auth/cache-versions.js';
import type { Transaction } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { eventLoopTurns } from '../event-loop-turns.js';
import { lockFor } from '../db/locks.js';
import { KeptByTables } from './kept-by-tables.js';
import { columnOf, missingNames, propertyMeta, type MasterEntity, type PropertySchema } from '../../shared/master/entity.js';
import { EntityShape, tableOf, type AnyDb, type Row } from './entity-shape.js';
import { answerRow, attachLinks, baseQuery, filteredQuery, schoolYearOf, selection, tablesRead, usesYearly } from './entity-reads.js';
import { PlacesTaken, placeClashes } from './class-places.js';
import { refuseIfUsed, writeRelated } from './related-rows.js';
import type { ListQuery } from './list-query.js';
import { hashPassword } from '../auth/passwords.js';
import { passwordChanged } from '../auth/sessions.js';
import { assignDefaultRole, defaultRoleId } from '../developer/seed.js';
import { BusinessError, FieldError } from '../plugins/errors.js';
import { requiredLanguages } from '../school/languages.js';
import { schoolClock } from '../school/clock.js';

export type FieldErrors = ConstructorParameters<typeof FieldError>[0];

/** Pages of at most this many rows are kept (kept-by-tables.ts): a screen's, not an export's. */
const PAGE_KEPT_SIZE = 100;

/** Business rules of one entity beyond what its schema says (src/server/master/rules/). */
export interface MasterRules {
  /** field errors of a record about to be saved that its schema cannot see (no database reads; `today` on the school's clock) */
  validate?(values: Row, existing: Row | null, today: string): FieldErrors;
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

const now = () => new Date().toISOString();

/** Reading and writing the records of one master-data entity, as its schema describes them. */
export class EntityStore extends EntityShape {
  /** list totals and screen-sized pages, kept while the tables they were read from are unchanged */
  private readonly totals: KeptByTables<number>;
  private readonly pages: KeptByTables<{ list: Row[]; total: number }>;
  /** the tables a list's page reads; null: its pages are never kept (tablesRead) */
  private readonly pageTables: string[] | null;

  constructor(
    readonly db: DB,
    entity: MasterEntity,
    readonly rules: MasterRules = {},
    versions: CacheVersions,
  ) {
    super(entity);
    this.totals = new KeptByTables(versions, 500);
    this.pages = new KeptByTables(versions, 200);
    this.pageTables = tablesRead(this);
  }

  private get anyDb(): AnyDb {
    return this.db as unknown as AnyDb;
  }


  /**
   * A page of records with the total, sorted, searched and filtered (docs/conventions.md#list-queries). A page the
   * size of a screen is kept while every table it is read from stays unchanged (kept-by-tables.ts);
   * an export's thousands of rows are read afresh.
   */
  async list(query: ListQuery, { ownOnly = false }: { ownOnly?: boolean } = {}): Promise<{ list: Row[]; total: number }> {
    const tables = this.pageTables;
    if (ownOnly) return this.readPage(query, true);
    if (!tables || (query.size ?? 20) > PAGE_KEPT_SIZE) return this.readPage(query);
    const key = JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)));
    return this.pages.get(tables, key, () => this.readPage(query));
  }

  /** `ownOnly`: without the rows of other types the schema lists too (an export: sheets keep to `scope`). */
  private async readPage(query: ListQuery, ownOnly = false): Promise<{ list: Row[]; total: number }> {
    const db = this.anyDb;
    const yearId = await schoolYearOf(this, db, query.schoolYearId);
    const size = query.size ?? 20;
    const page = query.page ?? 1;
    const sortField = query.sort && (query.sort === 'id' || query.sort in this.entity.schema.properties) ? query.sort : this.meta.defaultSort.field;
    const order = (query.order ?? (query.sort ? 'asc' : this.meta.defaultSort.order)).toLowerCase() === 'desc' ? 'desc' : 'asc';
    const offset = (page - 1) * size;
    const rows = await filteredQuery(this, db, query, yearId, true, ownOnly)
      .select(selection(this, db))
      .orderBy(this.ref(sortField), order)
      .orderBy('t.id', order)
      .limit(size)
      .offset(offset)
      .execute();
    // a page that is not full is the last one, which tells the total without counting again
    const total = rows.length < size && (rows.length > 0 || offset === 0) ? offset + rows.length : await this.count(db, query, yearId, ownOnly);
    const list = rows.map((r: Row) => answerRow(this, r));
    await attachLinks(this, db, list);
    return { list, total };
  }

  /** How many records the list's filters and search select, kept while the tables counted stay unchanged (kept-by-tables.ts). */
  private count(db: AnyDb, query: ListQuery, yearId: number | null, ownOnly = false): Promise<number> {
    const withYearly = usesYearly(this, query);
    const yearlyTable = withYearly ? propertyMeta(this.yearly[0][1]).yearly!.table : null;
    const filters = (this.meta.filters ?? []).map((f) => query[f] ?? null);
    const key = JSON.stringify([query.id ?? null, query.q?.trim() ?? '', filters, withYearly ? yearId : null, ownOnly]);
    return this.totals.get(yearlyTable ? [this.meta.table, yearlyTable] : [this.meta.table], key, async () =>
      Number(((await filteredQuery(this, db, query, yearId, withYearly, ownOnly).select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirst()) as { n?: number | string } | undefined)?.n ?? 0),
    );
  }

  /** One record with its children and links, or null. */
  async get(id: number, schoolYearId?: number, db: AnyDb = this.anyDb): Promise<Row | null> {
    const yearId = await schoolYearOf(this, db, schoolYearId);
    const row = await baseQuery(this, db, yearId).select(selection(this, db)).where('t.id', '=', id).executeTakeFirst();
    if (!row) return null;
    const record = answerRow(this, row);
    await attachLinks(this, db, [record]);
    for (const [name, p] of this.children) {
      const { table, foreignKey, orderBy } = propertyMeta(p).children!;
      const items = (p.items as { properties: Record<string, PropertySchema> }).properties;
      const childRows = await db.selectFrom(table).selectAll().where(foreignKey, '=', id).orderBy(orderBy).orderBy('id').execute();
      record[name] = childRows.map((c: Row) => Object.fromEntries(Object.entries(items).map(([k, cp]) => [k, c[columnOf(k, cp)]])));
    }
    return record;
  }

  /**
   * The type of a record listed here though its scope's columns say another (SUPER_ADMIN among
   * the administrators), or null: an own record, or none.
   */
  async otherTypeOf(id: number, db: AnyDb = this.anyDb): Promise<string | null> {
    const columns = Object.keys(this.meta.alsoListed ?? {});
    if (!columns.length) return null;
    const row = await db.selectFrom(this.meta.table).select(columns).where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const other = columns.find((c) => row[c] !== this.meta.scope?.[c] && this.meta.alsoListed![c].includes(row[c]));
    return other === undefined ? null : String(row[other]);
  }

  /** Field errors found without the database: date ranges and the entity's own rules (`today` on the school's clock). */
  ruleErrors(values: Row, existing: Row | null, today: string): FieldErrors {
    const merged = { ...(existing ?? {}), ...values };
    const errors: FieldErrors = {};
    for (const [start, end] of this.meta.dateRanges ?? []) {
      if (merged[start] && merged[end] && merged[start] > merged[end]) errors[end] = { rule: 'dateRange' };
    }
    return { ...errors, ...this.rules.validate?.(values, existing, today) };
  }

  /** Checks the rules the schema cannot express alone: unique values, date ranges, references. */
  async check(db: AnyDb, values: Row, id: number | null, existing: Row | null, today: string): Promise<void> {
    const errors: FieldErrors = this.ruleErrors(values, existing, today);
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

  /**
   * Before an account's row is written (a form's update, an import's): when the write changes its
   * school account — to another address or to none — the account's sign-in links go, in the same
   * transaction. A link beats the address at sign-in (src/server/sign-in/matching.ts), so a link
   * made while the address was wrong would otherwise keep signing its provider account in as this
   * account after the correction. A write that leaves the address as it is keeps them.
   */
  private async schoolAccountChanging(trx: Transaction<any>, id: number, row: Row): Promise<void> {
    if (!this.meta.account || !('school_account' in row)) return;
    const stored = await trx.selectFrom(this.meta.table).select('school_account').where('id', '=', id).executeTakeFirst();
    if (!stored || (stored.school_account ?? null) === (row.school_account ?? null)) return;
    await trx.deleteFrom('sign_in_links').where('user_id', '=', id).execute();
  }

  /** Creates a record (and its account, children, links, per-year values); answers its id. */
  async create(values: Row, options: { schoolYearId?: number; passwordHash?: string } = {}): Promise<number> {
    // read before the transaction: on SQLite's one connection a read of the app's database inside it would wait for it
    const today = await schoolClock(this.anyDb).today();
    return this.db.transaction().execute(async (t) => {
      const trx = t as unknown as Transaction<any>;
      await this.check(trx, values, null, null, today);
      await this.rules.beforeSave?.(trx, values, null);
      const row: Row = { ...this.columns(values, true), ...(this.meta.scope ?? {}) };
      if (this.meta.account) {
        row.password_hash = options.passwordHash ?? (await hashPassword(String(values.password)));
        row.created_at = now();
        row.updated_at = now();
      }
      const { id } = await trx.insertInto(this.meta.table).values(row).returning('id').executeTakeFirstOrThrow();
      await writeRelated(this, trx, id, values, null, options.schoolYearId);
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
      // SQLite's driver answers within the same tick: without pauses the whole import would hold
      // the event loop (its queries still wait for the one connection, other work does not)
      const pause = eventLoopTurns();
      const yearId = await schoolYearOf(this, trx, schoolYearId);
      const yearly = this.yearly.length ? propertyMeta(this.yearly[0][1]).yearly! : null;
      for (const { id, values } of updates) {
        await pause();
        await this.rules.beforeSave?.(trx, values, null);
        const row = this.columns(values);
        if (this.meta.account) {
          row.updated_at = stamp;
          const hash = values.password === undefined ? undefined : passwordHash(values);
          if (hash) row.password_hash = hash;
        }
        await this.schoolAccountChanging(trx, id, row);
        if (Object.keys(row).length) await trx.updateTable(this.meta.table).set(row).where('id', '=', id).execute();
        // a password the sheet sets ends the account's sessions and sign-in links, as any password change does
        if (row.password_hash) await passwordChanged(trx, id);
        await writeRelated(this, trx, id, values, null, yearId ?? undefined);
        await this.rules.afterSave?.(trx, id, values);
      }
      if (yearly && yearId !== null) {
        await lockFor(t, 'classNumbers');
        await pause();
        const { taken } = await placeClashes(this, trx, yearId, records.map((values) => ({ id: null, values })));
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
    const today = await schoolClock(this.anyDb).today();
    await this.db.transaction().execute(async (t) => {
      const trx = t as unknown as Transaction<any>;
      const existing = await this.get(id, schoolYearId, trx);
      if (!existing) throw new BusinessError('RECORD_NOT_FOUND');
      await this.check(trx, { ...existing, ...values }, id, existing, today);
      await this.rules.beforeSave?.(trx, values, existing);
      const row = this.columns(values);
      if (this.meta.account) row.updated_at = now();
      await this.schoolAccountChanging(trx, id, row);
      if (Object.keys(row).length) await trx.updateTable(this.meta.table).set(row).where('id', '=', id).execute();
      await writeRelated(this, trx, id, values, existing, schoolYearId);
      await this.rules.afterSave?.(trx, id, values);
    });
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
        if (childIds.length) await refuseIfUsed(trx, childIds, childDependents, false);
        await trx.deleteFrom(propertyMeta(p).children!.table).where(propertyMeta(p).children!.foreignKey, '=', id).execute();
      }
      const cascaded = await refuseIfUsed(trx, [id], this.meta.dependents ?? [], cascade);
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
