import { useState } from 'react';
import DownloadIcon from '@mui/icons-material/Download';
import { Button, useListContext, useNotify } from 'react-admin';
import type { EntityMeta } from '../../shared/master/entity';
import { download, today } from './download';

/** Downloads GET /v1/{resource}/export as `{resource}-yyyy-MM-dd.xlsx`, with the list's current filters and sort. */
export function ExportButton({ meta }: { meta: EntityMeta }) {
  const { filterValues, sort } = useListContext();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await download(`/v1/${meta.resource}/export`, `${meta.resource}-${today()}.xlsx`, {
        ...filterValues,
        sort: sort?.field,
        order: sort?.order?.toLowerCase(),
      });
      notify('qe.success.exported', { type: 'success' });
    } catch {
      // the HTTP client has shown why
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label="qe.master.export" onClick={onClick} disabled={busy} data-testid="master-export">
      <DownloadIcon />
    </Button>
  );
}
