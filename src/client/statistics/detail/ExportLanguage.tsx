import type { ChangeEvent } from 'react';
import { TextField } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import { LOCALES } from '../../i18n/locale';
import type { Lang } from '../../../shared/i18n/text';

/**
 * 'Export in': the language of the Excel file and the PDF report of a questionnaire written in
 * two (docs/questionnaire-languages.md#who-sees-which-language) — the interface language unless
 * the other is chosen. Shown only when there is a choice; each language named in itself, as the
 * top bar's switch names them.
 */
export function ExportLanguage({ languages, value, onChange }: { languages: Lang[]; value: Lang; onChange: (lang: Lang) => void }) {
  const translate = useTranslate();
  if (languages.length < 2) return null;
  return (
    <TextField
      select
      size="small"
      label={translate('qe.statistics.exportIn')}
      value={value}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value === 'en' ? 'en' : 'zh-hk')}
      sx={{ minWidth: 140 }}
      slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'statistics-export-language' } }}
    >
      {languages.map((lang) => (
        <option key={lang} value={lang} lang={lang === 'en' ? 'en' : 'zh-HK'}>
          {LOCALES.find((l) => l.locale === lang)?.name ?? lang}
        </option>
      ))}
    </TextField>
  );
}
