import { memo, type ChangeEvent } from 'react';
import { Box, TextField, Typography } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { useTranslate } from '../../i18n/translate';
import type { Lang } from '../../../shared/i18n/text';
import { languageKey } from '../form/labels';

export interface TranslationRowProps {
  /** the main text's place (a problem path), the row's id */
  path: string;
  /** the place in words */
  place: string;
  /** the main language's text, read-only here */
  text: string;
  /** its translation ('' when none) */
  value: string;
  max: number;
  multiline: boolean;
  main: Lang;
  other: Lang;
  /** the words of a missing translation ("No English text yet") */
  missingText: string;
  onChange: (path: string, value: string) => void;
}

/**
 * One text in the translations view: where it is, the main text, and the input of its
 * translation. Two columns side by side from 600 px; one above the other on a phone. A missing
 * translation is marked by colour, icon and words, not by colour alone.
 */
export const TranslationRow = memo(function TranslationRow({ path, place, text, value, max, multiline, main, other, missingText, onChange }: TranslationRowProps) {
  const translate = useTranslate();
  const missing = value.trim() === '';
  const language = translate(languageKey(other));
  const originalId = `tr-${path}-original`;
  const inputId = `tr-${path}-input`;
  return (
    <Box
      id={`tr-${path}`}
      data-testid="translation-row"
      data-path={path}
      data-missing={missing ? 'true' : 'false'}
      sx={{ py: 1.5, pl: 1.5, borderLeft: 4, borderLeftColor: missing ? 'warning.main' : 'success.light', scrollMarginTop: 96 }}
    >
      <Typography variant="caption" component="div" sx={{ color: 'text.secondary', mb: 0.5 }}>
        {place}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr', gap: 1, '@media (min-width:600px)': { gridTemplateColumns: '1fr 1fr', gap: 2 } }}>
        <Box
          id={originalId}
          lang={main}
          aria-label={translate('qe.designer.translations.original', { language: translate(languageKey(main)) })}
          data-testid="translation-original"
          sx={{ bgcolor: 'action.hover', borderRadius: 1, px: 1.5, py: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', alignSelf: 'start' }}
        >
          {text}
        </Box>
        <TextField
          fullWidth
          margin="none"
          size="small"
          multiline={multiline}
          minRows={multiline ? 2 : undefined}
          id={inputId}
          label={language}
          value={value}
          onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(path, e.target.value)}
          color={missing ? 'warning' : undefined}
          helperText={
            missing ? (
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color: 'warning.dark' }}>
                <WarningAmberIcon sx={{ fontSize: 16 }} aria-hidden />
                {missingText}
              </Box>
            ) : undefined
          }
          slotProps={{
            htmlInput: {
              lang: other,
              maxLength: max,
              'aria-label': translate('qe.designer.translations.input', { place, language }),
              // the main text first, then the missing mark (MUI names its helper text `${id}-helper-text`)
              'aria-describedby': missing ? `${originalId} ${inputId}-helper-text` : originalId,
              'data-testid': 'translation-input',
            },
          }}
        />
      </Box>
    </Box>
  );
});
