import { Admin, CustomRoutes } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import type { PermissionEntry } from '../shared/permissions';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { i18nProvider } from './providers/i18nProvider';
import { store } from './providers/store';
import { QeLayout } from './layout/QeLayout';
import { QeNotification } from './layout/QeNotification';
import { theme } from './layout/theme';
import { LoginPage } from './auth/LoginPage';
import { InitPage } from './auth/InitPage';
import { QuickLoginPage } from './auth/QuickLoginPage';
import { SignInCallbackPage } from './auth/SignInCallbackPage';
import { NotFoundPage } from './common/NotFoundPage';
import { TutorialPage } from './common/TutorialPage';
import { GoogleCallbackPage } from './google/GoogleCallbackPage';
import { keptAppRoutes, keptGroups } from './routes';

const ToNotFound = () => <Navigate to="/404" replace />;

/** QE's client: react-admin under /qe/ with the route table of routes/ (docs/product-rules.md#screens-and-routes), filtered by the user's permissions. */
export function App() {
  return (
    <Admin
      title="QE"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      theme={theme}
      layout={QeLayout}
      notification={QeNotification}
      loginPage={LoginPage}
      catchAll={ToNotFound}
      store={store}
      requireAuth
      disableTelemetry
    >
      <CustomRoutes noLayout>
        <Route path="/init" element={<InitPage />} />
        <Route path="/404" element={<NotFoundPage />} />
        <Route path="/tutorial" element={<TutorialPage />} />
        <Route path="/google-callback" element={<GoogleCallbackPage />} />
        <Route path="/app/login" element={<LoginPage chromeless />} />
        <Route path="/app/quick" element={<QuickLoginPage />} />
        <Route path="/sign-in-callback" element={<SignInCallbackPage />} />
      </CustomRoutes>
      {(permissions: PermissionEntry[]) => {
        const groups = keptGroups(permissions ?? []);
        return (
          <CustomRoutes>
            <Route path="/" element={<Navigate to="/dashboard" replace />} />
            {keptAppRoutes(permissions ?? []).map((r) => (
              <Route key={r.path} path={r.path} element={r.element} />
            ))}
            {groups.map((g) => (
              <Route key={g.path} path={g.path} element={<Navigate to={(g.children.find((c) => !c.hidden) ?? g.children[0]).path} replace />} />
            ))}
            {groups.flatMap((g) => g.children.map((r) => <Route key={r.path} path={r.path} element={r.element} />))}
          </CustomRoutes>
        );
      }}
    </Admin>
  );
}
