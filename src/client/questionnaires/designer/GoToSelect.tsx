import type { ChangeEvent } from 'react';
import { TextField } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import { END } from '../../../shared/questionnaire/definition';
import type { MessageKey } from '../../../shared/i18n/keys';

/** What a go-to choice needs of a section. */
export interface SectionRef {
  id: string;
  title?: string;
}

/**
 * Where the respondent goes next: a later section or the end ("submit"). Only later sections can
 * be chosen (branching goes forward); an earlier one still shows, disabled, when an old value or a
 * reordering points there (the problem is shown beside it). Blank means the default `blankKey` says.
 */
export function GoToSelect({
  sections,
  from,
  value,
  onChange,
  label,
  blankKey,
  error,
  testId,
}: {
  sections: SectionRef[];
  /** the index of the section the jump starts in */
  from: number;
  value: string | undefined;
  onChange: (target: string | undefined) => void;
  label: string;
  blankKey: MessageKey;
  error?: string;
  testId?: string;
}) {
  const translate = useTranslate();
  return (
    <TextField
      fullWidth={false}
      select
      size="small"
      label={label}
      value={value ?? ''}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value || undefined)}
      error={Boolean(error)}
      helperText={error}
      sx={{ minWidth: 220, maxWidth: '100%' }}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
    >
      <option value="">{translate(blankKey)}</option>
      {sections.map((s, i) => (
        <option key={s.id} value={s.id} disabled={i <= from}>
          {s.title?.trim() ? translate('qe.designer.goTo.section', { n: i + 1, title: s.title.trim() }) : translate('qe.designer.goTo.sectionUntitled', { n: i + 1 })}
        </option>
      ))}
      <option value={END}>{translate('qe.designer.goTo.end')}</option>
      {value !== undefined && value !== END && !sections.some((s) => s.id === value) && (
        <option value={value} disabled>
          {translate('qe.designer.goTo.unknown')}
        </option>
      )}
    </TextField>
  );
}
