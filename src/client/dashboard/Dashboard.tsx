import { Box, Card, CardActionArea, CardContent, Grid, Typography } from '@mui/material';
import { Title, useGetIdentity, useLocaleState, usePermissions } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { Link } from 'react-router-dom';
import type { PermissionEntry } from '../../shared/permissions';
import type { UserInfo } from '../providers/authProvider';
import { formatDateTime } from '../common/schoolClock';
import { keptGroups } from '../routes/groups';
import { DashboardCards } from './DashboardCards';
import { composedKey } from '../../shared/i18n/keys';

/** Home: who I am, the current school year and term, what I should do next (the role cards), and the areas I may open. */
export function Dashboard() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { identity } = useGetIdentity();
  const { permissions } = usePermissions<PermissionEntry[]>();
  const user = identity as unknown as UserInfo | undefined;
  if (!user) return null;
  const name = locale === 'en' ? user.nameEn : user.nameHk;
  const groups = keptGroups(permissions ?? []);
  const term = user.currentTerm ? (locale === 'en' ? user.currentTerm.nameEn : user.currentTerm.nameHk) : null;
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('qe.menu.dashboard')} />
      <Card>
        <CardContent>
          <Typography variant="h5" component="h1" data-testid="welcome">
            {translate('qe.dashboard.welcome', { name })}
          </Typography>
          <Typography color="text.secondary">
            {translate('qe.dashboard.role')}: {translate(`qe.userType.${user.userType}`)}
          </Typography>
          <Typography color="text.secondary">
            {user.currentYear
              ? `${translate('qe.dashboard.schoolYear')}: ${user.currentYear.name}${term ? ` · ${translate('qe.dashboard.term')}: ${term}` : ''}`
              : translate('qe.dashboard.noSchoolYear')}
          </Typography>
          <Typography color="text.secondary">
            {user.lastLogin ? `${translate('qe.dashboard.lastLogin')}: ${formatDateTime(user.lastLogin)}` : translate('qe.dashboard.firstLogin')}
          </Typography>
        </CardContent>
      </Card>
      <Box sx={{ mt: 2 }}>
        <DashboardCards user={user} />
      </Box>
      {groups.length > 0 && (
        <>
          <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
            {translate('qe.dashboard.shortcuts')}
          </Typography>
          <Grid container spacing={2}>
            {groups.map((g) => {
              const first = g.children.find((c) => !c.hidden);
              if (!first) return null;
              const Icon = g.icon;
              return (
                <Grid key={g.name} size={{ xs: 12, sm: 6, md: 4 }}>
                  <Card>
                    <CardActionArea component={Link} to={first.path} data-testid={`shortcut-${g.name}`}>
                      <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
                        <Icon />
                        <Typography>{translate(composedKey(`qe.menu.${g.name}`))}</Typography>
                      </CardContent>
                    </CardActionArea>
                  </Card>
                </Grid>
              );
            })}
          </Grid>
        </>
      )}
    </Box>
  );
}
