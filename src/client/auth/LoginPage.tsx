import { useEffect } from 'react';
import { Box, Typography } from '@mui/material';
import SchoolIcon from '@mui/icons-material/School';
import { useLocaleState, useTranslate } from 'react-admin';
import { Navigate, useNavigate } from 'react-router-dom';
import { getToken } from '../providers/session';
import { request } from '../providers/http';
import { STORAGE_PATH } from '../layout/SchoolBrand';
import { CenteredCard } from './CenteredCard';
import { LoginForm } from './LoginForm';
import { useSchoolInfo } from './useSchoolInfo';
import { LanguageSwitch } from '../layout/TopBarItems';

/** School name and logo above the form. */
function SchoolHeader() {
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const { data: school } = useSchoolInfo();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2 }}>
      {school?.schoolLogo ? <img src={`${STORAGE_PATH}${school.schoolLogo}`} alt="" width={40} height={40} style={{ objectFit: 'contain' }} data-testid="login-school-logo" /> : <SchoolIcon color="primary" fontSize="large" />}
      <Box>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="login-school-name">
          {school ? (locale === 'en' ? school.nameEn : school.nameHk) : ''}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('qe.app.title')}
        </Typography>
      </Box>
    </Box>
  );
}

/** /login. A logged-in user is sent to /; before first run, to /init. */
export function LoginPage({ chromeless = false }: { chromeless?: boolean }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  useEffect(() => {
    request<{ initialised: boolean }>('/v1/init', { ignoreErr: true })
      .then(({ initialised }) => !initialised && navigate('/init', { replace: true }))
      .catch(() => undefined);
  }, [navigate]);
  if (getToken()) return <Navigate to="/" replace />;
  return (
    <CenteredCard
      title={translate('qe.login.title')}
      header={
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start' }}>
          <SchoolHeader />
          {!chromeless && (
            <Box sx={{ color: 'text.secondary' }}>
              <LanguageSwitch />
            </Box>
          )}
        </Box>
      }
    >
      <LoginForm />
    </CenteredCard>
  );
}
