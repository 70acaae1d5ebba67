import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch } from 'react';
import { Alert, Box, Divider, FormControlLabel, Paper, Switch, Typography } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import type { Definition } from '../../../shared/questionnaire/definition';
import { languagesOf, missingProblem, textsOf, translationAt, type TextKey } from '../../../shared/questionnaire/languages';
import { languageKey } from '../form/labels';
import type { DesignerAction } from './model';
import { describePath, problemText } from './problems';
import { TranslationRow } from './TranslationRow';
import { TITLE_PATH, type Titles } from './translations';

/** The longest title the record takes (src/shared/calls/questionnaires.ts). */
const TITLE_MAX = 200;

/** Texts written over several lines in the main editors are given several lines here too. */
const multilineAt = (path: string) => path === 'closingMessage' || path.endsWith('.description') || /questions\.\d+\.title$/.test(path);

interface Entry {
  path: string;
  key: TextKey | null;
  text: string;
  value: string;
  max: number;
}

/**
 * The translations view of a questionnaire in two languages (docs/questionnaire-languages.md):
 * every text written in the main language — the title first, then `textsOf` in the designer's
 * order — with its place, the main text read-only and an input for the second language; how many
 * are missing on top, and a switch to see only those. The switch keeps the rows it found missing
 * while they are being filled in, so a row does not vanish under the typing.
 */
export function TranslationsPanel({ definition, dispatch, titles, onTitleTranslation }: { definition: Definition; dispatch: Dispatch<DesignerAction>; titles: Titles; onTitleTranslation: (value: string) => void }) {
  const translate = useTranslate();
  const [main, other] = languagesOf(definition);
  const [onlyMissing, setOnlyMissing] = useState<Set<string> | null>(null);
  const sizes = definition.sections.map((s) => s.questions.length);
  const entries: Entry[] = useMemo(
    () => [
      { path: TITLE_PATH, key: null, text: titles.title, value: titles.titleTranslation, max: TITLE_MAX },
      ...textsOf(definition).map((t) => ({ path: t.path, key: t.key, text: t.text, max: t.max, value: translationAt(definition, other, t.key) ?? '' })),
    ],
    [definition, other, titles],
  );
  const missing = entries.filter((e) => e.value.trim() === '');
  const shown = onlyMissing ? entries.filter((e) => onlyMissing.has(e.path)) : entries;

  // the rows' callback stays the same while their keys change with every edit
  const keys = useRef(new Map<string, TextKey | null>());
  useEffect(() => {
    keys.current = new Map(entries.map((e) => [e.path, e.key]));
  });
  const onChange = useCallback(
    (path: string, value: string) => {
      const key = keys.current.get(path);
      if (path === TITLE_PATH) onTitleTranslation(value);
      else if (key) dispatch({ type: 'translate', lang: other, key, value });
    },
    [dispatch, other, onTitleTranslation],
  );

  const language = translate(languageKey(other));
  const missingText = problemText(translate, missingProblem(other));
  return (
    <Paper variant="outlined" sx={{ p: 1.5, '@media (min-width:600px)': { p: 2 } }} data-testid="translations-panel">
      <Typography variant="h6" component="h2">
        {translate('qe.designer.translations.title', { main: translate(languageKey(main)), other: language })}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
        {translate('qe.designer.translations.intro', { main: translate(languageKey(main)), other: language })}
      </Typography>
      <Alert severity={missing.length ? 'warning' : 'success'} sx={{ mb: 1 }} data-testid="translations-count" role="status">
        {missing.length ? translate('qe.designer.translations.missing', { smart_count: missing.length, other: language }) : translate('qe.designer.translations.allDone', { other: language })}
      </Alert>
      <FormControlLabel
        control={
          <Switch
            checked={onlyMissing !== null}
            onChange={(_, on) => setOnlyMissing(on ? new Set(missing.map((e) => e.path)) : null)}
            slotProps={{ input: { 'data-testid': 'translations-only-missing' } as object }}
          />
        }
        label={translate('qe.designer.translations.onlyMissing')}
      />
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {shown.map((e, i) => (
          <Box component="li" key={e.path}>
            {i > 0 && <Divider />}
            <TranslationRow
              path={e.path}
              place={describePath(translate, e.path, sizes)}
              text={e.text}
              value={e.value}
              max={e.max}
              multiline={multilineAt(e.path)}
              main={main}
              other={other}
              missingText={missingText}
              onChange={onChange}
            />
          </Box>
        ))}
      </Box>
      {shown.length === 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary', py: 2 }}>
          {translate('qe.designer.translations.noneMissing')}
        </Typography>
      )}
    </Paper>
  );
}
