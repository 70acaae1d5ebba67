import { useState } from 'react';
import { Button } from '@mui/material';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { Confirm, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useHolds } from '../master/access';
import { request } from '../providers/http';

/**
 * On a staff record with a Google account bound: an admin (admin.edit) clears the binding
 * (DELETE /v1/google/bindings/{userId}) after a confirmation; the person binds again from the top bar.
 */
export function ClearGoogleButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const mayClear = useHolds('admin', 'edit');
  const [open, setOpen] = useState(false);
  if (!mayClear || !record?.googleMail) return null;
  const clear = async () => {
    setOpen(false);
    await request(`/v1/google/bindings/${record.id}`, { method: 'DELETE' });
    notify('qe.google.cleared', { type: 'success' });
    refresh();
  };
  return (
    <>
      <Button size="small" startIcon={<LinkOffIcon />} onClick={() => setOpen(true)} data-testid="google-clear">
        {translate('qe.google.clear')}
      </Button>
      <Confirm
        isOpen={open}
        title="qe.google.clear"
        content={translate('qe.google.clearConfirm', { mail: String(record.googleMail) })}
        onConfirm={() => void clear()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
