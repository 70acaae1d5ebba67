import { useMemo } from 'react';
import { useSchoolInfo } from '../../auth/useSchoolInfo';
import type { Lang } from '../../../shared/i18n/text';
import { CONTENT_LANGUAGES } from '../../../shared/questionnaire/languages';

/**
 * The language a new questionnaire starts in: the first the school settings mark required (the
 * school's main language); Chinese when none is, or when the settings cannot be read. One
 * language, not every required one: a second language makes "design complete" wait for every
 * text's translation, which a teacher chooses to take on (the chooser beside the title), not one a
 * setting made for names imposes (docs/questionnaire-languages.md#the-model). `pending` while the
 * settings are being read, so that the form does not start with a guess.
 */
export function useDefaultLanguages(): { languages: Lang[]; pending: boolean } {
  const { data, isPending } = useSchoolInfo();
  const languages = useMemo<Lang[]>(() => {
    const required = (data?.languageList ?? []).filter((l) => l.required === '1').map((l) => l.code).filter((c): c is Lang => (CONTENT_LANGUAGES as readonly string[]).includes(c));
    const distinct = [...new Set(required)];
    return distinct.length ? distinct.slice(0, 1) : ['zh-hk'];
  }, [data]);
  return { languages, pending: isPending };
}
