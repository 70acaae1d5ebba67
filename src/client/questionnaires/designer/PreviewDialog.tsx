import { useMemo, useState } from 'react';
import { AppBar, Box, Dialog, IconButton, ToggleButton, ToggleButtonGroup, Toolbar, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { Lang } from '../../../shared/i18n/text';
import type { Definition } from '../../../shared/questionnaire/definition';
import { definitionIn, languageShown, languagesOf, titleIn } from '../../../shared/questionnaire/languages';
import type { Answers } from '../../../shared/questionnaire/answers';
import { QuestionnaireView } from '../respondent/QuestionnaireView';
import { languageKey } from '../form/labels';
import type { Titles } from './translations';

/**
 * The questionnaire exactly as a respondent will see it, full screen; the answers given here stay
 * here. In two languages, first in the designer's own language, and either one at a switch (a
 * text not yet translated shows in the main language, as respondents would see it).
 */
export function PreviewDialog({ definition, titles, onClose }: { definition: Definition; titles: Titles; onClose: () => void }) {
  const translate = useTranslate();
  const locale: Lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const languages = languagesOf(definition);
  const [lang, setLang] = useState<Lang>(() => languageShown(definition, locale));
  const [answers, setAnswers] = useState<Answers>({});
  const shown = languages.includes(lang) ? lang : languages[0];
  const seen = useMemo(() => definitionIn(definition, shown), [definition, shown]);
  return (
    <Dialog fullScreen open onClose={onClose} aria-labelledby="qe-preview-title" data-testid="preview-dialog">
      <AppBar position="sticky" color="default" elevation={1}>
        <Toolbar variant="dense" sx={{ gap: 1 }}>
          <IconButton edge="start" onClick={onClose} aria-label={translate('qe.designer.preview.close')} data-testid="preview-close">
            <CloseIcon />
          </IconButton>
          <Typography id="qe-preview-title" variant="h6" component="h2" sx={{ flex: 1 }} noWrap>
            {translate('qe.designer.preview.title')}
          </Typography>
          {languages.length > 1 && (
            <ToggleButtonGroup size="small" exclusive value={shown} onChange={(_, v: Lang | null) => v && setLang(v)} aria-label={translate('qe.designer.preview.language')} data-testid="preview-language">
              {languages.map((l) => (
                <ToggleButton key={l} value={l} data-testid={`preview-language-${l}`}>
                  {translate(languageKey(l))}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          )}
        </Toolbar>
      </AppBar>
      <Box sx={{ bgcolor: 'grey.100', flex: 1, p: { xs: 1 }, pt: 2 }} lang={shown}>
        <QuestionnaireView definition={seen} value={answers} onChange={setAnswers} preview title={titleIn({ ...titles, languages }, shown)} />
      </Box>
    </Dialog>
  );
}
