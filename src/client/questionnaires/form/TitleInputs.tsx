import { TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useTranslate } from '../../i18n/translate';
import type { Lang } from '../../../shared/i18n/text';
import { fieldKey, languageKey } from './labels';
import { TITLE_MAX } from './values';

/**
 * The questionnaire's title, and in two languages its title in the second one
 * (`titleTranslation`, docs/questionnaire-languages.md), each labelled with its language.
 */
export function TitleInputs({ readOnly }: { readOnly: boolean }) {
  const translate = useTranslate();
  const watched = useWatch<{ languages: Lang[] }, 'languages'>({ name: 'languages' });
  const languages: Lang[] = watched?.length ? watched : ['zh-hk'];
  const titleIn = (lang: Lang) => translate('qe.questionnaire.fields.titleIn', { language: translate(languageKey(lang)) });
  const two = languages.length > 1;
  return (
    <>
      <TextInput
        source="title"
        label={two ? titleIn(languages[0]) : translate(fieldKey('title'))}
        disabled={readOnly}
        isRequired={!readOnly}
        fullWidth
        slotProps={{ htmlInput: { lang: languages[0], maxLength: TITLE_MAX } }}
      />
      {two && (
        <TextInput
          source="titleTranslation"
          label={titleIn(languages[1])}
          disabled={readOnly}
          fullWidth
          slotProps={{ htmlInput: { lang: languages[1], maxLength: TITLE_MAX, 'data-testid': 'title-translation' } }}
        />
      )}
    </>
  );
}
