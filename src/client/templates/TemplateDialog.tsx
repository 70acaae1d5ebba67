import { useState, type MouseEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import type { TemplateDetail } from '../../shared/calls/templates';
import type { MessageKey } from '../../shared/i18n/keys';
import { useTranslate } from '../i18n/translate';
import { fieldErrorsOf } from './api';
import { AudienceKindInput, type AudienceValue } from './AudienceKindInput';

/** What the dialog edits: a template's names and descriptions in both languages and its audience kind. */
export interface TemplateValues extends AudienceValue {
  nameHk: string;
  nameEn: string;
  descriptionHk: string;
  descriptionEn: string;
}

const TEXTS = ['nameHk', 'nameEn', 'descriptionHk', 'descriptionEn'] as const;
const REQUIRED: readonly string[] = ['nameHk', 'nameEn'];

/** The body both calls take: blank descriptions as null, no grade unless the kind names one. */
export const templateBody = (v: TemplateValues) => ({
  nameHk: v.nameHk,
  nameEn: v.nameEn,
  descriptionHk: v.descriptionHk.trim() || null,
  descriptionEn: v.descriptionEn.trim() || null,
  audienceKind: v.audienceKind,
  gradeCode: v.audienceKind === 'STUDENTS_OF_GRADE' ? v.gradeCode : null,
});

/**
 * The template's details in a dialog: saving a questionnaire as a template and editing a template.
 * Names are required in both languages (checked here, and by the server); a refusal's field errors
 * (422) stand under their fields, any other message in the dialog or as request()'s toast.
 */
export function TemplateDialog({
  titleKey,
  intro,
  initial,
  submitKey,
  testId,
  submit,
  onClose,
  onDone,
}: {
  titleKey: MessageKey;
  intro?: string;
  initial: TemplateValues;
  submitKey: MessageKey;
  testId: string;
  submit: (values: TemplateValues) => Promise<TemplateDetail>;
  onClose: () => void;
  onDone: (saved: TemplateDetail) => void;
}) {
  const translate = useTranslate();
  const [values, setValues] = useState<TemplateValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<TemplateValues>) => {
    setValues((v) => ({ ...v, ...change }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !(k in change))));
  };
  const save = async () => {
    const missing: Record<string, string> = {};
    for (const f of REQUIRED) if (!values[f as 'nameHk'].trim()) missing[f] = translate('ra.validation.required');
    if (values.audienceKind === 'STUDENTS_OF_GRADE' && !values.gradeCode) missing.gradeCode = translate('qe.template.message.chooseGrade');
    setErrors(missing);
    setOther(null);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      onDone(await submit(values));
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields) {
        const known = ['audienceKind', 'gradeCode', ...TEXTS];
        setErrors(Object.fromEntries(Object.entries(fields).filter(([k]) => known.includes(k))));
        const rest = Object.entries(fields).filter(([k]) => !known.includes(k));
        if (rest.length) setOther(rest.map(([, m]) => m).join('; '));
      }
      setBusy(false);
    }
  };
  // the dialog lives in a portal, but React bubbles its clicks to a list row, which would open it
  const stop = (e: MouseEvent) => e.stopPropagation();
  return (
    <Dialog open onClose={onClose} onClick={stop} aria-labelledby={`${testId}-title`} data-testid={testId} fullWidth maxWidth="sm">
      <DialogTitle id={`${testId}-title`}>{translate(titleKey)}</DialogTitle>
      <DialogContent>
        {intro && (
          <Typography variant="body2" sx={{ mb: 1 }}>
            {intro}
          </Typography>
        )}
        {other && (
          <Alert severity="error" sx={{ mb: 1 }} data-testid={`${testId}-error`}>
            {other}
          </Alert>
        )}
        <Stack>
          {TEXTS.map((f) => (
            <TextField
              key={f}
              label={translate(`qe.template.fields.${f}`)}
              value={values[f]}
              onChange={(e) => set({ [f]: e.target.value })}
              required={REQUIRED.includes(f)}
              multiline={f.startsWith('description')}
              minRows={f.startsWith('description') ? 2 : undefined}
              error={Boolean(errors[f])}
              helperText={errors[f] ?? ' '}
              fullWidth
              margin="dense"
              size="small"
              slotProps={{ htmlInput: { 'data-testid': `${testId}-${f}`, maxLength: f.startsWith('name') ? 200 : 2000 } }}
            />
          ))}
        </Stack>
        <AudienceKindInput id={`${testId}-audience`} value={values} onChange={(v) => set(v)} errors={errors} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('qe.common.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={busy} data-testid={`${testId}-submit`}>
          {translate(submitKey)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
