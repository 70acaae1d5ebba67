import { useEffect, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import BackupIcon from '@mui/icons-material/Backup';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import LockIcon from '@mui/icons-material/Lock';
import RestoreIcon from '@mui/icons-material/Restore';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useLocale, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useHolds } from '../master/access';
import { formatDateTime } from '../common/schoolClock';
import { download } from '../master/download';
import { backupJob, BACKUPS_KEY, deleteBackup, listBackups, saveSchedule, sizeText, startBackup, uploadArchive, type BackupEntry, type JobState } from './api';
import { MakeBackupDialog } from './MakeBackupDialog';
import { RestoreDialog } from './RestoreDialog';
import { FileButton } from '../common/FileButton';
import { Loading } from '../common/Loading';

const EVERY_HOURS = [0, 6, 12, 24, 168];

/** Progress of the running backup: rows written of all, polled until it ends. */
function JobProgress({ job }: { job: JobState }) {
  const translate = useTranslate();
  const percent = job.total > 0 ? Math.round((job.done / job.total) * 100) : 0;
  return (
    <Box data-testid="backup-progress" role="status" aria-live="polite">
      <Typography variant="body2">{translate(job.kind === 'backup' ? 'qe.backup.making' : 'qe.backup.restoring', { percent })}</Typography>
      <LinearProgress variant={job.total > 0 ? 'determinate' : 'indeterminate'} value={percent} aria-label={translate('qe.backup.progress')} />
    </Box>
  );
}

/** The schedule: how often (off, 6, 12, 24 hours, weekly) and how many scheduled archives are kept. */
function ScheduleCard({ everyHours, keep, mayChange, onSaved }: { everyHours: number; keep: number; mayChange: boolean; onSaved: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [every, setEvery] = useState(everyHours);
  const [kept, setKept] = useState(String(keep));
  const keepNumber = Number(kept);
  const keepBad = !Number.isInteger(keepNumber) || keepNumber < 1 || keepNumber > 100;
  const save = async () => {
    await saveSchedule({ everyHours: every, keep: keepNumber });
    notify('qe.success.operation', { type: 'success' });
    onSaved();
  };
  return (
    <Card variant="outlined" data-testid="backup-schedule">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {translate('qe.backup.schedule')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField select label={translate('qe.backup.every')} value={String(every)} onChange={(e) => setEvery(Number(e.target.value))} disabled={!mayChange} sx={{ minWidth: 200 }} data-testid="backup-every">
            {EVERY_HOURS.map((h) => (
              <MenuItem key={h} value={String(h)}>
                {h === 0 ? translate('qe.backup.everyOff') : h === 168 ? translate('qe.backup.everyWeek') : translate('qe.backup.everyHours', { hours: h })}
              </MenuItem>
            ))}
          </TextField>
          <TextField label={translate('qe.backup.keep')} value={kept} onChange={(e) => setKept(e.target.value.replace(/[^0-9]/g, ''))} error={keepBad} helperText={keepBad ? translate('qe.backup.keepRange') : ' '} disabled={!mayChange || every === 0} slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'backup-keep' } }} sx={{ maxWidth: 200 }} />
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {translate('qe.backup.scheduleHelp')}
        </Typography>
        {mayChange && (
          <Box>
            <Button variant="outlined" onClick={save} disabled={keepBad || (every === everyHours && keepNumber === keep)} data-testid="backup-schedule-save">
              {translate('qe.backup.saveSchedule')}
            </Button>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Backup and restore: the archives with their time, size and maker, a backup now
 * (optionally encrypted) with its progress, download, delete, restore from the list or from an
 * uploaded archive behind a strong confirmation, and the schedule. Each button shows only to a
 * holder of its action; the server checks each call again.
 */
export function BackupScreen() {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const mayBackup = useHolds('backup', 'backup');
  const mayRestore = useHolds('backup', 'restore');
  const mayDelete = useHolds('backup', 'delete');
  const { data, isPending, refetch } = useQuery({ queryKey: BACKUPS_KEY, queryFn: listBackups });
  const [job, setJob] = useState<JobState | null>(null);
  const [making, setMaking] = useState(false);
  const [restoring, setRestoring] = useState<BackupEntry | null>(null);
  const [deleting, setDeleting] = useState<BackupEntry | null>(null);
  const [uploadPercent, setUploadPercent] = useState<number | null | undefined>(undefined);
  const [uploadProblem, setUploadProblem] = useState<string | null>(null);

  // a backup already running when the screen opens is followed too
  useEffect(() => {
    if (data?.job?.state === 'running') setJob(data.job);
  }, [data?.job]);

  // while a job runs: its progress every half second, then the list again
  useEffect(() => {
    if (job?.state !== 'running') return;
    const timer = setTimeout(async () => {
      const next = await backupJob().catch(() => job);
      if (next && next.state !== 'running') {
        if (next.state === 'done') notify('qe.success.backup', { type: 'success' });
        else notify(next.error?.message ?? 'qe.error.operationFailed', { type: 'error' });
        await queryClient.invalidateQueries({ queryKey: BACKUPS_KEY });
      }
      setJob(next);
    }, 500);
    return () => clearTimeout(timer);
  }, [job, notify, queryClient]);

  if (isPending) return <Loading />;
  const list = data?.list ?? [];
  const running = job?.state === 'running';

  const start = async (passphrase?: string) => {
    setMaking(false);
    try {
      setJob(await startBackup(passphrase));
    } catch {
      // the HTTP client has said why (another backup running…)
    }
  };

  const pickArchive = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!/\.zip$/i.test(file.name)) {
      setUploadProblem(translate('qe.backup.onlyZip'));
      return;
    }
    setUploadProblem(null);
    setUploadPercent(0);
    try {
      const entry = await uploadArchive(file, (f) => setUploadPercent(f === null ? null : Math.round(f * 100)));
      notify('qe.success.upload', { type: 'success' });
      await refetch();
      setRestoring(entry);
    } catch {
      // the HTTP client has shown the server's reason (not a QE backup, damaged…)
    } finally {
      setUploadPercent(undefined);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    await deleteBackup(deleting.name).then(() => notify('qe.success.deleted', { type: 'success' })).catch(() => undefined);
    setDeleting(null);
    await refetch();
  };

  const maker = (b: BackupEntry) =>
    b.scheduled ? translate('qe.backup.byScheduled') : b.uploaded ? translate('qe.backup.byUpload', { name: (locale === 'en' ? b.createdBy?.nameEn : b.createdBy?.name) ?? '—' }) : ((locale === 'en' ? b.createdBy?.nameEn : b.createdBy?.name) ?? '—');

  return (
    <Box sx={{ mt: 1, display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="backup-screen">
      <Title title={translate('qe.menu.backups')} />
      <Card>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="h6" component="h1">
            {translate('qe.menu.backups')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('qe.backup.intro')}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {mayBackup && (
              <Button variant="contained" startIcon={<BackupIcon />} disabled={running} onClick={() => setMaking(true)} data-testid="backup-make">
                {translate('qe.backup.make')}
              </Button>
            )}
            {mayRestore && (
              <FileButton variant="outlined" startIcon={<UploadFileIcon />} disabled={running || uploadPercent !== undefined} data-testid="backup-upload" accept=".zip,application/zip" onChange={pickArchive} inputTestId="backup-upload-file">
                {translate('qe.backup.upload')}
              </FileButton>
            )}
          </Stack>
          {uploadProblem && <Alert severity="error">{uploadProblem}</Alert>}
          {uploadPercent !== undefined && (
            <Box data-testid="backup-upload-progress">
              <Typography variant="body2">{uploadPercent === null ? translate('qe.backup.checking') : translate('qe.master.import.uploading', { percent: uploadPercent })}</Typography>
              <LinearProgress variant={uploadPercent === null ? 'indeterminate' : 'determinate'} value={uploadPercent ?? undefined} aria-label={translate('qe.backup.progress')} />
            </Box>
          )}
          {running && job && <JobProgress job={job} />}

          {list.length === 0 ? (
            <Typography color="text.secondary" data-testid="backup-empty">
              {translate('qe.backup.empty')}
            </Typography>
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={translate('qe.backup.list')} data-testid="backup-list">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('qe.backup.time')}</TableCell>
                    <TableCell>{translate('qe.backup.name')}</TableCell>
                    <TableCell align="right">{translate('qe.backup.size')}</TableCell>
                    <TableCell>{translate('qe.backup.by')}</TableCell>
                    <TableCell>{translate('qe.master.actions')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {list.map((b) => (
                    <TableRow key={b.name} data-testid="backup-row">
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(b.createdAt)}</TableCell>
                      <TableCell sx={{ wordBreak: 'break-all' }}>
                        {b.name}
                        {b.encrypted && <Chip size="small" icon={<LockIcon />} label={translate('qe.backup.encrypted')} sx={{ ml: 1 }} />}
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>{sizeText(b.size)}</TableCell>
                      <TableCell>{maker(b)}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {mayBackup && (
                          <Tooltip title={translate('qe.backup.download')}>
                            <IconButton aria-label={translate('qe.backup.downloadOf', { name: b.name })} onClick={() => download(`/v1/backups/${encodeURIComponent(b.name)}/download`, b.name).then(() => notify('qe.success.downloaded', { type: 'success' })).catch(() => undefined)} data-testid="backup-download">
                              <DownloadIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        )}
                        {mayRestore && (
                          <Tooltip title={translate('qe.backup.restore')}>
                            <span>
                              <IconButton aria-label={translate('qe.backup.restoreOf', { name: b.name })} disabled={running} onClick={() => setRestoring(b)} data-testid="backup-restore">
                                <RestoreIcon fontSize="small" />
                              </IconButton>
                            </span>
                          </Tooltip>
                        )}
                        {mayDelete && (
                          <Tooltip title={translate('qe.master.delete')}>
                            <IconButton aria-label={translate('qe.backup.deleteOf', { name: b.name })} onClick={() => setDeleting(b)} data-testid="backup-delete">
                              <DeleteIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
        </CardContent>
      </Card>
      {data && <ScheduleCard key={`${data.schedule.everyHours}-${data.schedule.keep}`} everyHours={data.schedule.everyHours} keep={data.schedule.keep} mayChange={mayBackup} onSaved={() => void refetch()} />}

      {making && <MakeBackupDialog onStart={start} onClose={() => setMaking(false)} />}
      {restoring && <RestoreDialog backup={restoring} onClose={() => setRestoring(null)} />}
      <Dialog open={Boolean(deleting)} onClose={() => setDeleting(null)} aria-labelledby="qe-delete-backup-title" data-testid="backup-delete-dialog">
        <DialogTitle id="qe-delete-backup-title">{translate('qe.confirm.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('qe.backup.deleteConfirm', { name: deleting?.name ?? '' })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>{translate('qe.common.cancel')}</Button>
          <Button color="error" variant="contained" onClick={remove} data-testid="backup-delete-confirm">
            {translate('qe.master.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
