import { describe, expect, it } from 'vitest';
import { TurnReads } from '../../../src/server/db/turn-reads.js';

/**
 * Reads gathered per turn of the event loop (db/turn-reads.ts), as the PostgreSQL paths use them:
 * what is asked in one turn is read in one query, each asker gets its own row, a key asked twice
 * is read once, a failed read fails only the askers of its query, and big turns are split.
 */
describe('reads gathered per turn', () => {
  const table = new Map(Array.from({ length: 2000 }, (_, i) => [`k${i}`, { id: i }]));
  const reader = () => {
    const queries: string[][] = [];
    const reads = new TurnReads<string, { id: number }>(
      (k) => k,
      async (keys) => {
        queries.push(keys);
        if (keys.includes('boom')) throw new Error('the database went away');
        return new Map(keys.filter((k) => table.has(k)).map((k) => [k, table.get(k)!]));
      },
    );
    return { queries, reads };
  };

  it('reads what one turn asks in one query, each asker getting its own row', async () => {
    const { queries, reads } = reader();
    const rows = await Promise.all(['k1', 'k2', 'k1', 'nothing', 'k3'].map((k) => reads.read(k)));
    expect(rows).toEqual([{ id: 1 }, { id: 2 }, { id: 1 }, undefined, { id: 3 }]);
    expect(queries).toEqual([['k1', 'k2', 'nothing', 'k3']]);
  });

  it('reads again in a later turn: nothing is kept between turns', async () => {
    const { queries, reads } = reader();
    expect(await reads.read('k5')).toEqual({ id: 5 });
    expect(await reads.read('k5')).toEqual({ id: 5 });
    expect(queries).toEqual([['k5'], ['k5']]);
  });

  it('fails only the askers of a query that failed', async () => {
    const { reads } = reader();
    const asked = ['k7', 'boom'].map((k) => reads.read(k));
    await expect(asked[1]).rejects.toThrow('the database went away');
    await expect(asked[0]).rejects.toThrow('the database went away');
    // the next turn reads again
    expect(await reads.read('k7')).toEqual({ id: 7 });
  });

  it('splits a big turn into queries of at most 500 keys, answering every asker', async () => {
    const { queries, reads } = reader();
    const keys = Array.from({ length: 1200 }, (_, i) => `k${i}`);
    const rows = await Promise.all(keys.map((k) => reads.read(k)));
    expect(rows.map((r) => r!.id)).toEqual(keys.map((_, i) => i));
    expect(queries.map((q) => q.length)).toEqual([500, 500, 200]);
  });
});
