import { useEffect, useState, type ChangeEvent } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  LinearProgress,
  Link,
  Button as MuiButton,
  Radio,
  RadioGroup,
  Typography,
} from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, HttpError, useListContext, useNotify, useRefresh } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import type { EntityMeta } from '../../shared/master/entity';
import { upload } from '../providers/upload';
import { download } from './download';
import { SchoolYearSelect } from './schoolYear';
import type { ImportJobView } from '../../shared/master/import-job';
import { markSeen, useImportJob } from './importJob';
import { FileButton } from '../common/FileButton';

/** The upload rule (docs/product-rules.md#validation): Excel only (.xlsx, .xls), checked before anything is sent. */
export const isExcelFile = (name: string) => /\.(xlsx|xls)$/i.test(name);

/** What the server does with a row whose code is stored already (a re-imported export). */
type ExistingChoice = 'refuse' | 'update' | 'skip';
const EXISTING_CHOICES: ExistingChoice[] = ['refuse', 'update', 'skip'];

/**
 * Excel import: the template to fill in, a file picker, what to do with records that exist
 * already (by their code), the upload with its progress (then an indeterminate bar while the
 * server reads the file), and the counts added, updated and skipped. Rows the server refuses
 * (706) open the import-errors dialog of the layout, as any 706 answer does.
 */
export function ImportDialog({ meta, onClose, yearly = false, schoolYearId = '' }: { meta: EntityMeta; onClose: () => void; yearly?: boolean; schoolYearId?: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [existing, setExisting] = useState<ExistingChoice>('refuse');
  // per-year values (a class and its number) go into this year; empty: the current one
  const [year, setYear] = useState(schoolYearId);
  // entities with a code (the first unique property) can tell a record that exists
  const matched = Boolean(meta.unique?.length);
  /** undefined: idle; a number: per cent sent; null: sent, the server is working */
  const [progress, setProgress] = useState<number | null | undefined>(undefined);
  // a file with many different passwords: the server answers once it is checked and hashes them as a job
  const [job, setJob] = useImportJob(meta.resource);
  const hashing = job?.status === 'running';
  const busy = progress !== undefined;

  // an ended job is seen once it is on screen; one that wrote rows shows them in the list
  const ended = job && job.status !== 'running' ? job : null;
  useEffect(() => {
    if (!ended) return;
    markSeen(ended);
    if (ended.status === 'done') refresh();
  }, [ended, refresh]);

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0] ?? null;
    e.target.value = '';
    if (!chosen) return;
    if (!isExcelFile(chosen.name)) {
      setFile(null);
      setError(translate('qe.master.import.onlyExcel'));
      return;
    }
    setError(null);
    setFile(chosen);
  };

  const send = async () => {
    if (!file) return;
    const form = new FormData();
    form.append('file', file, file.name);
    setProgress(0);
    setError(null);
    try {
      const params = new URLSearchParams();
      if (matched) params.set('existing', existing);
      if (yearly && year) params.set('schoolYearId', year);
      const query = params.size ? `?${params}` : '';
      const result = await upload<{ imported?: number; added?: number; updated?: number; skipped?: number; job?: ImportJobView }>(`/v1/${meta.resource}/import${query}`, form, (fraction) =>
        setProgress(fraction === null ? null : Math.round(fraction * 100)),
      );
      if (result?.job) {
        setFile(null);
        setJob(result.job);
        return;
      }
      const counts = { added: result?.added ?? 0, updated: result?.updated ?? 0, skipped: result?.skipped ?? 0 };
      notify(translate('qe.master.import.counts', { ...counts, done: translate('qe.master.import.done', { smart_count: result?.imported ?? 0 }) }), { type: 'success' });
      refresh();
      onClose();
    } catch (e) {
      // 422: the file itself is refused (wrong template…): its reasons here; other failures are shown by the HTTP client
      if (e instanceof HttpError && e.status === 422) {
        const errors = (e.body as { errors?: Record<string, string> } | undefined)?.errors;
        setError(errors && typeof errors === 'object' ? Object.values(errors).join('; ') : e.message);
      }
    } finally {
      setProgress(undefined);
    }
  };

  const template = () => download(`/v1/${meta.resource}/import-template`, `${meta.resource}-template.xlsx`).catch(() => undefined);

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="qe-import-title" data-testid="import-dialog">
      <DialogTitle id="qe-import-title">{translate('qe.master.import.title')}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {translate('qe.master.import.hint')}
        </Typography>
        <Link component="button" type="button" onClick={template} data-testid="import-template" sx={{ mb: 2, display: 'inline-block' }}>
          {translate('qe.master.import.template')}
        </Link>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <FileButton variant="outlined" disabled={busy} accept=".xlsx,.xls" onChange={pick} inputTestId="import-file">
            {translate('qe.master.import.choose')}
          </FileButton>
          <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="import-file-name">
            {file?.name ?? translate('qe.master.import.noFile')}
          </Typography>
        </Box>
        {yearly && (
          <Box sx={{ mt: 2.5 }}>
            <SchoolYearSelect value={year} onChange={setYear} testId="import-school-year" />
            <FormHelperText>{translate('qe.master.schoolYear.importHint')}</FormHelperText>
          </Box>
        )}
        {matched && (
          <Box sx={{ mt: 2 }}>
            <FormLabel id="qe-import-existing">{translate('qe.master.import.existing')}</FormLabel>
            <RadioGroup aria-labelledby="qe-import-existing" value={existing} onChange={(e) => setExisting(e.target.value as ExistingChoice)} data-testid="import-existing">
              {EXISTING_CHOICES.map((choice) => (
                <FormControlLabel key={choice} value={choice} disabled={busy} control={<Radio size="small" />} label={translate(`qe.master.import.existing_${choice}`)} data-testid={`import-existing-${choice}`} />
              ))}
            </RadioGroup>
          </Box>
        )}
        {error && (
          <FormHelperText error data-testid="import-error">
            {error}
          </FormHelperText>
        )}
        {job && <ImportJobStatus job={job} />}
        {busy && (
          <Box sx={{ mt: 2 }} data-testid="import-progress">
            <LinearProgress variant={progress === null ? 'indeterminate' : 'determinate'} value={progress ?? undefined} />
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {progress === null ? translate('qe.master.import.processing') : translate('qe.master.import.uploading', { percent: progress })}
            </Typography>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose} disabled={busy}>
          {translate(job ? 'qe.common.close' : 'qe.common.cancel')}
        </MuiButton>
        <MuiButton variant="contained" onClick={send} disabled={!file || busy || hashing} data-testid="import-upload">
          {translate('qe.master.import.upload')}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Where an import job stands: its passwords being set (the bar), or its outcome — every row
 * imported, none (the rows that stopped it), or none because QE restarted meanwhile.
 */
function ImportJobStatus({ job }: { job: ImportJobView }) {
  const translate = useTranslate();
  if (job.status === 'running') {
    const percent = job.passwords ? Math.round((job.hashed / job.passwords) * 100) : 0;
    return (
      <Box sx={{ mt: 2 }} data-testid="import-job" data-status={job.status}>
        <LinearProgress variant="determinate" value={percent} aria-label={translate('qe.master.import.job.running', { hashed: job.hashed, passwords: job.passwords, rows: job.rows })} />
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {translate('qe.master.import.job.running', { hashed: job.hashed, passwords: job.passwords, rows: job.rows })}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {translate('qe.master.import.job.mayClose')}
        </Typography>
      </Box>
    );
  }
  if (job.status === 'done') {
    const done = translate('qe.master.import.done', { smart_count: job.added + job.updated });
    return (
      <Alert severity="success" sx={{ mt: 2 }} data-testid="import-job" data-status={job.status}>
        {translate('qe.master.import.counts', { done, added: job.added, updated: job.updated, skipped: job.skipped })}
      </Alert>
    );
  }
  return (
    <Alert severity={job.status === 'failed' ? 'error' : 'warning'} sx={{ mt: 2 }} data-testid="import-job" data-status={job.status}>
      <AlertTitle>{translate(`qe.master.import.job.${job.status}`, { rows: job.rows })}</AlertTitle>
      {job.errors?.map((line) => (
        <Typography key={line} variant="body2">
          {line}
        </Typography>
      ))}
    </Alert>
  );
}

/** The list's import action; per-year values go into the year the list shows unless another is chosen. */
export function ImportButton({ meta, yearly = false }: { meta: EntityMeta; yearly?: boolean }) {
  const [open, setOpen] = useState(false);
  const { filterValues } = useListContext();
  return (
    <>
      <Button label="qe.master.import.button" onClick={() => setOpen(true)} data-testid="master-import">
        <UploadFileIcon />
      </Button>
      {open && <ImportDialog meta={meta} yearly={yearly} schoolYearId={String(filterValues?.schoolYearId ?? '')} onClose={() => setOpen(false)} />}
    </>
  );
}
