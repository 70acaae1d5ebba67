import { Dashboard } from '../dashboard/Dashboard';
import { ChangePasswordPage } from '../auth/ChangePasswordPage';
import { PlaceholderPage } from '../common/PlaceholderPage';
import type { QeRoute } from './types';

/** Screens of the main layout outside the sidebar groups. */
export const appRoutes: QeRoute[] = [
  { path: '/dashboard', name: 'dashboard', permission: '*', element: <Dashboard /> },
  { path: '/change-psw', name: 'changePsw', permission: '*', hidden: true, element: <ChangePasswordPage /> },
  {
    path: '/google-callback',
    name: 'googleCallback',
    permission: '*',
    hidden: true,
    element: <PlaceholderPage titleKey="qe.menu.googleCallback" area="qe.placeholder.areaDeveloper" />,
  },
];
