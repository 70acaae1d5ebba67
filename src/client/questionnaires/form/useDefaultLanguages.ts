import { useMemo } from 'react';
import { useSchoolInfo } from '../../auth/useSchoolInfo';
import type { Lang } from '../../../shared/i18n/text';
import { CONTENT_LANGUAGES } from '../../../shared/questionnaire/languages';

/**
 * The languages a new questionnaire starts in: those the school settings mark required, in their
 * list's order (the first the main one); Chinese when none is, or when the settings cannot be
 * read. `pending` while they are being read, so that the form does not start with a guess.
 */
export function useDefaultLanguages(): { languages: Lang[]; pending: boolean } {
  const { data, isPending } = useSchoolInfo();
  const languages = useMemo<Lang[]>(() => {
    const required = (data?.languageList ?? []).filter((l) => l.required === '1').map((l) => l.code).filter((c): c is Lang => (CONTENT_LANGUAGES as readonly string[]).includes(c));
    const distinct = [...new Set(required)];
    return distinct.length ? distinct : ['zh-hk'];
  }, [data]);
  return { languages, pending: isPending };
}
