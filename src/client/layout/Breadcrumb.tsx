import { Box, Breadcrumbs, Link, Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { VISUALLY_HIDDEN } from '../common/visuallyHidden';
import { findRoute, routeTitleKey } from '../routes';
import { composedKey } from '../../shared/i18n/keys';

/**
 * Home › group › screen (› view/add/edit for the shared master screens). Its last step, the
 * screen's name, is the screen's level-one heading (WCAG 1.3.1, 2.4.6), unless the screen names
 * itself in a heading of its own (route.ownHeading).
 */
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
  const step = route.titleKey && route.screen && route.screen !== 'list' ? route.screen : undefined;
  crumbs.push({ label: step ? translate(`qe.screen.${step}`) : title });
  // a view/add/edit step ("Edit") names the screen only after its list's name: the heading says both
  const named = step && parent ? translate(routeTitleKey(parent)) : undefined;
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
          <Typography
            key={i}
            component={i === crumbs.length - 1 && !route.ownHeading ? 'h1' : 'p'}
            data-testid={i === crumbs.length - 1 ? 'screen-heading' : undefined}
            sx={{ color: i === crumbs.length - 1 ? 'text.primary' : 'inherit', fontSize: 'inherit', fontWeight: i === crumbs.length - 1 ? 500 : undefined, m: 0 }}
          >
            {i === crumbs.length - 1 && named && (
              <Box component="span" sx={VISUALLY_HIDDEN}>
                {`${named}: `}
              </Box>
            )}
            {c.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}
