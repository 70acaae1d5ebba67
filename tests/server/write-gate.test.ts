import { describe, expect, it } from 'vitest';
import { WriteGate } from '../../src/server/plugins/write-gate.js';
import { BusinessError } from '../../src/server/plugins/errors.js';

describe('the write gate a restore closes', () => {
  it('refuses new writes while closed, waits for those inside, and opens again', async () => {
    const gate = new WriteGate();
    gate.enter();
    gate.enter();
    let closed = false;
    const closing = gate.close(5_000).then(() => (closed = true));
    expect(() => gate.enter()).toThrow(BusinessError);
    gate.leave();
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(false);
    gate.leave();
    await closing;
    expect(closed).toBe(true);
    gate.open();
    expect(() => gate.enter()).not.toThrow();
  });

  it('gives up after its time with RESTORE_WAITED and lets writes in again', async () => {
    const gate = new WriteGate();
    gate.enter();
    const error = await gate.close(30).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BusinessError);
    expect((error as BusinessError).key).toBe('RESTORE_WAITED');
    expect(gate.isClosed).toBe(false);
    expect(() => gate.enter()).not.toThrow();
  });

  it('stays closed while any hold is on: its own restore and another instance\'s', async () => {
    const gate = new WriteGate();
    await gate.close(1_000);
    await gate.close(Infinity);
    expect(gate.isClosed).toBe(true);
    gate.open();
    expect(gate.isClosed).toBe(true);
    expect(() => gate.enter()).toThrow(BusinessError);
    gate.open();
    expect(gate.isClosed).toBe(false);
    expect(() => gate.enter()).not.toThrow();
  });
});
