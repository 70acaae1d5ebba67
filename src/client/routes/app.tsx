import { Dashboard } from '../dashboard/Dashboard';
import { ChangePasswordPage } from '../auth/ChangePasswordPage';
import type { QeRoute } from './types';

/** Screens of the main layout outside the sidebar groups (/google-callback is public and without the layout: App.tsx). */
export const appRoutes: QeRoute[] = [
  { path: '/dashboard', name: 'dashboard', permission: '*', element: <Dashboard /> },
  { path: '/change-psw', name: 'changePsw', permission: '*', hidden: true, element: <ChangePasswordPage /> },
];
