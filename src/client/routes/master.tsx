import StorageIcon from '@mui/icons-material/Storage';
import { PlaceholderPage } from '../common/PlaceholderPage';
import type { QeRoute, QeRouteGroup } from './types';

const area = 'qe.placeholder.areaMaster';

/** The master-data entities of the spec: path under /master, menu name, permission page, cached list. */
const ENTITIES: { path: string; name: string; page: string; cached?: boolean; single?: boolean }[] = [
  { path: 'years', name: 'years', page: 'school-year' },
  { path: 'grade-classes', name: 'gradeClasses', page: 'grades' },
  { path: 'admins', name: 'admins', page: 'admin', cached: true },
  { path: 'teachers', name: 'teachers', page: 'teacher', cached: true },
  { path: 'students', name: 'students', page: 'student', cached: true },
  { path: 'mails', name: 'mails', page: 'mail', single: true },
  { path: 'positions', name: 'positions', page: 'position' },
  { path: 'teacher-groups', name: 'teacherGroups', page: 'teacher-group' },
];

function entityRoutes(e: (typeof ENTITIES)[number]): QeRoute[] {
  const base = `/master/${e.path}`;
  const titleKey = `qe.menu.${e.name}`;
  const page = <PlaceholderPage titleKey={titleKey} area={area} />;
  if (e.single) return [{ path: base, name: e.name, permission: `${e.page}.view`, titleKey, element: page }];
  const list = `${base}/list`;
  return [
    { path: list, name: `${e.name}List`, permission: `${e.page}.view`, cached: e.cached, titleKey, screen: 'list', element: page },
    { path: `${base}/view`, name: `${e.name}View`, permission: `${e.page}.view`, hidden: true, activeMenu: list, titleKey, screen: 'view', element: page },
    { path: `${base}/add`, name: `${e.name}Add`, permission: `${e.page}.add`, hidden: true, activeMenu: list, titleKey, screen: 'add', element: page },
    { path: `${base}/edit`, name: `${e.name}Edit`, permission: `${e.page}.edit`, hidden: true, activeMenu: list, titleKey, screen: 'edit', element: page },
  ];
}

/** Master data (base /master, group titled master); view, add and edit share one screen per entity. */
export const masterRoutes: QeRouteGroup = {
  name: 'master',
  path: '/master',
  redirect: '/master/years/list',
  icon: StorageIcon,
  children: ENTITIES.flatMap(entityRoutes),
};
