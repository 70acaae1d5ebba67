import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useCanAccess } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { StatisticsFilter } from '../../../shared/statistics/types';
import type { Lang } from '../../../shared/i18n/text';
import { download, today } from '../../master/download';
import { filterQuery } from '../api';

/** What a file name may not hold on the common systems. */
const fileName = (title: string) => title.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'statistics';

/** data-statistics.export, false while the answer is pending so the button never flashes up. */
export function useMayStatistics(action: 'export' | 'print'): boolean {
  const { canAccess, isPending } = useCanAccess({ resource: 'data-statistics', action });
  return !isPending && canAccess === true;
}

/**
 * 'Export Excel' (GET /v1/statistics/{id}/export under the detail's filter): the summary and the
 * raw answers as <title>-<today>.xlsx, in `language` when one is chosen (ExportLanguage), else in
 * the interface's. Shown with data-statistics.export only; a failure is shown by the HTTP client
 * (719 in the download-errors dialog). `comparison`: the comparison across years instead
 * (GET /v1/statistics/{id}/comparison/export), from its tab.
 */
export function ExportButton({ id, title, filter, language, comparison }: { id: number; title: string; filter: StatisticsFilter; language?: Lang; comparison?: boolean }) {
  const translate = useTranslate();
  const may = useMayStatistics('export');
  const [busy, setBusy] = useState(false);
  if (!may) return null;
  const run = async () => {
    setBusy(true);
    try {
      const [path, name] = comparison ? [`/v1/statistics/${id}/comparison/export`, `${fileName(title)}-${translate('qe.statistics.tabs.years')}`] : [`/v1/statistics/${id}/export`, fileName(title)];
      await download(path, `${name}-${today()}.xlsx`, { ...filterQuery(filter), language });
    } catch {
      // already on screen (toast or download-errors dialog)
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" size="small" onClick={run} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : <DownloadIcon />} data-testid={comparison ? 'comparison-export' : 'statistics-export'}>
      {translate('qe.statistics.export')}
    </Button>
  );
}
