import { describe, expect, it } from 'vitest';
import { messageText } from '../../src/shared/master/labels.js';
import { composedKey } from '../../src/shared/i18n/keys.js';

// The type check (tsc, run by CI) is the test here: each @ts-expect-error below must meet the
// error it announces, or tsc fails with "unused @ts-expect-error".
describe('message keys', () => {
  it('are checked by the compiler: a mistyped key does not compile', () => {
    // @ts-expect-error -- no such text: the compiler refuses it
    expect(messageText('en', 'qe.menu.studnts')).toBe('qe.menu.studnts');
    // @ts-expect-error -- a group is not a text
    expect(messageText('en', 'qe.menu')).toBe('qe.menu');
    expect(messageText('en', 'qe.menu.students')).toBe('Students');
  });

  it('made while running keep a group the compiler checks', () => {
    const role: string = 'TEACHER';
    expect(messageText('en', composedKey(`qe.userType.${role}`))).not.toBe(`qe.userType.${role}`);
    // @ts-expect-error -- the group must exist
    composedKey(`qe.userTypes.${role}`);
  });
});
