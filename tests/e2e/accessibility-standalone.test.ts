import { describe, expect, it } from 'vitest';
import { standsAlone } from './accessibility-checks';

// The walk's "other language" check reads a catalogue text only where it stands as a text of its own.
describe('a catalogue text in a screen text', () => {
  it('is found alone, after a label or between other words', () => {
    expect(standsAlone('進行中', '進行中')).toBe(true);
    expect(standsAlone('Status: 進行中 (3)', '進行中')).toBe(true);
    expect(standsAlone('Save changes', 'Save changes')).toBe(true);
    expect(standsAlone('狀態：Save changes。', 'Save changes')).toBe(true);
  });

  it('is not found inside a longer word of the same script, as in a record a test made', () => {
    expect(standsAlone('E2E 首頁進行中 1234', '進行中')).toBe(false);
    expect(standsAlone('𠝹進行中', '進行中')).toBe(false);
    expect(standsAlone('Unsaved changesX', 'saved changes')).toBe(false);
  });

  it('is found when one of several places stands alone', () => {
    expect(standsAlone('首頁進行中 · 進行中', '進行中')).toBe(true);
  });
});
