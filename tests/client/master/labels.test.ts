import { describe, expect, it } from 'vitest';
import { flatten } from '../../support/messages';
import zhHk from '../../../src/client/i18n/zh-hk';
import en from '../../../src/client/i18n/en';
import { masterEntities } from '../../../src/shared/generated/master-entities';
import { enumKey, labelKeys } from '../../../src/client/master/labels';
import { itemSchema } from '../../../src/client/master/schema';

const files = { 'zh-hk': flatten(zhHk), en: flatten(en) };
const inBoth = (key: string) => files['zh-hk'].has(key) && files.en.has(key);

/** Every message key the master screens derive from the schemas (they are built at run time, so the source scan cannot see them). */
function derivedKeys(): { label: string[]; enums: string[]; other: string[] } {
  const label: string[] = [];
  const enums: string[] = [];
  const other: string[] = [];
  for (const entity of Object.values(masterEntities)) {
    other.push(`qe.menu.${entity.meta.name}`, ...(entity.meta.dependents ?? []).map((d) => d.label));
    for (const [name, p] of Object.entries(entity.schema.properties)) {
      if (name === 'id') continue;
      label.push(labelKeys(entity.key, name).join(' | '));
      for (const v of p.enum ?? []) if (v !== null) enums.push(enumKey(entity.key, name, v));
      const items = itemSchema(p);
      other.push(...(p['x-qe']?.childDependents ?? []).map((d) => d.label));
      for (const [child, cp] of Object.entries(items?.properties ?? {})) {
        if (child === 'id') continue;
        label.push(labelKeys(entity.key, name, child).join(' | '));
        for (const v of cp.enum ?? []) if (v !== null) enums.push(enumKey(`${entity.key}.${name}Item`, child, v));
      }
    }
  }
  return { label, enums, other };
}

describe('master-data texts derived from the schemas', () => {
  const keys = derivedKeys();

  it('every field of every entity (and of its child rows) has a label in both files, its own or the shared one', () => {
    expect(keys.label.length).toBeGreaterThan(60);
    const missing = keys.label.filter((alternatives) => !alternatives.split(' | ').some(inBoth));
    expect(missing).toEqual([]);
  });

  it('every enum value has its label in both files', () => {
    expect(keys.enums).toContain('qe.enums.teacher.status.0');
    expect(keys.enums.filter((k) => !inBoth(k))).toEqual([]);
  });

  it('menu titles and dependents names exist in both files', () => {
    expect(keys.other.filter((k) => !inBoth(k))).toEqual([]);
  });

  it('uses Hong Kong wording', () => {
    const zh = files['zh-hk'];
    expect(zh.get('qe.fields.student.code')).toBe('學生編號');
    expect(zh.get('qe.fields.student.studentNumber')).toBe('班號');
    expect(zh.get('qe.fields.student.classId')).toBe('班別');
    expect(zh.get('qe.enums.teacher.status.1')).toBe('在職');
    expect(zh.get('qe.enums.teacher.status.0')).toBe('離職');
    expect(zh.get('qe.enums.student.status.2')).toBe('已離校');
    expect(zh.get('qe.enums.student.status.3')).toBe('已畢業');
    expect(zh.get('qe.master.import.template')).toBe('下載範本');
    expect(zh.get('qe.master.password.reset')).toBe('重設密碼');
  });
});
