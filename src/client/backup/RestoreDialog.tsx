import { useEffect, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, LinearProgress, TextField } from '@mui/material';
import { HttpError, useLogout, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { backupJob, restoreBackup, type BackupEntry } from './api';

/** BACKUP_SCHOOL_CONFIRM (src/shared/errors.ts): another school's backup, or not this QE's; data.school its name */
const SCHOOL_CONFIRM = 765;

/**
 * The strong confirmation of a restore: what happens (every record replaced, everyone logged
 * out), the passphrase of an encrypted archive, and the archive's name typed in full. Then the
 * restore, a busy state that asks not to close the page, "restore succeeded", and the login page
 * (the restore has ended every session, this one too).
 */
export function RestoreDialog({ backup, onClose }: { backup: BackupEntry; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const [typed, setTyped] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // another school's backup, or one not made by this QE (765): its school's name, to be typed
  const [school, setSchool] = useState<string | null>(null);
  const [schoolTyped, setSchoolTyped] = useState('');
  const ready = typed === backup.name && (!backup.encrypted || passphrase.length >= 8) && (school === null || schoolTyped.trim() !== '');
  const [percent, setPercent] = useState<number | null>(null);

  // while the restore runs: how far the server has come (rows loaded of all), every second
  useEffect(() => {
    if (!busy) return;
    let stopped = false;
    const timer = setInterval(() => {
      backupJob(true)
        .then((job) => !stopped && job?.kind === 'restore' && job.state === 'running' && job.total > 0 && setPercent(Math.round((job.done / job.total) * 100)))
        .catch(() => undefined);
    }, 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [busy]);

  const restore = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await restoreBackup(backup.name, typed, backup.encrypted ? passphrase : undefined, school === null ? undefined : schoolTyped.trim());
      notify('qe.success.restore', { type: 'success', autoHideDuration: 10_000 });
      await logout({}, '/login', false);
    } catch (e) {
      const body = e instanceof HttpError ? (e.body as { code?: number; data?: { school?: string } } | undefined) : undefined;
      if (body?.code === SCHOOL_CONFIRM && school === null) {
        setSchool(body.data?.school ?? '');
        setProblem(null);
      } else setProblem(e instanceof HttpError ? e.message : translate('qe.error.tryLater'));
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby="qe-restore-title" data-testid="restore-dialog">
      <DialogTitle id="qe-restore-title">{translate('qe.backup.restoreTitle', { name: backup.name })}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Alert severity="warning">{translate('qe.backup.restoreWarning')}</Alert>
        <DialogContentText>{translate('qe.backup.restoreType', { name: backup.name })}</DialogContentText>
        <TextField
          label={translate('qe.backup.restoreName')}
          value={typed}
          onChange={(e) => setTyped(e.target.value.trim())}
          disabled={busy}
          autoComplete="off"
          slotProps={{ htmlInput: { 'data-testid': 'restore-confirm-name', spellCheck: false } }}
        />
        {backup.encrypted && (
          <TextField
            type="password"
            label={translate('qe.backup.passphrase')}
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
            disabled={busy}
            autoComplete="off"
            helperText={translate('qe.backup.passphraseOfArchive')}
            slotProps={{ htmlInput: { 'data-testid': 'restore-passphrase' } }}
          />
        )}
        {school !== null && (
          <>
            <Alert severity="warning" data-testid="restore-school-alert">
              {translate('qe.backup.restoreSchoolType', { school })}
            </Alert>
            <TextField
              label={translate('qe.backup.restoreSchoolName')}
              value={schoolTyped}
              onChange={(e) => setSchoolTyped(e.target.value)}
              disabled={busy}
              autoComplete="off"
              slotProps={{ htmlInput: { 'data-testid': 'restore-confirm-school', spellCheck: false } }}
            />
          </>
        )}
        {problem && (
          <Alert severity="error" data-testid="restore-problem">
            {problem}
          </Alert>
        )}
        {busy && (
          <>
            <LinearProgress variant={percent === null ? 'indeterminate' : 'determinate'} value={percent ?? undefined} aria-label={translate('qe.backup.restoring')} data-testid="restore-progress" />
            <DialogContentText>{translate('qe.backup.restoring')}</DialogContentText>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('qe.common.cancel')}
        </Button>
        <Button variant="contained" color="error" disabled={!ready || busy} onClick={restore} data-testid="restore-confirm">
          {translate('qe.backup.restore')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
