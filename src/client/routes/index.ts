import { hasPermission, type PermissionEntry } from '../../shared/permissions';
import { appRoutes } from './app';
import { dataStatisticsRoutes } from './dataStatistics';
import { developerRoutes } from './developer';
import { formRoutes } from './form';
import { masterRoutes } from './master';
import { questionnaireFillingRoutes } from './questionnaireFilling';
import { personalDataRoutes } from './personalData';
import { systemRoutes } from './system';
import type { QeRoute, QeRouteGroup } from './types';

export type { QeRoute, QeRouteGroup } from './types';
export { appRoutes };

/** The groups in the order they load (docs/product-rules.md#screens-and-routes): form, questionnaireFilling, dataStatistics, master, developer. */
export const ROUTE_GROUPS: QeRouteGroup[] = [formRoutes, questionnaireFillingRoutes, dataStatisticsRoutes, masterRoutes, developerRoutes, personalDataRoutes, systemRoutes];

export { PUBLIC_PATHS } from './public';

/** A route is kept only if the user holds its permission (`*`: any logged-in user). */
export const mayOpen = (route: QeRoute, permissions: PermissionEntry[]) => hasPermission(permissions, route.permission);

/** The groups with only the routes a user may open; a group with none left is dropped. */
export function keptGroups(permissions: PermissionEntry[]): QeRouteGroup[] {
  return ROUTE_GROUPS.map((g) => ({ ...g, children: g.children.filter((r) => mayOpen(r, permissions)) })).filter((g) => g.children.length > 0);
}

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

export function routeTitleKey(route: QeRoute): string {
  return route.titleKey ?? `qe.menu.${route.name}`;
}
