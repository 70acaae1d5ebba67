import { useEffect } from 'react';
import { Box, Button, ButtonGroup, Container, Divider, Link, Paper, Typography } from '@mui/material';
import PrintIcon from '@mui/icons-material/Print';
import { useLocale, useSetLocale } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { Link as RouterLink } from 'react-router-dom';
import { LOCALES, type Locale } from '../providers/i18nProvider';
import { useDocumentLanguage } from '../i18n/useDocumentLanguage';
import { TUTORIAL, type TutorialPart } from '../tutorial/content';

/** The anchor of a part (#students) and of one of its sections (#students-answer). */
export const anchorOf = (part: string, section?: string) => (section ? `${part}-${section}` : part);

function Part({ part, locale }: { part: TutorialPart; locale: Locale }) {
  return (
    <Box component="section" id={anchorOf(part.id)} aria-labelledby={`${anchorOf(part.id)}-title`} data-testid={`tutorial-part-${part.id}`} sx={{ mt: 4, scrollMarginTop: 16, '@media print': { breakBefore: 'page' } }}>
      <Typography variant="h5" component="h2" id={`${anchorOf(part.id)}-title`} gutterBottom>
        {part.title[locale]}
      </Typography>
      <Typography sx={{ mb: 2 }}>{part.intro[locale]}</Typography>
      {part.sections.map((s) => (
        <Box key={s.id} component="section" id={anchorOf(part.id, s.id)} sx={{ mb: 3, scrollMarginTop: 16, breakInside: 'avoid' }} data-testid={`tutorial-section-${anchorOf(part.id, s.id)}`}>
          <Typography variant="h6" component="h3" gutterBottom>
            {s.title[locale]}
          </Typography>
          {s.paragraphs.map((p, i) => (
            <Typography key={i} sx={{ mb: 1, overflowWrap: 'anywhere' }}>
              {p[locale]}
            </Typography>
          ))}
          {s.steps && (
            <Box component="ol" sx={{ pl: 3, my: 1 }}>
              {s.steps.map((step, i) => (
                <Typography key={i} component="li" sx={{ mb: 0.5 }}>
                  {step[locale]}
                </Typography>
              ))}
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}

/**
 * /tutorial (public, and the top bar's help icon): the guide for students, teachers and
 * administrators, in the language chosen here or in QE. A table of contents with anchors
 * (/tutorial#teachers-remind), one column on a phone, and without its buttons on paper.
 */
export function TutorialPage() {
  const translate = useTranslate();
  const locale: Locale = useLocale() === 'en' ? 'en' : 'zh-hk';
  const setLocale = useSetLocale();
  // outside the app's layout: the page's language is set here
  useDocumentLanguage(locale);

  // the page is drawn after the browser looked for the #anchor: go there once it exists
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView?.();
  }, []);

  return (
    <Box component="main" sx={{ bgcolor: 'background.default', minHeight: '100vh', py: { xs: 1, sm: 4 }, '@media print': { bgcolor: 'white', py: 0 } }}>
      <Container maxWidth="md" disableGutters sx={{ px: { xs: 1, sm: 2 } }}>
        <Paper sx={{ p: { xs: 2, sm: 4 }, '@media print': { boxShadow: 'none', p: 0 } }} data-testid="tutorial">
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, justifyContent: 'space-between', alignItems: 'center', displayPrint: 'none' }}>
            <Link component={RouterLink} to="/" data-testid="tutorial-back">
              {translate('qe.tutorial.back')}
            </Link>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <ButtonGroup size="small" aria-label={translate('qe.tutorial.language')}>
                {LOCALES.map((l) => (
                  <Button key={l.locale} variant={l.locale === locale ? 'contained' : 'outlined'} onClick={() => setLocale(l.locale)} lang={l.locale} data-testid={`tutorial-lang-${l.locale}`}>
                    {l.name}
                  </Button>
                ))}
              </ButtonGroup>
              <Button size="small" startIcon={<PrintIcon />} onClick={() => window.print()} data-testid="tutorial-print">
                {translate('qe.tutorial.print')}
              </Button>
            </Box>
          </Box>
          <Typography variant="h4" component="h1" sx={{ mt: 2, fontSize: { xs: '1.6rem', sm: '2.1rem' } }}>
            {translate('qe.tutorial.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {translate('qe.tutorial.intro')}
          </Typography>

          <Box component="nav" aria-labelledby="tutorial-contents" sx={{ mt: 3 }} data-testid="tutorial-contents">
            <Typography variant="h6" component="h2" id="tutorial-contents">
              {translate('qe.tutorial.contents')}
            </Typography>
            <Box component="ol" sx={{ pl: 3, my: 1 }}>
              {TUTORIAL.map((part) => (
                <li key={part.id}>
                  <Link href={`#${anchorOf(part.id)}`}>{part.title[locale]}</Link>
                  <Box component="ol" sx={{ pl: 3, listStyleType: 'lower-alpha' }}>
                    {part.sections.map((s) => (
                      <li key={s.id}>
                        <Link href={`#${anchorOf(part.id, s.id)}`}>{s.title[locale]}</Link>
                      </li>
                    ))}
                  </Box>
                </li>
              ))}
            </Box>
          </Box>
          <Divider sx={{ displayPrint: 'none' }} />

          {TUTORIAL.map((part) => (
            <Part key={part.id} part={part} locale={locale} />
          ))}
        </Paper>
      </Container>
    </Box>
  );
}
