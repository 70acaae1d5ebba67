import { Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { formatDateTime } from '../common/schoolClock';

/** "Ends 2026-11-30 17:00" on the school's clock, or that there is no end date. */
export function EndDate({ endDate }: { endDate: string | null }) {
  const translate = useTranslate();
  return (
    <Typography variant="body2" color="text.secondary" data-testid="end-date">
      {endDate ? translate('qe.dashboard.ends', { date: formatDateTime(endDate) }) : translate('qe.dashboard.noEnd')}
    </Typography>
  );
}
