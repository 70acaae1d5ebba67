/**
 * What the designer and the questionnaire form need of a questionnaire's two languages
 * (docs/questionnaire-languages.md) besides the definition's own helpers (languages.ts): the
 * title, which the questionnaire record keeps apart from the definition, and what a change of
 * languages would lose or swap.
 */
import type { Lang } from '../../../shared/i18n/text';
import type { Definition, DefinitionProblem } from '../../../shared/questionnaire/definition';
import { languagesOf, missingProblem, missingTranslations, textsOf, translationAt } from '../../../shared/questionnaire/languages';

/** The place of the title's translation among the problems (the server's 422 names it so too). */
export const TITLE_PATH = 'titleTranslation';

/** The questionnaire's title in its main language and in its second ('' when not written). */
export interface Titles {
  title: string;
  titleTranslation: string;
}

/** The other content language. */
export const otherLanguage = (lang: Lang): Lang => (lang === 'en' ? 'zh-hk' : 'en');

/**
 * The title after a change of languages, as `withLanguages` changes the definition's texts: a
 * new main language takes the title's translation as the title (the old title becomes the
 * translation when its language stays); a title without a translation in the new main language
 * stays as it is; a dropped second language drops the title's translation.
 */
export function titlesWithLanguages(t: Titles, before: Lang[], after: Lang[]): Titles {
  const translated = t.titleTranslation.trim() !== '';
  if (after[0] !== before[0]) {
    const swap = translated && before[1] === after[0];
    return { title: swap ? t.titleTranslation : t.title, titleTranslation: swap && after.slice(1).includes(before[0]) ? t.title : '' };
  }
  return { title: t.title, titleTranslation: after[1] !== undefined && after[1] === before[1] ? t.titleTranslation : '' };
}

/**
 * What "design complete" still lacks in the second language: the title's translation first, then
 * every text of the definition (missingTranslations), each at the main text's place.
 */
export function translationGaps(d: Definition, titleTranslation: string | null | undefined): DefinitionProblem[] {
  const langs = languagesOf(d);
  const title = langs.length > 1 && !titleTranslation?.trim() ? [{ path: TITLE_PATH, problem: missingProblem(langs[1]) }] : [];
  return [...title, ...missingTranslations(d)];
}

/**
 * How a change of languages touches what is written, for its confirmation: `switchMain` swaps the
 * texts and their translations, `dropMain` keeps only the second language's texts, `dropSecond`
 * removes the second language's `count` texts. Null when nothing written changes (a language
 * added, or the only language renamed while nothing is translated).
 */
export function languageChange(d: Definition, titles: Titles, after: Lang[]): { kind: 'switchMain' | 'dropMain' | 'dropSecond'; count: number } | null {
  const before = languagesOf(d);
  const written = textsOf(d).length;
  const second = before[1];
  const translated = second ? textsOf(d).filter((t) => translationAt(d, second, t.key)?.trim()).length + (titles.titleTranslation.trim() ? 1 : 0) : 0;
  if (after[0] !== before[0]) {
    if (after.includes(before[0])) return written || translated ? { kind: 'switchMain', count: translated } : null;
    if (before.includes(after[0])) return written || translated ? { kind: 'dropMain', count: translated } : null;
    return null;
  }
  if (second && !after.includes(second) && translated) return { kind: 'dropSecond', count: translated };
  return null;
}
