import { useEffect, useState, type ReactNode } from 'react';
import { Autocomplete, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { type HttpError } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import type { Translate } from '../i18n/messages';

export interface FieldDef {
  name: string;
  label: string;
  kind?: 'text' | 'integer' | 'select' | 'suggest';
  required?: boolean;
  /** allowed characters (code fields) */
  pattern?: RegExp;
  patternMessage?: string;
  min?: number;
  max?: number;
  choices?: { value: string | number; label: string }[];
  /** `suggest`: values offered while typing (anything else may be typed too) */
  suggestions?: string[];
  /** `suggest`: a suggestion picked fills other fields */
  onPick?: (value: string, values: Values) => Values;
  maxLength?: number;
}

export type Values = Record<string, string>;

/** The first message wrong with a field's value, if any. */
export function fieldError(def: FieldDef, raw: string, translate: Translate): string | undefined {
  const value = raw.trim();
  if (!value) return def.required ? translate('qe.common.required') : undefined;
  if (def.pattern && !def.pattern.test(value)) return def.patternMessage;
  if (def.maxLength && value.length > def.maxLength) return translate('qe.developer.form.tooLong', { max: def.maxLength });
  if (def.kind === 'integer') {
    const n = Number(value);
    if (!Number.isInteger(n) || (def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) {
      return translate('qe.developer.form.integer', { min: def.min ?? 0, max: def.max ?? 100000 });
    }
  }
  return undefined;
}

/**
 * A small form in a dialog (a menu, an action): "required" and the field's rules on blur and
 * on submit; the server's 422 field errors land on their fields, a business refusal (duplicate
 * code…) has been shown by request() and keeps the dialog open.
 */
export function FieldsDialog({
  open,
  title,
  fields,
  initial,
  onSubmit,
  onClose,
  testId,
  children,
}: {
  open: boolean;
  title: string;
  fields: FieldDef[];
  initial: Values;
  onSubmit: (values: Values) => Promise<void>;
  onClose: () => void;
  testId: string;
  children?: ReactNode;
}) {
  const translate = useTranslate();
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  const initialKey = JSON.stringify(initial);

  useEffect(() => {
    if (!open) return;
    setValues(JSON.parse(initialKey) as Values);
    setErrors({});
  }, [open, initialKey]);

  const check = (def: FieldDef, value: string) => setErrors((e) => ({ ...e, [def.name]: fieldError(def, value, translate) }));
  const set = (name: string, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const submit = async () => {
    const found = Object.fromEntries(fields.map((f) => [f.name, fieldError(f, values[f.name] ?? '', translate)]));
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    try {
      await onSubmit(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])));
    } catch (e) {
      const fieldErrors = ((e as HttpError).body as { errors?: Record<string, string> } | undefined)?.errors;
      if (fieldErrors && typeof fieldErrors === 'object') setErrors(fieldErrors);
    } finally {
      setBusy(false);
    }
  };

  const input = (def: FieldDef, autoFocus: boolean) => {
    const common = {
      label: def.label,
      required: def.required,
      error: Boolean(errors[def.name]),
      helperText: errors[def.name] ?? ' ',
      fullWidth: true,
      margin: 'dense' as const,
      autoFocus,
    };
    if (def.kind === 'suggest') {
      return (
        <Autocomplete
          key={def.name}
          freeSolo
          options={def.suggestions ?? []}
          inputValue={values[def.name] ?? ''}
          onInputChange={(_e, value, reason) => {
            if (reason === 'selectOption' && def.onPick) setValues((v) => def.onPick!(value, { ...v, [def.name]: value }));
            else set(def.name, value);
          }}
          renderInput={(params) => (
            <TextField {...params} {...common} name={def.name} onBlur={() => check(def, values[def.name] ?? '')} slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': `${testId}-${def.name}` } }} />
          )}
        />
      );
    }
    return (
      <TextField
        key={def.name}
        {...common}
        name={def.name}
        select={def.kind === 'select'}
        type={def.kind === 'integer' ? 'number' : 'text'}
        value={values[def.name] ?? ''}
        onChange={(e) => set(def.name, e.target.value)}
        onBlur={() => check(def, values[def.name] ?? '')}
        slotProps={{ htmlInput: { 'data-testid': `${testId}-${def.name}`, ...(def.kind === 'integer' ? { min: def.min, max: def.max, step: 1 } : {}) } }}
      >
        {def.choices?.map((c) => (
          <MenuItem key={c.value} value={String(c.value)}>
            {c.label}
          </MenuItem>
        ))}
      </TextField>
    );
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <DialogTitle id={`${testId}-title`}>{title}</DialogTitle>
      <DialogContent>
        {children}
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {fields.map((f, i) => input(f, i === 0))}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </form>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('qe.common.cancel')}
        </Button>
        <Button variant="contained" onClick={submit} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined} data-testid={`${testId}-save`}>
          {translate('qe.common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
