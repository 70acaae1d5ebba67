import type { PermissionEntry } from '../../shared/permissions';
import { appRoutes } from './app';
import { mayOpen, ROUTE_GROUPS } from './groups';
import type { QeRoute, QeRouteGroup } from './types';
import { composedKey, type MessageKey } from '../../shared/i18n/keys';

export type { QeRoute, QeRouteGroup } from './types';
export { appRoutes };

export { keptGroups, mayOpen, ROUTE_GROUPS } from './groups';
export { PUBLIC_PATHS } from './public';

export function keptAppRoutes(permissions: PermissionEntry[]): QeRoute[] {
  return appRoutes.filter((r) => mayOpen(r, permissions));
}

/** The route and group of a path, whether the user may open it or not (for breadcrumbs and highlighting). */
export function findRoute(pathname: string): { route: QeRoute; group?: QeRouteGroup } | undefined {
  for (const group of ROUTE_GROUPS) {
    const route = group.children.find((r) => r.path === pathname);
    if (route) return { route, group };
  }
  const route = appRoutes.find((r) => r.path === pathname);
  return route && { route };
}

export function routeTitleKey(route: QeRoute): MessageKey {
  return route.titleKey ?? composedKey(`qe.menu.${route.name}`);
}
