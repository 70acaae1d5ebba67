import { Box, FormHelperText } from '@mui/material';
import { useController } from 'react-hook-form';
import { useTranslate } from '../../i18n/translate';
import type { Lang } from '../../../shared/i18n/text';
import { LanguagesPicker } from '../designer/LanguagesPicker';

/**
 * The languages of a new questionnaire (the form's `languages`): they start as the school
 * settings' (useDefaultLanguages). Once created, the designer changes them, since a change then
 * moves texts (docs/questionnaire-languages.md).
 */
export function LanguagesInput({ disabled }: { disabled?: boolean }) {
  const translate = useTranslate();
  const { field } = useController<{ languages: Lang[] }, 'languages'>({ name: 'languages' });
  return (
    <Box sx={{ my: 1.5 }} data-testid="input-languages">
      <LanguagesPicker value={field.value?.length ? field.value : ['zh-hk']} onChange={field.onChange} disabled={disabled} />
      <FormHelperText>{translate('qe.questionnaire.message.languagesHelp')}</FormHelperText>
    </Box>
  );
}
