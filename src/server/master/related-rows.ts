/* eslint-disable @typescript-eslint/no-explicit-any -- the engine writes tables named by the schemas, so it works on a schema-less Kysely */
import { columnOf, propertyMeta, type Dependent, type PropertySchema } from '../../shared/master/entity.js';
import { BusinessError, FieldError } from '../plugins/errors.js';
import type { AnyDb, EntityShape, Row } from './entity-shape.js';
import { schoolYearOf } from './entity-reads.js';
import { refuseTakenPlace } from './class-places.js';

/** A record's links, children and per-year values, as `values` gives them (what it leaves out stays). */
export async function writeRelated(shape: EntityShape, trx: AnyDb, id: number, values: Row, existing: Row | null, schoolYearId?: number) {
  for (const [name, p] of shape.links) {
    if (!(name in values)) continue;
    const { table, ownerColumn, valueColumn } = propertyMeta(p).links!;
    await trx.deleteFrom(table).where(ownerColumn, '=', id).execute();
    const ids = [...new Set((values[name] as number[]) ?? [])];
    if (ids.length) await trx.insertInto(table).values(ids.map((v) => ({ [ownerColumn]: id, [valueColumn]: v }))).execute();
  }
  for (const [name, p] of shape.children) {
    if (!(name in values)) continue;
    await writeChildren(trx, id, p, (values[name] as Row[]) ?? [], (existing?.[name] as Row[]) ?? []);
  }
  const yearly = shape.yearly.filter(([name]) => name in values);
  if (yearly.length) {
    const yearId = await schoolYearOf(shape, trx, schoolYearId);
    const spec = propertyMeta(yearly[0][1]).yearly!;
    const set: Row = Object.fromEntries(yearly.map(([name, p]) => [propertyMeta(p).yearly!.column, values[name] ?? null]));
    const where = (q: any) => q.where(spec.ownerColumn, '=', id).where(spec.yearColumn, '=', yearId);
    const current = yearId === null ? null : await where(trx.selectFrom(spec.table).selectAll()).executeTakeFirst();
    const merged = { ...(current ?? {}), ...set };
    const cleared = shape.yearly.every(([, p]) => merged[propertyMeta(p).yearly!.column] === null || merged[propertyMeta(p).yearly!.column] === undefined);
    if (yearId === null) {
      if (!cleared) throw new FieldError({ [yearly[0][0]]: { rule: 'noCurrentYear' } });
    } else if (cleared) {
      await where(trx.deleteFrom(spec.table)).execute();
    } else if (shape.yearly.some(([, p]) => merged[propertyMeta(p).yearly!.column] === null || merged[propertyMeta(p).yearly!.column] === undefined)) {
      // a class without a number (or the reverse) is half a placement
      const missing = shape.yearly.find(([, p]) => merged[propertyMeta(p).yearly!.column] === null || merged[propertyMeta(p).yearly!.column] === undefined)!;
      throw new FieldError({ [missing[0]]: { rule: 'required' } });
    } else {
      await refuseTakenPlace(shape, trx, yearId, id, merged, current);
      if (current) await where(trx.updateTable(spec.table).set(set)).execute();
      else await trx.insertInto(spec.table).values({ ...merged, [spec.ownerColumn]: id, [spec.yearColumn]: yearId }).execute();
    }
  }
}

async function writeChildren(trx: AnyDb, id: number, p: PropertySchema, items: Row[], before: Row[]) {
  const { table, foreignKey } = propertyMeta(p).children!;
  const itemProps = Object.entries((p.items as { properties: Record<string, PropertySchema> }).properties).filter(([k]) => k !== 'id');
  const kept = new Set(items.map((i) => i.id).filter(Boolean));
  const dropped = before.filter((b) => !kept.has(b.id)).map((b) => b.id as number);
  if (dropped.length) {
    await refuseIfUsed(trx, dropped, propertyMeta(p).childDependents ?? [], false);
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
export async function refuseIfUsed(db: AnyDb, ids: number[], dependents: Dependent[], cascade: boolean): Promise<Dependent[]> {
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
