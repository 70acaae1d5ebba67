import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A list's empty state: one line saying there is nothing (a list may name what it lacks). */
export function NoData({ textKey = 'qe.common.noData' }: { textKey?: string }) {
  const translate = useTranslate();
  return (
    <Typography sx={{ p: 2, color: 'text.secondary' }} data-testid="no-data">
      {translate(textKey)}
    </Typography>
  );
}
