import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  DEFAULT_ROLES,
  DEFAULT_ROLE_PERMISSIONS,
  PAGES,
  USER_TYPES,
  hasPermission,
  permissionCodes,
  type PermissionEntry,
} from '../../src/shared/permissions.js';
import appEn from '../../src/shared/i18n/app-en.js';
import appZhHk from '../../src/shared/i18n/app-zh-hk.js';
import { DEFAULT_GRANTS } from '../support/default-grants.js';
import { flatten } from '../support/messages.js';

const entry = (code: string, actions: string[], selection: string): PermissionEntry => ({
  code,
  actions: actions.map((a) => ({ code: a })),
  permission_content: actions.map(() => '1').join(''),
  permission_selection: selection,
  permission_mark_cn: actions.join(','),
  permission_mark_en: actions.join(','),
});

const entries: PermissionEntry[] = [
  entry('form', ['view', 'add', 'edit'], '101'),
  entry('teacher-group', ['view', 'export'], '01'),
  entry('help', ['view'], '0'),
];

describe('hasPermission', () => {
  it('grants an action marked selected for its page', () => {
    expect(hasPermission(entries, 'form.view')).toBe(true);
    expect(hasPermission(entries, 'form.edit')).toBe(true);
    expect(hasPermission(entries, 'teacher-group.export')).toBe(true);
  });

  it('refuses an action the page offers but that is not selected', () => {
    expect(hasPermission(entries, 'form.add')).toBe(false);
    expect(hasPermission(entries, 'teacher-group.view')).toBe(false);
    expect(hasPermission(entries, 'help.view')).toBe(false);
  });

  it('refuses an action the page does not offer, and a page not in the list', () => {
    expect(hasPermission(entries, 'form.delete')).toBe(false);
    expect(hasPermission(entries, 'student.view')).toBe(false);
  });

  it('does not confuse pages whose codes share a prefix', () => {
    expect(hasPermission(entries, 'teacher.export')).toBe(false);
  });

  it('grants * to any logged-in user, even one with no list yet', () => {
    expect(hasPermission(entries, '*')).toBe(true);
    expect(hasPermission([], '*')).toBe(true);
    expect(hasPermission(undefined, '*')).toBe(true);
  });

  it('refuses everything else without a list', () => {
    expect(hasPermission(undefined, 'form.view')).toBe(false);
    expect(hasPermission([], 'form.view')).toBe(false);
  });
});

describe('permissionCodes', () => {
  it('flattens the selected actions to page.action codes', () => {
    expect(permissionCodes(entries)).toEqual(['form.view', 'form.edit', 'teacher-group.export']);
  });

  it('agrees with hasPermission for every code', () => {
    for (const code of permissionCodes(entries)) expect(hasPermission(entries, code)).toBe(true);
  });
});

describe('the permission model', () => {
  const allCodes = new Set(PAGES.flatMap((p) => p.actions.map((a) => `${p.code}.${a}`)));

  it('has the spec §6 page codes', () => {
    expect(PAGES.map((p) => p.code)).toEqual(expect.arrayContaining([
      'form', 'form-input', 'menu', 'role', 'data-statistics', 'school-year', 'grades', 'admin', 'teacher', 'student',
      'mail', 'position', 'teacher-group', 'help', 'google-account',
    ]));
  });

  it('gives pages and actions unique codes, each page action from the action catalogue', () => {
    expect(new Set(PAGES.map((p) => p.code)).size).toBe(PAGES.length);
    expect(new Set(ACTIONS.map((a) => a.code)).size).toBe(ACTIONS.length);
    const known = new Set(ACTIONS.map((a) => a.code));
    for (const page of PAGES) {
      expect(new Set(page.actions).size, page.code).toBe(page.actions.length);
      for (const a of page.actions) expect(known.has(a), `${page.code}.${a}`).toBe(true);
    }
  });

  it('keeps permission groups within 201 to 206', () => {
    for (const a of ACTIONS) {
      expect(a.group).toBeGreaterThanOrEqual(201);
      expect(a.group).toBeLessThanOrEqual(206);
    }
  });

  it('ships a default role for each user type, holding only codes that exist', () => {
    expect(DEFAULT_ROLES.map((r) => r.userType).sort()).toEqual([...USER_TYPES].sort());
    for (const type of USER_TYPES) {
      for (const code of DEFAULT_ROLE_PERMISSIONS[type]) expect(allCodes.has(code), `${type}: ${code}`).toBe(true);
      expect(new Set(DEFAULT_ROLE_PERMISSIONS[type]).size).toBe(DEFAULT_ROLE_PERMISSIONS[type].length);
    }
  });

  it('gives the super administrator everything', () => {
    expect(new Set(DEFAULT_ROLE_PERMISSIONS.SUPER_ADMIN)).toEqual(allCodes);
  });

  it.each(USER_TYPES)('gives the %s role the grants of the role table, written out in tests/support/default-grants.ts', (type) => {
    expect([...DEFAULT_ROLE_PERMISSIONS[type]].sort()).toEqual(DEFAULT_GRANTS[type]);
  });

  it('nests the default roles: student within teacher within admin within super admin', () => {
    const within = (a: string[], b: string[]) => a.every((c) => b.includes(c));
    expect(within(DEFAULT_ROLE_PERMISSIONS.STUDENT, DEFAULT_ROLE_PERMISSIONS.TEACHER)).toBe(true);
    expect(within(DEFAULT_ROLE_PERMISSIONS.TEACHER, DEFAULT_ROLE_PERMISSIONS.ADMIN)).toBe(true);
    expect(within(DEFAULT_ROLE_PERMISSIONS.ADMIN, DEFAULT_ROLE_PERMISSIONS.SUPER_ADMIN)).toBe(true);
  });

  it('keeps the developer area (menus) out of the admin, teacher and student roles', () => {
    for (const type of ['ADMIN', 'TEACHER', 'STUDENT'] as const) {
      expect(DEFAULT_ROLE_PERMISSIONS[type].filter((c) => c.startsWith('menu.'))).toEqual([]);
    }
  });
});

describe('the names of the permission model', () => {
  const catalogue = { hk: flatten(appZhHk), en: flatten(appEn) };
  /** The names the message files give a key, as the database keeps them. */
  const named = (key: string) => ({ nameHk: catalogue.hk.get(key), nameEn: catalogue.en.get(key) });
  const wellNamed = (names: { nameHk: string; nameEn: string }) => names.nameHk.trim() !== '' && names.nameEn.trim() !== '' && names.nameHk !== names.nameEn;

  it('names every action in both languages from the message files (qe.permissions.actions.<code>)', () => {
    for (const a of ACTIONS) {
      expect({ nameHk: a.nameHk, nameEn: a.nameEn }, a.code).toEqual(named(`qe.permissions.actions.${a.code}`));
      expect(wellNamed(a), a.code).toBe(true);
    }
    expect([...catalogue.en.keys()].filter((k) => k.startsWith('qe.permissions.actions.')).sort()).toEqual(ACTIONS.map((a) => `qe.permissions.actions.${a.code}`).sort());
  });

  it('names every page in both languages from the message files (qe.permissions.pages.<code>), the master-data pages of the schemas too', () => {
    for (const p of PAGES) {
      expect({ nameHk: p.nameHk, nameEn: p.nameEn }, p.code).toEqual(named(`qe.permissions.pages.${p.code}`));
      expect(wellNamed(p), p.code).toBe(true);
    }
    expect([...catalogue.en.keys()].filter((k) => k.startsWith('qe.permissions.pages.')).sort()).toEqual(PAGES.map((p) => `qe.permissions.pages.${p.code}`).sort());
  });

  it('names the default roles as their user types (qe.userType.<userType>)', () => {
    for (const r of DEFAULT_ROLES) expect({ nameHk: r.nameHk, nameEn: r.nameEn }, r.userType).toEqual(named(`qe.userType.${r.userType}`));
    expect(DEFAULT_ROLES.find((r) => r.userType === 'SUPER_ADMIN')).toMatchObject({ nameHk: '超級管理員', nameEn: 'Super administrator' });
  });

  it('calls the upload and download actions by their names, without the letters of the old product', () => {
    expect(ACTIONS.filter((a) => a.code === 'upload' || a.code === 'download').map((a) => [a.nameHk, a.nameEn])).toEqual([
      ['上載', 'Upload'],
      ['下載', 'Download'],
    ]);
  });
});
