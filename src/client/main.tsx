import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { autoLoginFromUrl } from './auth/autoLogin';
import { entryRedirect } from './auth/entryRedirect';
import { getToken } from './providers/session';

if (!autoLoginFromUrl()) {
  const to = entryRedirect(window.location.pathname.replace(/^\/qe/, ''), window.location.search, Boolean(getToken()));
  if (to) window.history.replaceState(null, '', `/qe${to}`);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter basename="/qe">
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
}
