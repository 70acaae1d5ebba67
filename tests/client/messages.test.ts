import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flatten } from '../support/messages';
import zhHk from '../../src/client/i18n/zh-hk';
import en from '../../src/client/i18n/en';


function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

const zh = flatten(zhHk);
const enKeys = flatten(en);

describe('message files', () => {
  it('zh-hk and en have exactly the same keys', () => {
    const missingInEn = [...zh.keys()].filter((k) => !enKeys.has(k));
    const missingInZh = [...enKeys.keys()].filter((k) => !zh.has(k));
    expect({ missingInEn, missingInZh }).toEqual({ missingInEn: [], missingInZh: [] });
  });

  it('no text is empty', () => {
    // react-admin's own "not set" choice (ra.boolean.null) is a deliberate blank
    const blankOnPurpose = new Set(['ra.boolean.null']);
    const empty = [...zh, ...enKeys].filter(([k, v]) => typeof v !== 'string' || (v.trim() === '' && !blankOnPurpose.has(k))).map(([k]) => k);
    expect(empty).toEqual([]);
  });

  it('every qe.* key the client code names exists in both files', () => {
    const used = new Set<string>();
    for (const file of sourceFiles('src/client')) {
      if (file.includes(`${join('src', 'client', 'i18n')}`)) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/['"`](qe\.[A-Za-z0-9_.]+)['"`]/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(20);
    const missing = [...used].filter((k) => !zh.has(k) || !enKeys.has(k));
    expect(missing).toEqual([]);
  });

  it('every route title and sidebar group has its text', async () => {
    const { ROUTE_GROUPS, appRoutes, routeTitleKey } = await import('../../src/client/routes');
    const keys = [
      ...ROUTE_GROUPS.map((g) => `qe.menu.${g.name}`),
      ...ROUTE_GROUPS.flatMap((g) => g.children.map(routeTitleKey)),
      ...appRoutes.map(routeTitleKey),
    ];
    expect(keys.filter((k) => !zh.has(k) || !enKeys.has(k))).toEqual([]);
  });
});
