/** The order of the menus: the step between their sort values, and their numbering after a move. */
import type { MenuNode } from '../api';

export const SORT_STEP = 10;

/** The menus in a new order, numbered again 10, 20, 30…: what update-sort saves. */
export function renumber(menus: MenuNode[]): MenuNode[] {
  return menus.map((m, i) => ({ ...m, sort: (i + 1) * SORT_STEP }));
}
