import { Breadcrumbs, Link, Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { findRoute, routeTitleKey } from '../routes';
import { composedKey } from '../../shared/i18n/keys';

/** Home › group › screen (› view/add/edit for the shared master screens). */
export function Breadcrumb() {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const found = findRoute(pathname);
  if (!found || found.route.name === 'dashboard') return null;
  const { route, group } = found;
  const parent = route.activeMenu ? findRoute(route.activeMenu)?.route : undefined;
  const crumbs: { label: string; to?: string }[] = [];
  if (group) crumbs.push({ label: translate(composedKey(`qe.menu.${group.name}`)) });
  if (parent && parent.path !== route.path) crumbs.push({ label: translate(routeTitleKey(parent)), to: parent.path });
  const title = translate(routeTitleKey(route));
  crumbs.push({ label: route.titleKey && route.screen && route.screen !== 'list' ? `${translate(`qe.screen.${route.screen}`)}` : title });
  return (
    <Breadcrumbs aria-label={translate('qe.nav.breadcrumb')} sx={{ mt: 1.5, mb: 0.5, fontSize: 14 }} data-testid="breadcrumb">
      <Link component={RouterLink} to="/dashboard" underline="hover" color="inherit">
        {translate('qe.menu.dashboard')}
      </Link>
      {crumbs.map((c, i) =>
        c.to ? (
          <Link key={i} component={RouterLink} to={c.to} underline="hover" color="inherit">
            {c.label}
          </Link>
        ) : (
          <Typography key={i} sx={{ color: i === crumbs.length - 1 ? 'text.primary' : 'inherit', fontSize: 'inherit' }}>
            {c.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}
