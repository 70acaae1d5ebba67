import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Card, CardContent, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Tab, Table, TableBody, TableCell, TableHead, TableRow, Tabs, TablePagination, TextField, Typography } from '@mui/material';
import { HttpError, useLocale, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { CONFIRM_STATUSES, type ConfirmStatus } from '../../shared/personal';
import { formatDateTime } from '../common/schoolClock';
import { confirmRequest, personalQueue, PERSONAL_FIELDS, rejectRequest, type QueuedRequest } from './api';
import { ConfirmStatusTag } from './ConfirmStatusTag';
import { PersonalValue } from './values';
import { composedKey } from '../../shared/i18n/keys';

const SIZE = 10;
const fieldLabel = (field: string) => composedKey(`qe.fields.common.${field === 'identityCardId' ? 'identityCardNo' : field}`);

/** One request: who asks, its tag, each item changed as old → new, and (waiting) the approver's buttons. */
function RequestCard({ item, onConfirm, onReject }: { item: QueuedRequest; onConfirm: () => void; onReject: () => void }) {
  const translate = useTranslate();
  const en = useLocale() === 'en';
  const changed = PERSONAL_FIELDS.filter((f) => item.current[f] !== item.values[f]);
  return (
    <Card data-testid="personal-request-card" data-user-no={item.userNo ?? ''}>
      <CardContent>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 500 }}>
            {en ? item.nameEn : item.nameHk} {item.userNo ? `(${item.userNo})` : ''}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate(composedKey(`qe.userType.${item.userType}`))} · {formatDateTime(item.createdAt)}
          </Typography>
          <ConfirmStatusTag status={item.status} />
        </Box>
        <Table size="small" sx={{ mt: 1 }}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('qe.personalData.queue.field')}</TableCell>
              <TableCell>{translate('qe.personalData.queue.before')}</TableCell>
              <TableCell>{translate('qe.personalData.queue.after')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {/* a new number of the same mask still counts as a change: the number is sealed, only its type and mask are compared */}
            {(changed.length ? changed : PERSONAL_FIELDS).map((field) => (
              <TableRow key={field} data-testid={`change-${field}`}>
                <TableCell component="th">{translate(fieldLabel(field))}</TableCell>
                <TableCell>
                  <PersonalValue values={item.current} field={field} />
                </TableCell>
                <TableCell>
                  <PersonalValue values={item.values} field={field} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {item.status === 'REJECT' && item.reason && (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {translate('qe.personalData.reason')}: {item.reason}
          </Typography>
        )}
        {item.status === 'WAITTING' && (
          <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
            <Button variant="contained" color="success" onClick={onConfirm} data-testid="personal-confirm">
              {translate('qe.personalData.queue.confirm')}
            </Button>
            <Button variant="outlined" color="error" onClick={onReject} data-testid="personal-reject">
              {translate('qe.personalData.queue.reject')}
            </Button>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/** The approver's queue (the action personal-data.approve): waiting requests first, confirmed and rejected ones a tab away. */
export function ApprovalQueuePage() {
  const translate = useTranslate();
  const notify = useNotify();
  const en = useLocale() === 'en';
  const [status, setStatus] = useState<ConfirmStatus>('WAITTING');
  const [page, setPage] = useState(0);
  const [data, setData] = useState<{ list: QueuedRequest[]; total: number } | null>(null);
  const [rejecting, setRejecting] = useState<QueuedRequest | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  const load = useCallback(() => personalQueue(status, page + 1, SIZE).then(setData, () => undefined), [status, page]);
  useEffect(() => {
    void load();
  }, [load]);

  const confirm = async (item: QueuedRequest) => {
    try {
      await confirmRequest(item.id);
      notify('qe.personalData.queue.confirmed', { type: 'success' });
    } finally {
      void load();
    }
  };

  const reject = async () => {
    if (!rejecting) return;
    if (!reason.trim()) return setReasonError(translate('qe.common.required'));
    try {
      await rejectRequest(rejecting.id, reason.trim());
      notify('qe.personalData.queue.rejected', { type: 'success' });
      setRejecting(null);
      void load();
    } catch (err) {
      const failure = err as HttpError;
      const errors = (failure.body as { errors?: Record<string, string> } | undefined)?.errors;
      if (errors?.reason) setReasonError(errors.reason);
      else {
        notify(failure.message || 'qe.error.operationFailed', { type: 'error', autoHideDuration: 6000 });
        setRejecting(null);
        void load();
      }
    }
  };

  return (
    <Stack spacing={2} sx={{ mt: 1, maxWidth: 900 }} data-testid="personal-queue">
      <Tabs value={status} onChange={(_, v: ConfirmStatus) => { setStatus(v); setPage(0); }}>
        {CONFIRM_STATUSES.map((s) => (
          <Tab key={s} value={s} label={translate(`qe.personalData.status.${s}`)} data-testid={`queue-tab-${s}`} />
        ))}
      </Tabs>
      {data && !data.list.length && <Typography color="text.secondary">{translate('qe.personalData.queue.empty')}</Typography>}
      {data?.list.map((item) => (
        <RequestCard key={item.id} item={item} onConfirm={() => void confirm(item)} onReject={() => { setRejecting(item); setReason(''); setReasonError(null); }} />
      ))}
      {data && data.total > SIZE && (
        <TablePagination component="div" count={data.total} page={page} rowsPerPage={SIZE} rowsPerPageOptions={[SIZE]} onPageChange={(_, p) => setPage(p)} />
      )}
      <Dialog open={Boolean(rejecting)} onClose={() => setRejecting(null)} fullWidth maxWidth="sm" aria-labelledby="qe-reject-title">
        <DialogTitle id="qe-reject-title">{rejecting && translate('qe.personalData.queue.rejectTitle', { name: en ? rejecting.nameEn : rejecting.nameHk })}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={3}
            margin="dense"
            label={translate('qe.personalData.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={Boolean(reasonError)}
            helperText={reasonError ?? translate('qe.personalData.queue.reasonHelp')}
            slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'personal-reject-reason-input' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRejecting(null)}>{translate('qe.personalData.queue.cancel')}</Button>
          <Button color="error" variant="contained" onClick={() => void reject()} data-testid="personal-reject-submit">
            {translate('qe.personalData.queue.reject')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
