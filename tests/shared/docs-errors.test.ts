import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERRORS, type ErrorKey } from '../../src/shared/errors.js';
import appEn from '../../src/shared/i18n/app-en.js';
import appZhHk from '../../src/shared/i18n/app-zh-hk.js';

/**
 * docs/errors.md is the error catalogue for readers: its "Business codes" table must hold every
 * entry of ERRORS (src/shared/errors.ts) with its code and HTTP status, and both its texts as
 * the message files word them (qe.errors.<KEY>), and nothing that is no longer there.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');

interface DocRow {
  code: number;
  http: number;
  when: string;
  'zh-hk': string;
  en: string;
}

/** The rows of the table under "## Business codes": `| code | \`KEY\` | HTTP | when | zh-hk | en |`. */
function businessRows(markdown: string): Map<string, DocRow> {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Business codes'));
  if (!section) throw new Error('docs/errors.md has no "## Business codes" section');
  const rows = new Map<string, DocRow>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) continue;
    // cells split at pipes that are not escaped (a text may hold "\|")
    const cells = line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    const key = /^`([A-Z0-9_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!key) continue; // the head and its rule
    if (rows.has(key)) throw new Error(`docs/errors.md lists ${key} twice`);
    rows.set(key, { code: Number(cells[0]), http: Number(cells[2]), when: cells[3] ?? '', 'zh-hk': cells[4] ?? '', en: cells[5] ?? '' });
  }
  return rows;
}

const rows = businessRows(doc);
const keys = Object.keys(ERRORS) as ErrorKey[];

describe('docs/errors.md', () => {
  it('lists every entry of the catalogue', () => {
    expect(keys.filter((k) => !rows.has(k))).toEqual([]);
  });

  it('names no entry the catalogue does not have', () => {
    expect([...rows.keys()].filter((k) => !(k in ERRORS))).toEqual([]);
  });

  it.each(keys.filter((k) => rows.has(k)))('gives %s its code and HTTP status as src/shared/errors.ts does, its texts as the message files do', (key) => {
    const row = rows.get(key)!;
    const entry = { ...ERRORS[key], 'zh-hk': appZhHk.qe.errors[key], en: appEn.qe.errors[key] };
    expect({ code: row.code, http: row.http, 'zh-hk': row['zh-hk'], en: row.en }).toEqual({ code: entry.code, http: entry.http, 'zh-hk': entry['zh-hk'], en: entry.en });
    expect(row.when, `${key}: say when it is answered`).not.toBe('');
  });
});
