import { useCanAccess } from 'react-admin';
import type { EntityMeta } from '../../shared/master/entity';
import { PAGES } from '../../shared/permissions';

export type MasterAction = 'add' | 'edit' | 'delete' | 'import' | 'export';

/** Whether the entity's page offers an action at all (PAGES: positions have no import, school years no export…). */
export function pageOffers(meta: EntityMeta, action: string): boolean {
  return PAGES.find((p) => p.code === meta.permission)?.actions.includes(action) ?? false;
}

/**
 * One action of the entity's page, for the logged-in user: offered by the page and held
 * (authProvider.canAccess checks `${meta.permission}.${action}`, never the API resource name).
 * False while the answer is pending, so a button never flashes up.
 */
export function useMayDo(meta: EntityMeta, action: MasterAction): boolean {
  const { canAccess, isPending } = useCanAccess({ resource: meta.permission, action });
  return pageOffers(meta, action) && !isPending && canAccess === true;
}
