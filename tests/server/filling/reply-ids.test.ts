import { describe, expect, it } from 'vitest';
import { newReplyId } from '../../../src/server/filling/reply-ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('reply ids', () => {
  it('orders named replies by the millisecond they came, as UUID version 7', () => {
    const t0 = Date.UTC(2026, 10, 26, 2, 0, 0);
    const ids = [t0, t0 + 1, t0 + 1000, t0 + 86_400_000].map((at) => newReplyId(false, at));
    for (const id of ids) expect(id).toMatch(V7);
    expect([...ids].sort()).toEqual(ids);
    expect(parseInt(ids[0].replace(/-/g, '').slice(0, 12), 16)).toBe(t0);
    // the random part differs within one millisecond
    expect(new Set(Array.from({ length: 1000 }, () => newReplyId(false, t0))).size).toBe(1000);
  });

  it('gives anonymous replies random ids (version 4) that say nothing of when they came', () => {
    const t0 = Date.UTC(2026, 10, 26, 2, 0, 0);
    const ids = Array.from({ length: 200 }, (_, i) => newReplyId(true, t0 + i * 60_000));
    for (const id of ids) expect(id).toMatch(V4);
    // in time order they are not in key order (200 random ids sorted by chance: never)
    expect([...ids].sort()).not.toEqual(ids);
  });
});
