import BuildIcon from '@mui/icons-material/Build';
import { PlaceholderPage } from '../common/PlaceholderPage';
import type { QeRouteGroup } from './types';

const area = 'qe.placeholder.areaDeveloper';
const page = (name: string) => <PlaceholderPage titleKey={`qe.menu.${name}`} area={area} />;

/** Developer tools: menus and actions, roles and their permissions. */
export const developerRoutes: QeRouteGroup = {
  name: 'developer',
  path: '/developer',
  redirect: '/developer/menu',
  icon: BuildIcon,
  children: [
    { path: '/developer/menu', name: 'developerMenu', permission: 'menu.view', element: page('developerMenu') },
    { path: '/developer/role/list', name: 'roleList', permission: 'role.view', element: page('roleList') },
    { path: '/developer/role/view', name: 'roleView', permission: 'role.view', hidden: true, activeMenu: '/developer/role/list', screen: 'view', element: page('roleView') },
    { path: '/developer/role/permission', name: 'rolePermission', permission: 'role.view', hidden: true, activeMenu: '/developer/role/list', element: page('rolePermission') },
    { path: '/developer/role/add', name: 'roleAdd', permission: 'role.add', hidden: true, activeMenu: '/developer/role/list', screen: 'add', element: page('roleAdd') },
    { path: '/developer/role/edit', name: 'roleEdit', permission: 'role.edit', hidden: true, activeMenu: '/developer/role/list', screen: 'edit', element: page('roleEdit') },
  ],
};
