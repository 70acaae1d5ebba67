import BuildIcon from '@mui/icons-material/Build';
import { MenuScreen } from '../developer/MenuScreen';
import { RoleList } from '../developer/RoleList';
import { RolePermissionScreen } from '../developer/RolePermissionScreen';
import { RoleScreen } from '../developer/RoleScreen';
import type { QeRouteGroup } from './types';

/** Developer tools: menus and actions, roles and their permissions. roleView, roleAdd and roleEdit share one screen. */
export const developerRoutes: QeRouteGroup = {
  name: 'developer',
  path: '/developer',
  redirect: '/developer/menu',
  icon: BuildIcon,
  children: [
    { path: '/developer/menu', name: 'developerMenu', permission: 'menu.view', element: <MenuScreen /> },
    { path: '/developer/role/list', name: 'roleList', permission: 'role.view', element: <RoleList /> },
    { path: '/developer/role/view', name: 'roleView', permission: 'role.view', hidden: true, activeMenu: '/developer/role/list', screen: 'view', element: <RoleScreen key="view" type="view" /> },
    { path: '/developer/role/permission', name: 'rolePermission', permission: 'role.view', hidden: true, activeMenu: '/developer/role/list', ownHeading: true, element: <RolePermissionScreen /> },
    { path: '/developer/role/add', name: 'roleAdd', permission: 'role.add', hidden: true, activeMenu: '/developer/role/list', screen: 'add', element: <RoleScreen key="add" type="add" /> },
    { path: '/developer/role/edit', name: 'roleEdit', permission: 'role.edit', hidden: true, activeMenu: '/developer/role/list', screen: 'edit', element: <RoleScreen key="edit" type="edit" /> },
  ],
};
