import type { ChangeEvent } from 'react';
import { Box, TextField } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import type { Lang } from '../../../shared/i18n/text';
import { languageKey } from '../form/labels';
import { otherLanguage } from './translations';

type LanguageSet = 'zhHk' | 'en' | 'both';

const setOf = (value: Lang[]): LanguageSet => (value.length > 1 ? 'both' : value[0] === 'en' ? 'en' : 'zhHk');

/**
 * The languages a questionnaire is written in (docs/questionnaire-languages.md): Chinese only,
 * English only or both, and with both, which is the main one (the first). Only says what was
 * chosen: what a change does to the texts is the caller's (the designer confirms a swap).
 */
export function LanguagesPicker({ value, onChange, disabled }: { value: Lang[]; onChange: (languages: Lang[]) => void; disabled?: boolean }) {
  const translate = useTranslate();
  const main = value[0] ?? 'zh-hk';
  const pickSet = (e: ChangeEvent<HTMLInputElement>) => {
    const set = e.target.value as LanguageSet;
    onChange(set === 'both' ? [main, otherLanguage(main)] : [set === 'en' ? 'en' : 'zh-hk']);
  };
  const pickMain = (e: ChangeEvent<HTMLInputElement>) => {
    const lang = e.target.value as Lang;
    onChange([lang, otherLanguage(lang)]);
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }} data-testid="languages-picker">
      <TextField
        fullWidth={false}
        select
        size="small"
        label={translate('qe.questionnaire.fields.languages')}
        value={setOf(value)}
        onChange={pickSet}
        disabled={disabled}
        sx={{ minWidth: 180, flex: '0 1 220px' }}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'languages-set' } }}
      >
        {(['zhHk', 'en', 'both'] as const).map((s) => (
          <option key={s} value={s}>
            {translate(`qe.questionnaire.languageSet.${s}`)}
          </option>
        ))}
      </TextField>
      {value.length > 1 && (
        <TextField
          fullWidth={false}
          select
          size="small"
          label={translate('qe.questionnaire.fields.mainLanguage')}
          value={main}
          onChange={pickMain}
          disabled={disabled}
          sx={{ minWidth: 140, flex: '0 1 180px' }}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'languages-main' } }}
        >
          {(['zh-hk', 'en'] as const).map((l) => (
            <option key={l} value={l}>
              {translate(languageKey(l))}
            </option>
          ))}
        </TextField>
      )}
    </Box>
  );
}
