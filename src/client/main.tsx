import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { autoLoginFromUrl } from './auth/autoLogin';
import { entryRedirect } from './auth/entryRedirect';
import { PublicApp, publicScreenOf } from './auth/PublicApp';
import { getToken } from './providers/session';

/*
 * The first script of every page load. It holds no react-admin and no MUI (about 80 % of the
 * app's code): the login page and the reminder mail's quick login are drawn by auth/PublicApp.tsx
 * in plain React, so that a phone on a slow network can log in after a small download
 * (tests/e2e/delivery.test.ts). Any other path, and a login that succeeded, load the app
 * (AppRouter.tsx) with a dynamic import; its chunks are cached for good (hashed names).
 */
if (!autoLoginFromUrl()) {
  const path = () => window.location.pathname.replace(/^\/qe/, '') || '/';
  const to = entryRedirect(path(), window.location.search, Boolean(getToken()));
  if (to) window.history.replaceState(null, '', `/qe${to}`);
  // /login with a session leads home, as the app's login page does
  else if (getToken() && (path() === '/login' || path() === '/app/login')) window.history.replaceState(null, '', '/qe/');

  const root = createRoot(document.getElementById('root')!);
  let app: ReturnType<typeof loadApp> | null = null;
  function loadApp() {
    return import('./AppRouter');
  }
  /** Starts the app's download without showing it (the form was sent; the quick login's next screen). */
  const preloadApp = () => {
    app ??= loadApp();
    app.catch(() => (app = null));
  };
  /** Shows the app at `to` (a path without /qe), or where the browser is. */
  const openApp = async (to?: string) => {
    if (to) window.history.replaceState(null, '', `/qe${to}`);
    try {
      app ??= loadApp();
      const { AppRouter } = await app;
      root.render(
        <StrictMode>
          <AppRouter />
        </StrictMode>,
      );
    } catch (error) {
      // its chunk could not be fetched (the network, or a new version replaced it): a full load fetches it again
      if (to) window.location.reload();
      else throw error;
    }
  };

  const screen = publicScreenOf(path(), Boolean(getToken()));
  if (screen) {
    root.render(
      <StrictMode>
        <PublicApp screen={screen} openApp={openApp} preloadApp={preloadApp} />
      </StrictMode>,
    );
  } else void openApp();
}
