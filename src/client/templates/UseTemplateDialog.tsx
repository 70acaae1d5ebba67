import { useEffect, useState, type MouseEvent } from 'react';
import { Autocomplete, Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, TextField, Typography } from '@mui/material';
import { useLocale, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { TemplateSummary } from '../../shared/calls/templates';
import { QUESTIONNAIRE_TYPES } from '../../shared/questionnaire/enums';
import type { QuestionnaireType } from '../../shared/questionnaire/types';
import { useTranslate } from '../i18n/translate';
import { formsPath } from '../questionnaires/form/paths';
import { fieldErrorsOf, templateApi } from './api';
import { AudienceKindInput, type AudienceValue } from './AudienceKindInput';
import { templateName } from './labels';

/** The templates offered where none is chosen yet (the questionnaire list): searched in both languages as the user types. */
function TemplatePicker({ value, onChange, error }: { value: TemplateSummary | null; onChange: (t: TemplateSummary | null) => void; error?: string }) {
  const translate = useTranslate();
  const locale = useLocale();
  const [text, setText] = useState('');
  const [options, setOptions] = useState<TemplateSummary[]>([]);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      templateApi
        .search(text.trim())
        .then((page) => live && setOptions(page.list))
        .catch(() => live && setOptions([]));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);
  return (
    <Autocomplete
      options={options}
      value={value}
      onChange={(_, t) => onChange(t)}
      onInputChange={(_, t, reason) => reason === 'input' && setText(t)}
      filterOptions={(o) => o}
      getOptionLabel={(t) => templateName(t, locale)}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={translate('qe.common.noData')}
      renderInput={(params) => (
        <TextField
          {...params}
          label={translate('qe.template.fields.template')}
          placeholder={translate('qe.template.use.searchTemplate')}
          error={Boolean(error)}
          helperText={error ?? ' '}
          margin="dense"
          size="small"
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'use-template-picker' } }}
        />
      )}
      renderOption={({ key, ...props }, t) => (
        <li key={key} {...props} data-testid="use-template-option">
          {templateName(t, locale)}
        </li>
      )}
    />
  );
}

/**
 * "New from template" (form-template.view and form.add): whom the questionnaire asks — the
 * template's own audience kind at first, or another, a grade chosen for "all students of a
 * grade" — and its type; then the draft is made in this school year and its designer opens.
 * A retired template is refused (709) with the server's message.
 */
export function UseTemplateDialog({ template: given, onClose }: { template?: TemplateSummary; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const locale = useLocale();
  const [template, setTemplate] = useState<TemplateSummary | null>(given ?? null);
  const [audience, setAudience] = useState<AudienceValue>(given ? { audienceKind: given.audienceKind, gradeCode: given.gradeCode } : { audienceKind: 'NONE', gradeCode: null });
  const [type, setType] = useState<QuestionnaireType>(given?.type ?? 'NAMED');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const choose = (t: TemplateSummary | null) => {
    setTemplate(t);
    setErrors({});
    if (t) {
      setAudience({ audienceKind: t.audienceKind, gradeCode: t.gradeCode });
      setType(t.type);
    }
  };
  const submit = async () => {
    if (!template) return setErrors({ template: translate('qe.template.message.chooseTemplate') });
    if (audience.audienceKind === 'STUDENTS_OF_GRADE' && !audience.gradeCode) return setErrors({ gradeCode: translate('qe.template.message.chooseGrade') });
    setBusy(true);
    try {
      const made = await templateApi.use(template.id, {
        type,
        audienceKind: audience.audienceKind,
        gradeCode: audience.audienceKind === 'STUDENTS_OF_GRADE' ? audience.gradeCode : null,
      });
      if (made.audience.found) notify('qe.template.message.created', { type: 'success' });
      else notify('qe.template.message.gradeMissing', { type: 'warning', messageArgs: { grade: made.audience.gradeCode ?? '' } });
      navigate(formsPath('doc', made.questionnaire.id));
    } catch (e) {
      setErrors(fieldErrorsOf(e) ?? {});
      setBusy(false);
    }
  };
  const stop = (e: MouseEvent) => e.stopPropagation();
  return (
    <Dialog open onClose={onClose} onClick={stop} aria-labelledby="qe-use-template-title" data-testid="use-template-dialog" fullWidth maxWidth="sm">
      <DialogTitle id="qe-use-template-title">{translate('qe.template.use.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {translate('qe.template.use.intro')}
        </Typography>
        {given ? (
          <Typography variant="subtitle1" component="p" sx={{ fontWeight: 500 }} data-testid="use-template-name">
            {templateName(given, locale)}
          </Typography>
        ) : (
          <TemplatePicker value={template} onChange={choose} error={errors.template} />
        )}
        {template && (
          <>
            <AudienceKindInput id="use-template-audience" value={audience} onChange={(v) => {
                setAudience(v);
                setErrors({});
              }} errors={errors} />
            <FormControl sx={{ mt: 1 }}>
              <FormLabel id="qe-use-template-type">{translate('qe.questionnaire.fields.type')}</FormLabel>
              <RadioGroup row aria-labelledby="qe-use-template-type" value={type} onChange={(e) => setType(e.target.value as QuestionnaireType)}>
                {QUESTIONNAIRE_TYPES.map((t) => (
                  <FormControlLabel key={t} value={t} control={<Radio size="small" />} label={translate(`qe.questionnaire.type.${t}`)} />
                ))}
              </RadioGroup>
            </FormControl>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('qe.common.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy} data-testid="use-template-submit">
          {translate('qe.template.action.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
