import { Avatar, Box, Typography } from '@mui/material';
import SchoolIcon from '@mui/icons-material/School';
import { useLocaleState } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useSchoolInfo } from '../auth/useSchoolInfo';

/** Where uploaded files (the school logo) are served from: the storage path. */
export const STORAGE_PATH = '/qe/storage/';

/** School logo and name in the current language. */
export function SchoolBrand() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data: school } = useSchoolInfo();
  const name = school ? (locale === 'en' ? school.nameEn : school.nameHk) : translate('qe.app.title');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flex: 1, minWidth: 0 }}>
      {school?.schoolLogo ? (
        <Avatar src={`${STORAGE_PATH}${school.schoolLogo}`} alt="" sx={{ width: 32, height: 32 }} variant="rounded" data-testid="school-logo" />
      ) : (
        <SchoolIcon aria-hidden />
      )}
      {/* wraps to a second line rather than cutting the name short (a school's name is long, a phone narrow); two lines fit the bar */}
      <Typography
        variant="h6"
        component="span"
        title={name}
        data-testid="school-name"
        sx={{ fontSize: { xs: 14, sm: 18 }, lineHeight: 1.25, whiteSpace: 'normal', overflowWrap: 'anywhere', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
      >
        {name}
      </Typography>
    </Box>
  );
}
