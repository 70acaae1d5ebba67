import { Avatar, Box, Typography } from '@mui/material';
import SchoolIcon from '@mui/icons-material/School';
import { useLocaleState, useTranslate } from 'react-admin';
import { useSchoolInfo } from '../auth/useSchoolInfo';

/** Where uploaded files (the school logo) are served from: the remote storage path of spec §1. */
export const STORAGE_PATH = '/qe/storage/';

/** School logo and name in the current language (spec §1). */
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
      <Typography variant="h6" component="span" noWrap data-testid="school-name" sx={{ fontSize: { xs: 15, sm: 18 } }}>
        {name}
      </Typography>
    </Box>
  );
}
