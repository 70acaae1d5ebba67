import { hasPermission, type PermissionEntry } from '../../shared/permissions';
import { dataStatisticsRoutes } from './dataStatistics';
import { developerRoutes } from './developer';
import { formRoutes } from './form';
import { masterRoutes } from './master';
import { questionnaireFillingRoutes } from './questionnaireFilling';
import { personalDataRoutes } from './personalData';
import { systemRoutes } from './system';
import type { QeRoute, QeRouteGroup } from './types';

// The menu's groups, apart from the app's own routes (routes/app.tsx): the home screen lists
// the groups a user may open, and the app's routes hold the home screen.

/** The groups in the order they load (docs/product-rules.md#screens-and-routes): form, questionnaireFilling, dataStatistics, master, developer. */
export const ROUTE_GROUPS: QeRouteGroup[] = [formRoutes, questionnaireFillingRoutes, dataStatisticsRoutes, masterRoutes, developerRoutes, personalDataRoutes, systemRoutes];

/** A route is kept only if the user holds its permission (`*`: any logged-in user). */
export const mayOpen = (route: QeRoute, permissions: PermissionEntry[]) => hasPermission(permissions, route.permission);

/** The groups with only the routes a user may open; a group with none left is dropped. */
export function keptGroups(permissions: PermissionEntry[]): QeRouteGroup[] {
  return ROUTE_GROUPS.map((g) => ({ ...g, children: g.children.filter((r) => mayOpen(r, permissions)) })).filter((g) => g.children.length > 0);
}
