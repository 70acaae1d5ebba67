import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { App } from './App';

let router: ReturnType<typeof createBrowserRouter> | null = null;

/**
 * The whole app under /qe/, in a data router: react-admin's forms need one to warn about unsaved
 * changes (warnWhenUnsavedChanges). main.tsx loads this file (and with it react-admin and MUI)
 * with a dynamic import, only when a page needs the app; it starts at the browser's current path.
 */
export function AppRouter() {
  router ??= createBrowserRouter([{ path: '*', element: <App /> }], { basename: '/qe' });
  return <RouterProvider router={router} />;
}
