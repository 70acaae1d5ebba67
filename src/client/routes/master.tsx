import StorageIcon from '@mui/icons-material/Storage';
import SchoolIcon from '@mui/icons-material/School';
import { SchoolSettingsScreen } from '../school/SchoolSettingsScreen';
import { NewSchoolYearScreen } from '../school/new-year/NewSchoolYearScreen';
import { NEW_YEAR_PATH, YEARS_LIST_PATH } from '../school/new-year/paths';
import { masterResources } from '../master/generated/resources';
import type { MasterResource } from '../master/resource';
import type { QeRoute, QeRouteGroup } from './types';
import { composedKey } from '../../shared/i18n/keys';

/**
 * The routes of one master entity, from its schema's `x-qe`: path /master/{route}, route names
 * {name}List/View/Add/Edit, permission page {permission}, a cached list where the schema says
 * so, and one screen only for a single entity (the mail setting). Titles are qe.menu.{name}.
 */
function entityRoutes({ meta, icon, List, Screen }: MasterResource): QeRoute[] {
  const base = `/master/${meta.route}`;
  const titleKey = composedKey(`qe.menu.${meta.name}`);
  const page = meta.permission;
  if (meta.single) return [{ path: base, name: meta.name, permission: `${page}.view`, titleKey, icon, element: <List /> }];
  const list = `${base}/list`;
  return [
    { path: list, name: `${meta.name}List`, permission: `${page}.view`, cached: meta.cached, titleKey, screen: 'list', icon, element: <List /> },
    { path: `${base}/view`, name: `${meta.name}View`, permission: `${page}.view`, hidden: true, activeMenu: list, titleKey, screen: 'view', element: <Screen type="view" /> },
    { path: `${base}/add`, name: `${meta.name}Add`, permission: `${page}.add`, hidden: true, activeMenu: list, titleKey, screen: 'add', element: <Screen type="add" /> },
    { path: `${base}/edit`, name: `${meta.name}Edit`, permission: `${page}.edit`, hidden: true, activeMenu: list, titleKey, screen: 'edit', element: <Screen type="edit" /> },
  ];
}

/** The menu order of the master-data entities: their schemas' x-qe.menuOrder, lower first; one without follows. */
const rank = (r: MasterResource) => r.meta.menuOrder ?? Number.MAX_SAFE_INTEGER;

/**
 * Master data (base /master, group titled master); view, add and edit share one screen per
 * entity. The entities come from the generated resources (schemas/).
 */
export const masterRoutes: QeRouteGroup = {
  name: 'master',
  path: '/master',
  redirect: '/master/years/list',
  icon: StorageIcon,
  children: [
    ...[...masterResources].sort((a, b) => rank(a) - rank(b)).flatMap(entityRoutes),
    // the new school year: the roll-over wizard of the school-year list
    { path: NEW_YEAR_PATH, name: 'newSchoolYear', permission: 'school-year.management', hidden: true, activeMenu: YEARS_LIST_PATH, titleKey: 'qe.newYear.title', ownHeading: true, element: <NewSchoolYearScreen /> },
    // the school settings: one record, not a schema entity (logo upload, language list)
    { path: '/master/school', name: 'school', permission: 'school.view', icon: SchoolIcon, element: <SchoolSettingsScreen /> },
  ],
};
