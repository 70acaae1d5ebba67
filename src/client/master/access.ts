import { useCanAccess } from 'react-admin';
import type { EntityMeta } from '../../shared/master/entity';
import { PAGES } from '../../shared/permissions';

export type MasterAction = 'add' | 'edit' | 'delete' | 'import' | 'export';

/** Whether a page offers an action at all (PAGES: positions have no import, school years no export…). */
export function pageOffersAction(page: string, action: string): boolean {
  return PAGES.find((p) => p.code === page)?.actions.includes(action) ?? false;
}

/**
 * One action of a page (`page.action`) for the logged-in user: offered by the page and held
 * (authProvider.canAccess). False while the answer is pending, so a button never flashes up.
 */
export function useHolds(page: string, action: string, offered = pageOffersAction(page, action)): boolean {
  const { canAccess, isPending } = useCanAccess({ resource: page, action });
  return offered && !isPending && canAccess === true;
}

/**
 * One action of the entity's page, for the logged-in user (authProvider.canAccess checks
 * `${meta.permission}.${action}`, never the API resource name).
 */
export function useMayDo(meta: EntityMeta, action: MasterAction): boolean {
  // the entity's own page as its schema gives it (x-qe.page), whether or not PAGES lists it
  return useHolds(meta.permission, action, meta.page.actions.includes(action));
}
