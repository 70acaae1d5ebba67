import AssignmentIcon from '@mui/icons-material/Assignment';
import { PlaceholderPage } from '../common/PlaceholderPage';
import type { QeRouteGroup } from './types';

const area = 'qe.placeholder.areaForms';
const page = (name: string) => <PlaceholderPage titleKey={`qe.menu.${name}`} area={area} />;

/** Questionnaire design. view, add and edit share one screen. */
export const formRoutes: QeRouteGroup = {
  name: 'form',
  path: '/forms',
  redirect: '/forms/list',
  icon: AssignmentIcon,
  children: [
    { path: '/forms/list', name: 'formsList', permission: 'form.view', element: page('formsList') },
    { path: '/forms/view', name: 'formsView', permission: 'form.view', hidden: true, activeMenu: '/forms/list', screen: 'view', element: page('formsView') },
    { path: '/forms/add', name: 'formsAdd', permission: 'form.add', hidden: true, activeMenu: '/forms/list', screen: 'add', element: page('formsAdd') },
    { path: '/forms/edit', name: 'formsEdit', permission: 'form.edit', hidden: true, activeMenu: '/forms/list', screen: 'edit', element: page('formsEdit') },
    { path: '/forms/doc', name: 'formsDoc', permission: 'form.edit', hidden: true, activeMenu: '/forms/list', element: page('formsDoc') },
  ],
};
