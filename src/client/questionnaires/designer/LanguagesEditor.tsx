import { useState } from 'react';
import { Confirm } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { Lang } from '../../../shared/i18n/text';
import type { Definition } from '../../../shared/questionnaire/definition';
import { languagesOf } from '../../../shared/questionnaire/languages';
import { languageKey } from '../form/labels';
import { LanguagesPicker } from './LanguagesPicker';
import { languageChange, otherLanguage, type Titles } from './translations';

/**
 * The designer's choice of languages. A change that swaps or removes written texts (a new main
 * language, a language dropped) first says what will happen to them and asks; adding a language
 * changes nothing written and is done at once.
 */
export function LanguagesEditor({ definition, titles, onChange }: { definition: Definition; titles: Titles; onChange: (languages: Lang[]) => void }) {
  const translate = useTranslate();
  // what was asked stays while the confirmation fades out
  const [asked, setAsked] = useState<{ languages: Lang[]; change: NonNullable<ReturnType<typeof languageChange>>; before: Lang[] } | null>(null);
  const [open, setOpen] = useState(false);
  const current = languagesOf(definition);
  const pick = (languages: Lang[]) => {
    const change = languageChange(definition, titles, languages);
    if (!change) return onChange(languages);
    setAsked({ languages, change, before: current });
    setOpen(true);
  };
  // the language whose texts stay or become the main ones, and the other one (whose texts move or go)
  const main = asked?.languages[0] ?? current[0];
  const other = asked?.change.kind === 'dropSecond' ? (asked.before[1] ?? otherLanguage(main)) : otherLanguage(main);
  return (
    <>
      <LanguagesPicker value={current} onChange={pick} />
      <Confirm
        isOpen={open}
        title="qe.designer.languages.confirmTitle"
        content={`qe.designer.languages.${asked?.change.kind ?? 'switchMain'}`}
        translateOptions={{ main: translate(languageKey(main)), other: translate(languageKey(other)), smart_count: asked?.change.count ?? 0 }}
        confirm="qe.designer.languages.change"
        confirmColor="warning"
        onConfirm={() => {
          if (asked) onChange(asked.languages);
          setOpen(false);
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
