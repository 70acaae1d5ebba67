import { Box, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { LOCALES } from '../i18n/locale';
import type { Lang } from '../../shared/i18n/text';

/**
 * The languages a questionnaire is written in, on the answer screen itself
 * (docs/questionnaire-languages.md#who-sees-which-language): choosing one changes the interface
 * language as the top bar's switch does, so that the questionnaire and the screen around it speak
 * the same language. Named as the top bar names them, each in itself, so that a reader finds
 * their own whatever the screen shows now.
 */
export function ContentLanguageSwitch({ languages, value, onChange }: { languages: Lang[]; value: Lang; onChange: (lang: Lang) => void }) {
  const translate = useTranslate();
  if (languages.length < 2) return null;
  return (
    // over the questionnaire's column, at its right
    <Box sx={{ maxWidth: 760, mx: 'auto', width: '100%', display: 'flex', justifyContent: 'flex-end' }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={value}
        onChange={(_e, next: Lang | null) => next && next !== value && onChange(next)}
        aria-label={translate('qe.filling.language')}
        data-testid="content-language"
      >
        {languages.map((lang) => (
          <ToggleButton key={lang} value={lang} lang={lang === 'en' ? 'en' : 'zh-HK'} sx={{ py: 0.25, px: 1.5, textTransform: 'none' }} data-testid={`content-language-${lang}`}>
            {LOCALES.find((l) => l.locale === lang)?.name ?? lang}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Box>
  );
}
