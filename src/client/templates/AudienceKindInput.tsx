import { useEffect, useState } from 'react';
import { FormControl, FormControlLabel, FormHelperText, FormLabel, MenuItem, Radio, RadioGroup, TextField } from '@mui/material';
import { useLocale } from 'react-admin';
import { AUDIENCE_KINDS, type AudienceKind } from '../../shared/calls/templates';
import { useTranslate } from '../i18n/translate';
import { questionnaireApi, type AudienceOption } from '../questionnaires/form/api';

export interface AudienceValue {
  audienceKind: AudienceKind;
  gradeCode: string | null;
}

/**
 * Whom a template's questionnaire asks, as a kind that means the same people in any school year
 * (docs/product-rules.md#templates); a grade by its code, chosen from the school's grades.
 */
export function AudienceKindInput({ id, value, onChange, errors = {} }: { id: string; value: AudienceValue; onChange: (v: AudienceValue) => void; errors?: Record<string, string> }) {
  const translate = useTranslate();
  const locale = useLocale();
  const [grades, setGrades] = useState<AudienceOption[] | null>(null);
  const ofGrade = value.audienceKind === 'STUDENTS_OF_GRADE';
  useEffect(() => {
    if (!ofGrade || grades) return;
    let live = true;
    questionnaireApi
      .audienceOptions('GRADE', {})
      .then((list) => live && setGrades(list))
      .catch(() => live && setGrades([]));
    return () => {
      live = false;
    };
  }, [ofGrade, grades]);
  const gradeError = errors.gradeCode;
  // a grade the list lacks (removed since) still shows as its code
  const choices = [...(grades ?? [])];
  if (value.gradeCode && grades && !choices.some((g) => g.code === value.gradeCode)) choices.push({ id: -1, code: value.gradeCode, nameHk: value.gradeCode, nameEn: value.gradeCode });
  return (
    <>
      <FormControl error={Boolean(errors.audienceKind)} sx={{ display: 'block', mt: 1 }}>
        <FormLabel id={`${id}-label`}>{translate('qe.template.fields.audienceKind')}</FormLabel>
        <RadioGroup aria-labelledby={`${id}-label`} value={value.audienceKind} onChange={(e) => onChange({ audienceKind: e.target.value as AudienceKind, gradeCode: value.gradeCode })} data-testid={`${id}-kind`}>
          {AUDIENCE_KINDS.map((k) => (
            <FormControlLabel key={k} value={k} control={<Radio size="small" />} label={translate(`qe.template.audience.${k}`)} data-testid={`${id}-kind-${k}`} />
          ))}
        </RadioGroup>
        {errors.audienceKind && <FormHelperText>{errors.audienceKind}</FormHelperText>}
      </FormControl>
      {ofGrade && (
        <TextField
          select
          label={translate('qe.template.fields.grade')}
          value={value.gradeCode ?? ''}
          onChange={(e) => onChange({ audienceKind: value.audienceKind, gradeCode: e.target.value || null })}
          error={Boolean(gradeError)}
          helperText={gradeError ?? (grades && grades.length === 0 ? translate('qe.template.message.noGrades') : ' ')}
          fullWidth
          margin="dense"
          size="small"
          slotProps={{ htmlInput: { 'data-testid': `${id}-grade` }, select: { SelectDisplayProps: { 'data-testid': `${id}-grade-select` } as object } }}
        >
          {choices.map((g) => (
            <MenuItem key={g.code ?? g.id} value={g.code ?? ''} data-testid={`${id}-grade-${g.code}`}>
              {g.code} {locale === 'en' ? g.nameEn : g.nameHk}
            </MenuItem>
          ))}
        </TextField>
      )}
    </>
  );
}
