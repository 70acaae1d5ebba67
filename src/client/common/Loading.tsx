import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';

/**
 * A screen still loading: a named progress indicator and the word, announced politely. react-admin's
 * own Loading drew an unnamed progressbar and an h5 "loading" heading (axe: aria-progressbar-name,
 * heading-order) that a slow phone shows long enough to be read.
 */
export function Loading() {
  const translate = useTranslate();
  return (
    <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, py: 6 }}>
      <CircularProgress aria-label={translate('qe.app.loading')} />
      <Typography sx={{ color: 'text.secondary' }}>{translate('qe.app.loading')}</Typography>
    </Box>
  );
}
