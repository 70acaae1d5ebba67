/* eslint-disable @typescript-eslint/no-explicit-any -- the engine writes tables named by the schemas, so it works on a schema-less Kysely */
import { lockFor } from '../db/locks.js';
import { propertyMeta } from '../../shared/master/entity.js';
import { FieldError } from '../plugins/errors.js';
import type { AnyDb, EntityShape, Row } from './entity-shape.js';

/** Records of a bulk create (by their index) whose place in a class another record holds already. */
export class PlacesTaken extends Error {
  constructor(readonly indexes: number[]) {
    super('class numbers taken');
  }
}

/**
 * A place in a class — the per-year values together: the class and the number in it — is held
 * by one record a year. Answers, by index, the records whose place another stored record holds
 * (`taken`) and those that give the same place as others of `records` (`repeated`: every index
 * that gives it). Places left incomplete are not looked at (they are refused on their own).
 */
export async function placeClashes(shape: EntityShape, db: AnyDb, yearId: number, records: { id: number | null; values: Row }[]): Promise<{ taken: Set<number>; repeated: Map<number, number[]> }> {
  const taken = new Set<number>();
  const repeated = new Map<number, number[]>();
  if (!shape.yearly.length) return { taken, repeated };
  const spec = propertyMeta(shape.yearly[0][1]).yearly!;
  const columns = shape.yearly.map(([name, p]) => [name, propertyMeta(p).yearly!.column] as const);
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
export async function refuseTakenPlace(shape: EntityShape, trx: AnyDb, yearId: number, id: number, merged: Row, current: Row | undefined) {
  const columns = shape.yearly.map(([name, p]) => [name, propertyMeta(p).yearly!.column] as const);
  // an unchanged place is left alone: an install may hold places given twice before QE refused them
  if (current && columns.every(([, column]) => Number(current[column]) === Number(merged[column]))) return;
  await lockFor(trx as any, 'classNumbers');
  const { taken } = await placeClashes(shape, trx, yearId, [{ id, values: Object.fromEntries(columns.map(([name, column]) => [name, merged[column]])) }]);
  if (taken.size) throw new FieldError({ [shape.placeField!]: { rule: 'classNumberTaken' } });
}
