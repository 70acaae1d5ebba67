import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem } from '@mui/material';
import { useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { subscribe, type Notice } from '../providers/notifier';

export const TOAST_MS = 3000;

/** Shows what the HTTP client reports: toasts for 3000 ms, and the import (706) and download (719) error dialogs. */
export function Notices() {
  const notify = useNotify();
  const translate = useTranslate();
  const [dialog, setDialog] = useState<Extract<Notice, { lines: string[] }> | null>(null);

  useEffect(
    () =>
      subscribe((notice) => {
        if (notice.kind === 'toast') notify(notice.message, { type: notice.type, autoHideDuration: TOAST_MS, translate: false } as never);
        else setDialog(notice);
      }),
    [notify],
  );

  if (!dialog) return null;
  const title = dialog.kind === 'import-errors' ? 'qe.error.importErrors' : 'qe.error.downloadErrors';
  return (
    <Dialog open onClose={() => setDialog(null)} aria-labelledby="qe-error-dialog-title" data-testid={dialog.kind}>
      <DialogTitle id="qe-error-dialog-title">{translate(title)}</DialogTitle>
      <DialogContent dividers sx={{ maxHeight: 320 }}>
        <List dense>
          {dialog.lines.map((line, i) => (
            <ListItem key={i}>{line}</ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setDialog(null)} autoFocus>
          {translate('qe.common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
