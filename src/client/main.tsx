import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { App } from './App';
import { autoLoginFromUrl } from './auth/autoLogin';
import { entryRedirect } from './auth/entryRedirect';
import { getToken } from './providers/session';

if (!autoLoginFromUrl()) {
  const to = entryRedirect(window.location.pathname.replace(/^\/qe/, ''), window.location.search, Boolean(getToken()));
  if (to) window.history.replaceState(null, '', `/qe${to}`);
  // a data router: react-admin's forms need one to warn about unsaved changes (warnWhenUnsavedChanges)
  const router = createBrowserRouter([{ path: '*', element: <App /> }], { basename: '/qe' });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}
