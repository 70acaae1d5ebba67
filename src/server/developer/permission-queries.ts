import { ACTIONS, type PermissionEntry } from '../../shared/permissions.js';
import type { DB } from '../db/connect.js';

/** The `page.action` codes a set of roles gives together. */
export async function rolePermissionCodes(db: DB, roleIds: number[], system = 'QE'): Promise<Set<string>> {
  if (!roleIds.length) return new Set();
  const rows = await db
    .selectFrom('role_actions as ra')
    .innerJoin('actions as a', 'a.id', 'ra.action_id')
    .innerJoin('menus as m', 'm.id', 'a.menu_id')
    .where('ra.role_id', 'in', roleIds)
    .where('m.system', '=', system)
    .select(['m.code as page', 'a.code as action'])
    .distinct()
    .execute();
  return new Set(rows.map((r) => `${r.page}.${r.action}`));
}

/** One action of one page of the catalogue, in the permission grid's order. */
export interface CatalogueRow {
  page: string;
  action: string;
  name_hk: string;
  name_en: string;
}

/** Every page of a system with its actions, in order: what permission entries are made of. */
export async function permissionCatalogue(db: DB, system = 'QE'): Promise<CatalogueRow[]> {
  return db
    .selectFrom('menus as m')
    .innerJoin('actions as a', 'a.menu_id', 'm.id')
    .where('m.system', '=', system)
    .select(['m.code as page', 'a.code as action', 'a.name_hk', 'a.name_en'])
    .orderBy('m.sort')
    .orderBy('m.id')
    .orderBy('a.sort')
    .orderBy('a.id')
    .execute();
}

/** Every page of the catalogue with its actions, each marked selected when `held` has it: a PermissionEntry. */
export function permissionEntries(catalogue: CatalogueRow[], held: Set<string>): PermissionEntry[] {
  const byPage = new Map<string, CatalogueRow[]>();
  for (const r of catalogue) {
    const list = byPage.get(r.page) ?? [];
    list.push(r);
    byPage.set(r.page, list);
  }
  return [...byPage.entries()].map(([page, actions]) => ({
    code: page,
    actions: actions.map((a) => ({ code: a.action })),
    permission_content: actions.map(() => '1').join(''),
    permission_selection: actions.map((a) => (held.has(`${page}.${a.action}`) ? '1' : '0')).join(''),
    permission_mark_cn: actions.map((a) => a.name_hk).join(','),
    permission_mark_en: actions.map((a) => a.name_en).join(','),
  }));
}

/** The action catalogue order, so new pages list actions the way the permission grid shows them. */
export const actionSort = (code: string) => ACTIONS.findIndex((a) => a.code === code);
