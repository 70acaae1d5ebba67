import { useState, type ChangeEvent } from 'react';
import { Box, Button, FormHelperText, LinearProgress } from '@mui/material';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { HttpError } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { upload } from '../../providers/upload';
import { imageUrl } from '../respondent/QuestionCard';
import type { MessageKey } from '../../../shared/i18n/keys';
import { FileButton } from '../../common/FileButton';

/** What the server accepts for a question's image (API.md: POST /v1/questionnaires/images). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i;

/** Why a file cannot be a question's image (a message key), or null when it can. */
export function imageFileProblem(file: { name: string; type: string; size: number }): MessageKey | null {
  const typeOk = file.type ? IMAGE_TYPES.includes(file.type) : IMAGE_EXTENSIONS.test(file.name);
  if (!typeOk) return 'qe.designer.image.onlyImages';
  if (file.size > IMAGE_MAX_BYTES) return 'qe.designer.image.tooLarge';
  return null;
}

/** A question's image: upload one (png, jpeg, gif, webp up to 2 MB, checked before sending) with its progress, see it, remove it. */
export function ImageField({ value, onChange, problem, testId = 'image' }: { value: string | undefined; onChange: (path: string | undefined) => void; problem?: string; testId?: string }) {
  const translate = useTranslate();
  const [error, setError] = useState<string | null>(null);
  /** undefined: idle; a number: per cent sent; null: sent, the server is working */
  const [progress, setProgress] = useState<number | null | undefined>(undefined);
  const busy = progress !== undefined;

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const refused = imageFileProblem(file);
    if (refused) return setError(translate(refused));
    setError(null);
    setProgress(0);
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const { path } = await upload<{ path: string }>('/v1/questionnaires/images', form, (f) => setProgress(f === null ? null : Math.round(f * 100)));
      onChange(path);
    } catch (err) {
      // the server's refusal (422 field errors, or a business error such as "only image files") stays beside the button too
      if (err instanceof HttpError && err.status === 422) {
        const errors = (err.body as { errors?: Record<string, string> } | undefined)?.errors;
        setError(errors && typeof errors === 'object' ? Object.values(errors).join('; ') : err.message);
      } else if (err instanceof HttpError && err.status >= 400 && err.status < 500 && err.message) setError(err.message);
    } finally {
      setProgress(undefined);
    }
  };

  return (
    <Box data-testid={testId}>
      {value && (
        <Box
          component="img"
          src={imageUrl(value)}
          alt={translate('qe.question.image')}
          sx={{ display: 'block', maxWidth: '100%', maxHeight: 240, borderRadius: 1, mb: 1 }}
          data-testid={`${testId}-preview`}
        />
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <FileButton size="small" variant="outlined" startIcon={<AddPhotoAlternateIcon />} disabled={busy} accept={IMAGE_TYPES.join(',')} onChange={pick} inputTestId={`${testId}-file`}>
          {translate(value ? 'qe.designer.image.replace' : 'qe.designer.image.add')}
        </FileButton>
        {value && (
          <Button size="small" color="inherit" startIcon={<DeleteIcon />} onClick={() => onChange(undefined)} disabled={busy} data-testid={`${testId}-remove`}>
            {translate('qe.designer.image.remove')}
          </Button>
        )}
      </Box>
      {busy && (
        <Box sx={{ mt: 1, maxWidth: 320 }} data-testid={`${testId}-progress`}>
          <LinearProgress variant={progress === null ? 'indeterminate' : 'determinate'} value={progress ?? undefined} />
          <FormHelperText>{progress === null ? translate('qe.designer.image.processing') : translate('qe.designer.image.uploading', { percent: progress })}</FormHelperText>
        </Box>
      )}
      {(error || problem) && (
        <FormHelperText error role="alert" data-testid={`${testId}-error`}>
          {error ?? problem}
        </FormHelperText>
      )}
    </Box>
  );
}
