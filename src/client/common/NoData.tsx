import { useContext } from 'react';
import { Box, Button, Typography } from '@mui/material';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import { ListContext } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import type { MessageKey } from '../../shared/i18n/keys';

/** Filters that choose what a list is about rather than narrow it: kept when the others are cleared. */
const SCOPE_FILTERS = ['schoolYearId'];

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/**
 * A list's empty state: one line saying there is nothing (a list may name what it lacks). When
 * filters narrow the list — remembered from an earlier visit, or behind a phone's filter button —
 * it says so, with a button that clears them: an empty page alone reads as "there is no data".
 */
export function NoData({ textKey = 'qe.common.noData' }: { textKey?: MessageKey }) {
  const translate = useTranslate();
  const list = useContext(ListContext);
  const filters = (list?.filterValues ?? {}) as Record<string, unknown>;
  const narrowing = Object.entries(filters).some(([name, value]) => !SCOPE_FILTERS.includes(name) && isSet(value));
  if (narrowing && list?.setFilters) {
    const kept = Object.fromEntries(Object.entries(filters).filter(([name]) => SCOPE_FILTERS.includes(name)));
    return (
      <Box sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }} data-testid="no-data">
        <Typography sx={{ color: 'text.secondary' }}>{translate('qe.common.noFilteredData')}</Typography>
        <Button size="small" variant="outlined" startIcon={<FilterAltOffIcon />} onClick={() => list.setFilters(kept, {})} data-testid="clear-filters">
          {translate('qe.common.clearFilters')}
        </Button>
      </Box>
    );
  }
  return (
    <Typography sx={{ p: 2, color: 'text.secondary' }} data-testid="no-data">
      {translate(textKey)}
    </Typography>
  );
}
