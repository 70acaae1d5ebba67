import { useState, type MouseEvent, type ReactElement } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Tooltip } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import EditIcon from '@mui/icons-material/EditOutlined';
import EditNoteIcon from '@mui/icons-material/EditNote';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import BookmarkAddIcon from '@mui/icons-material/BookmarkAddOutlined';
import MoreTimeIcon from '@mui/icons-material/MoreTime';
import SendIcon from '@mui/icons-material/Send';
import StopIcon from '@mui/icons-material/StopCircleOutlined';
import UndoIcon from '@mui/icons-material/Undo';
import { Confirm, useNotify, useRefresh } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { useNavigate } from 'react-router-dom';
import type { Questionnaire } from '../../../shared/questionnaire/types';
import { DateTimeText, dateTimeText, isDateTimeText } from '../../common/DateTimeText';
import { useQuestionnaireRights } from './access';
import { questionnaireApi } from './api';
import { toIso, toSchoolInput } from '../../common/schoolClock';
import { formsPath } from './paths';
import { NoticeConfirm } from './NoticeConfirm';
import { YearCopyDialog } from './YearCopyDialog';
import { SaveAsTemplateDialog } from '../../templates/SaveAsTemplateDialog';
import { useMayTemplate } from '../../templates/access';
import { useSchoolYears } from '../../common/useSchoolYears';

export type LifecycleAction = 'editDetails' | 'editForm' | 'ready' | 'cancelReady' | 'close' | 'extend' | 'notice' | 'copy' | 'copyForYear' | 'saveAsTemplate' | 'delete';

type Row = Pick<Questionnaire, 'id' | 'status' | 'mayEdit' | 'inChargeId' | 'targets' | 'endDate' | 'type' | 'schoolYearId' | 'title' | 'titleTranslation' | 'languages'>;

/** The actions a questionnaire offers in its status to a user with these rights (list rows and the view screen). */
export function offeredActions(record: Row, rights: { edit: boolean; add: boolean; delete: boolean; saveAsTemplate?: boolean }, currentYearId: number | null = null): LifecycleAction[] {
  const { status } = record;
  const out: LifecycleAction[] = [];
  if (rights.edit && status !== 'FINISHED') out.push('editDetails');
  if (rights.edit && status === 'PREPARING') out.push('editForm', 'ready');
  if (rights.edit && status === 'NOT_OPEN') out.push('cancelReady');
  if (rights.edit && status === 'PROCESSING') out.push('close', 'extend', 'notice');
  if (rights.add) out.push('copy');
  // an earlier year's questionnaire again, for this year's classes or people
  if (rights.add && currentYearId !== null && record.schoolYearId !== null && record.schoolYearId !== currentYearId) out.push('copyForYear');
  // form-template.add: its questions kept for another time, in any status
  if (rights.saveAsTemplate) out.push('saveAsTemplate');
  if (rights.delete && (status === 'PREPARING' || status === 'NOT_OPEN')) out.push('delete');
  return out;
}

const ICONS: Record<LifecycleAction, ReactElement> = {
  editDetails: <EditIcon fontSize="small" />,
  editForm: <EditNoteIcon fontSize="small" />,
  ready: <DoneAllIcon fontSize="small" />,
  cancelReady: <UndoIcon fontSize="small" />,
  close: <StopIcon fontSize="small" />,
  extend: <MoreTimeIcon fontSize="small" />,
  notice: <SendIcon fontSize="small" />,
  copy: <ContentCopyIcon fontSize="small" />,
  copyForYear: <EventRepeatIcon fontSize="small" />,
  saveAsTemplate: <BookmarkAddIcon fontSize="small" />,
  delete: <DeleteIcon fontSize="small" />,
};

type Dialogs = 'close' | 'notice' | 'delete' | 'extend' | 'copyForYear' | 'saveAsTemplate' | null;

/** The extend dialog: a later end date than now and than the current one. */
function ExtendDialog({ record, onClose, onDone }: { record: Row; onClose: () => void; onDone: () => void }) {
  const translate = useTranslate();
  const [value, setValue] = useState(dateTimeText('datetime', toSchoolInput(record.endDate)));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!isDateTimeText('datetime', value)) {
      setError(translate('qe.common.dateTimeFormat'));
      return;
    }
    const iso = toIso(value);
    const floor = Math.max(Date.now(), record.endDate ? new Date(record.endDate).getTime() : 0);
    if (!iso || new Date(iso).getTime() <= floor) {
      setError(translate('qe.questionnaire.message.extendTooEarly'));
      return;
    }
    setBusy(true);
    try {
      await questionnaireApi.extend(record.id, iso);
      onDone();
    } catch {
      setBusy(false); // request() has shown the server's message
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="qe-extend-title" data-testid="extend-dialog">
      <DialogTitle id="qe-extend-title">{translate('qe.questionnaire.message.extendTitle')}</DialogTitle>
      <DialogContent>
        <DateTimeText
          kind="datetime"
          label={translate('qe.questionnaire.message.newEndDate')}
          value={value}
          onChange={(text) => {
            setValue(text);
            setError(null);
          }}
          error={Boolean(error)}
          helperText={error ?? ' '}
          fullWidth
          margin="dense"
          htmlInput={{ 'data-testid': 'extend-date' }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('qe.common.cancel')}</Button>
        <Button onClick={submit} disabled={busy} variant="contained" data-testid="extend-submit">
          {translate('qe.questionnaire.action.extend')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * What can be done with a questionnaire in its status, as the user's rights allow: edit its
 * details or its questions, design complete / cancel ready, close early, extend the end date,
 * send a notice, copy as new, save as a template, delete. Each calls the API and refreshes; request() shows a
 * business error (709…) itself. Icons in a list row, buttons on the view screen.
 */
export function LifecycleActions({
  record,
  variant = 'icon',
  omit = [],
  onDeleted,
}: {
  record: Row;
  variant?: 'icon' | 'button';
  omit?: LifecycleAction[];
  /** after a delete (the view screen goes back to the list) */
  onDeleted?: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const navigate = useNavigate();
  const rights = { ...useQuestionnaireRights(record), saveAsTemplate: useMayTemplate('add') };
  const [dialog, setDialog] = useState<Dialogs>(null);
  const [busy, setBusy] = useState(false);
  const { currentYear } = useSchoolYears();
  const actions = offeredActions(record, rights, currentYear?.id ?? null).filter((a) => !omit.includes(a));
  if (actions.length === 0) return null;

  /** Runs a call; request() has shown its error already, so a failure only ends the wait. */
  const run = async (call: () => Promise<unknown>, success: (answer: never) => void) => {
    setBusy(true);
    try {
      const answer = await call();
      setDialog(null);
      success(answer as never);
      refresh();
    } catch {
      setDialog(null);
    } finally {
      setBusy(false);
    }
  };

  const start = (action: LifecycleAction) => {
    switch (action) {
      case 'editDetails':
        return navigate(formsPath('edit', record.id));
      case 'editForm':
        return navigate(formsPath('doc', record.id));
      case 'ready':
        if (!record.targets?.length) return notify('qe.questionnaire.message.targetsRequired', { type: 'warning' });
        return run(() => questionnaireApi.ready(record.id), () => notify('qe.questionnaire.message.readyDone', { type: 'success' }));
      case 'cancelReady':
        return run(() => questionnaireApi.cancelReady(record.id), () => notify('qe.questionnaire.message.cancelReadyDone', { type: 'success' }));
      case 'copy':
        return run(() => questionnaireApi.copy(record.id), () => notify('qe.questionnaire.message.copied', { type: 'success' }));
      default:
        return setDialog(action);
    }
  };

  // the dialogs live in portals, but React still bubbles their clicks to the row (which would open the record)
  const stop = (e: MouseEvent) => e.stopPropagation();
  const label = (action: LifecycleAction) => translate(`qe.questionnaire.action.${action}`);

  return (
    <Box component="span" onClick={stop} sx={{ display: 'inline-flex', flexWrap: variant === 'icon' ? 'nowrap' : 'wrap', gap: variant === 'icon' ? 0 : 1 }}>
      {actions.map((action) =>
        variant === 'icon' ? (
          <Tooltip key={action} title={label(action)}>
            <span>
              <IconButton size="small" aria-label={label(action)} onClick={() => start(action)} disabled={busy} data-testid={`row-${action}`} color={action === 'delete' ? 'error' : 'default'}>
                {ICONS[action]}
              </IconButton>
            </span>
          </Tooltip>
        ) : (
          <Button key={action} size="small" startIcon={ICONS[action]} onClick={() => start(action)} disabled={busy} data-testid={`action-${action}`} color={action === 'delete' ? 'error' : 'primary'}>
            {label(action)}
          </Button>
        ),
      )}
      <Confirm
        isOpen={dialog === 'close'}
        loading={busy}
        title="qe.confirm.title"
        content="qe.questionnaire.message.closeConfirm"
        confirm="qe.questionnaire.action.close"
        confirmColor="warning"
        onConfirm={() => run(() => questionnaireApi.close(record.id), () => notify('qe.questionnaire.message.closed', { type: 'success' }))}
        onClose={() => setDialog(null)}
      />
      <NoticeConfirm id={record.id} isOpen={dialog === 'notice'} onClose={() => setDialog(null)} onSent={refresh} />
      <Confirm
        isOpen={dialog === 'delete'}
        loading={busy}
        title="qe.confirm.title"
        content="qe.questionnaire.message.deleteConfirm"
        confirm="qe.questionnaire.action.delete"
        confirmColor="warning"
        onConfirm={() =>
          run(
            () => questionnaireApi.remove(record.id),
            () => {
              notify('qe.success.deleted', { type: 'success' });
              onDeleted?.();
            },
          )
        }
        onClose={() => setDialog(null)}
      />
      {dialog === 'saveAsTemplate' && <SaveAsTemplateDialog questionnaire={record} onClose={() => setDialog(null)} />}
      {dialog === 'copyForYear' && <YearCopyDialog id={record.id} type={record.type} onClose={() => setDialog(null)} />}
      {dialog === 'extend' && (
        <ExtendDialog
          record={record}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            notify('qe.questionnaire.message.extended', { type: 'success' });
            refresh();
          }}
        />
      )}
    </Box>
  );
}
