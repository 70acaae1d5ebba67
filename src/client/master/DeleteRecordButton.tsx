import { useState, type MouseEvent } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, IconButton, Tooltip } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { Confirm, useDelete, useNotify, useRecordContext, type HttpError } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import type { EntityMeta } from '../../shared/master/entity';

const IN_USE = 708;

type Step = { kind: 'idle' } | { kind: 'confirm' } | { kind: 'inUse'; message: string; cascade: boolean } | { kind: 'cascade' };

/**
 * Deletes the row's record after a confirmation. When the server refuses because other data
 * uses it (708), its message is shown; if the server allows it (`data.cascade`), a second,
 * stronger confirmation deletes the record with all related records (`?cascade=1`).
 */
export function DeleteRecordButton({ meta }: { meta: EntityMeta }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [deleteOne, { isPending }] = useDelete();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  if (!record) return null;

  const run = (cascade: boolean) =>
    deleteOne(
      meta.resource,
      { id: record.id, previousData: record, meta: cascade ? { cascade: true } : undefined },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setStep({ kind: 'idle' });
          notify('qe.success.deleted', { type: 'success' });
        },
        onError: (e) => {
          const error = e as HttpError;
          const body = error.body as { code?: number; data?: { cascade?: boolean } } | undefined;
          if (!cascade && body?.code === IN_USE) setStep({ kind: 'inUse', message: error.message, cascade: body.data?.cascade === true });
          else {
            setStep({ kind: 'idle' });
            notify(error.message || 'qe.error.operationFailed', { type: 'error' });
          }
        },
      },
    );

  // the dialogs live in portals, but React still bubbles their clicks to the row (which would open the record)
  const stop = (e: MouseEvent) => e.stopPropagation();
  const close = () => setStep({ kind: 'idle' });

  return (
    <Box component="span" onClick={stop}>
      <Tooltip title={translate('qe.master.delete')}>
        <IconButton size="small" aria-label={translate('qe.master.delete')} onClick={() => setStep({ kind: 'confirm' })} data-testid="row-delete">
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Confirm
        isOpen={step.kind === 'confirm'}
        loading={isPending}
        title="qe.confirm.title"
        content="qe.confirm.delete"
        confirm="qe.master.delete"
        confirmColor="warning"
        onConfirm={() => run(false)}
        onClose={close}
      />
      {step.kind === 'inUse' && (
        <Dialog open onClose={close} aria-labelledby="qe-in-use-title" data-testid="in-use-dialog">
          <DialogTitle id="qe-in-use-title">{translate('qe.master.inUseTitle')}</DialogTitle>
          <DialogContent>
            <DialogContentText>{step.message}</DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={close} autoFocus>
              {translate(step.cascade ? 'qe.common.cancel' : 'qe.common.close')}
            </Button>
            {step.cascade && (
              <Button color="error" onClick={() => setStep({ kind: 'cascade' })} data-testid="delete-cascade">
                {translate('qe.master.deleteAll')}
              </Button>
            )}
          </DialogActions>
        </Dialog>
      )}
      <Confirm
        isOpen={step.kind === 'cascade'}
        loading={isPending}
        title="qe.confirm.title"
        content="qe.confirm.deleteAll"
        confirm="qe.master.deleteAll"
        confirmColor="warning"
        onConfirm={() => run(true)}
        onClose={close}
      />
    </Box>
  );
}
