import { ACTIONS } from '../../shared/permissions';
import type { MenuAction, MenuNode } from './api';

/** A column of the permission grid: one action code, in the catalogue's group order 201–206. */
export interface GridColumn {
  code: string;
  group: number;
  nameHk: string;
  nameEn: string;
}

/**
 * The grid's columns: the action catalogue (ACTIONS, already in group order 201–206) that some
 * page offers, then any action the developer area added beyond it, by group and code.
 */
export function gridColumns(tree: MenuNode[]): GridColumn[] {
  const offered = new Map<string, MenuAction>();
  for (const menu of tree) for (const a of menu.actions) if (!offered.has(a.code)) offered.set(a.code, a);
  const known = ACTIONS.filter((a) => offered.has(a.code)).map(({ code, group, nameHk, nameEn }) => ({ code, group, nameHk, nameEn }));
  const extra = [...offered.values()]
    .filter((a) => !ACTIONS.some((c) => c.code === a.code))
    .map(({ code, group, nameHk, nameEn }) => ({ code, group, nameHk, nameEn }));
  return [...known, ...extra].sort((a, b) => a.group - b.group || rank(a.code) - rank(b.code) || a.code.localeCompare(b.code));
}

const rank = (code: string) => {
  const i = ACTIONS.findIndex((a) => a.code === code);
  return i < 0 ? ACTIONS.length : i;
};

/** The menus by their sort (then id), as the sidebar and the grid show them. */
export const sortedMenus = (tree: MenuNode[]) => [...tree].sort((a, b) => a.sort - b.sort || a.menuId - b.menuId);

/** The action of a page under a column, if the page offers it. */
export const cellAction = (menu: MenuNode, code: string) => menu.actions.find((a) => a.code === code);

export const rowIds = (menu: MenuNode) => menu.actions.map((a) => a.actionId);
export const columnIds = (tree: MenuNode[], code: string) => tree.flatMap((m) => m.actions.filter((a) => a.code === code).map((a) => a.actionId));
export const allIds = (tree: MenuNode[]) => tree.flatMap(rowIds);

export type Tick = 'all' | 'some' | 'none';

/** How much of a group of actions is selected: a checkbox ticked, indeterminate or empty. */
export function tick(selected: ReadonlySet<number>, ids: number[]): Tick {
  const n = ids.filter((id) => selected.has(id)).length;
  return n === 0 ? 'none' : n === ids.length ? 'all' : 'some';
}

/** Selects the ids when not all of them are (a click on an empty or indeterminate box), else clears them. */
export function toggle(selected: ReadonlySet<number>, ids: number[]): Set<number> {
  const next = new Set(selected);
  const on = tick(selected, ids) !== 'all';
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}
