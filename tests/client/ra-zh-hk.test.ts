import { describe, expect, it } from 'vitest';
import { flatten } from '../support/messages';
import englishMessages from 'ra-language-english';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import raZhHk from '../../src/client/i18n/ra-zh-hk';


const placeholders = (text: string) => [...new Set([...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]))].sort();
const parts = (text: string) => text.split(' |||| ');
const CJK = /[\u3400-\u4dbf\u4e00-\u9fff]/;
// Characters that exist only in Simplified Chinese (their Traditional forms differ).
const SIMPLIFIED = /[设据数删录选页关击资网图档认证错误载输请确编辑储导户码号条项无结筛复显隐这个们为对时将发开闭单应题类样务]/;

const en = flatten(englishMessages);
const zh = flatten(raZhHk);
const zhText = (key: string) => zh.get(key) as string;

describe('ra-zh-hk (react-admin texts in HK Traditional Chinese)', () => {
  it('covers the whole ra-language-english tree', () => {
    expect(en.size).toBeGreaterThan(150);
    expect([...en.keys()].every((k) => k.startsWith('ra.'))).toBe(true);
  });

  it('has every key of ra-language-english', () => {
    expect([...en.keys()].filter((k) => !zh.has(k))).toEqual([]);
  });

  it('has no key that ra-language-english lacks', () => {
    expect([...zh.keys()].filter((k) => !en.has(k))).toEqual([]);
    expect(zh.size).toBe(en.size);
  });

  it('every text is a non-empty string (blank only where the English is blank)', () => {
    const bad = [...en].filter(([key, enValue]) => {
      const value = zh.get(key);
      if (typeof value !== 'string' || value.length === 0) return true;
      return String(enValue).trim() !== '' && value.trim() === '';
    });
    expect(bad.map(([k]) => k)).toEqual([]);
  });

  it('every text has the same %{placeholders} as the English', () => {
    const diff = [...en]
      .map(([key, enValue]) => ({ key, en: placeholders(String(enValue)), zh: placeholders(String(zh.get(key) ?? '')) }))
      .filter((d) => d.en.join() !== d.zh.join());
    expect(diff).toEqual([]);
  });

  it('every plural text has as many " |||| " parts as the English', () => {
    const diff = [...en]
      .map(([key, enValue]) => ({ key, en: parts(String(enValue)).length, zh: parts(String(zh.get(key) ?? '')).length }))
      .filter((d) => d.en !== d.zh);
    expect(diff).toEqual([]);
  });

  it('the first plural part (the only one polyglot uses for zh) shows the count', () => {
    const plural = [...en.keys()].filter((k) => parts(String(en.get(k))).length > 1);
    expect(plural.length).toBeGreaterThan(5);
    const missing = plural.filter((k) => placeholders(String(en.get(k))).includes('smart_count'))
      .filter((k) => !parts(zhText(k))[0].includes('%{smart_count}'));
    expect(missing).toEqual([]);
  });

  it('plural texts read correctly at run time through ra-i18n-polyglot', () => {
    const i18n = polyglotI18nProvider(() => raZhHk, 'zh-hk');
    expect(i18n.translate('ra.action.bulk_actions', { smart_count: 5 })).toBe('已選取 5 項');
    expect(i18n.translate('ra.action.bulk_actions', { smart_count: 1 })).toBe('已選取 1 項');
    expect(i18n.translate('ra.notification.deleted', { smart_count: 3 })).toContain('3');
    const bulkUpdate = i18n.translate('ra.message.bulk_update_content', { smart_count: 4, name: '問卷' });
    expect(bulkUpdate).toContain('4');
    expect(bulkUpdate).not.toContain('%{');
    expect(i18n.translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 10, total: 42 })).toBe(
      '1-10，共 42 項',
    );
  });

  it('is written in Chinese', () => {
    for (const key of [
      'ra.action.save',
      'ra.action.delete',
      'ra.action.search',
      'ra.action.export',
      'ra.navigation.no_results',
      'ra.auth.sign_in',
      'ra.validation.required',
    ]) {
      expect(zhText(key), key).toMatch(CJK);
    }
    expect(zhText('ra.action.save')).toBe('儲存');
    expect(zhText('ra.action.search')).toBe('搜尋');
    expect(zhText('ra.action.export')).toBe('匯出');
  });

  it('uses no Simplified-only characters', () => {
    expect([...zh].filter(([, v]) => SIMPLIFIED.test(String(v))).map(([k, v]) => `${k}: ${v}`)).toEqual([]);
  });
});

describe("react-admin's own field checks", () => {
  it('say what the server says for the same rule, in both languages', async () => {
    const { default: zhHk } = await import('../../src/client/i18n/zh-hk');
    const { default: enAll } = await import('../../src/client/i18n/en');
    const { fieldMessage } = await import('../../src/shared/field-messages');
    for (const [lang, messages] of [['zh-hk', zhHk], ['en', enAll]] as const) {
      const t = polyglotI18nProvider(() => messages, lang).translate;
      expect(t('ra.validation.required')).toBe(fieldMessage('required', lang));
      expect(t('ra.validation.maxLength', { max: 30 })).toBe(fieldMessage('maxLength', lang, { limit: 30 }));
      expect(t('ra.validation.minLength', { min: 2 })).toBe(fieldMessage('minLength', lang, { limit: 2 }));
      expect(t('ra.validation.minValue', { min: 1 })).toBe(fieldMessage('minimum', lang, { limit: 1 }));
      expect(t('ra.validation.maxValue', { max: 9 })).toBe(fieldMessage('maximum', lang, { limit: 9 }));
    }
  });
});
