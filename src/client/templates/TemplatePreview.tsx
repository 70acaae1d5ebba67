import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Backdrop, CircularProgress } from '@mui/material';
import type { TemplateDetail } from '../../shared/calls/templates';
import type { Definition } from '../../shared/questionnaire/definition';
import { languagesOf } from '../../shared/questionnaire/languages';
import { useTranslate } from '../i18n/translate';
import { templateApi } from './api';

// the designer's preview, loaded with its question views when first asked for
const PreviewDialog = lazy(() => import('../questionnaires/designer/PreviewDialog').then((m) => ({ default: m.PreviewDialog })));

function Waiting() {
  const translate = useTranslate();
  return (
    <Backdrop open sx={{ zIndex: (theme) => theme.zIndex.modal }}>
      <CircularProgress aria-label={translate('qe.template.message.loading')} />
    </Backdrop>
  );
}

/** The template's questions as a respondent would see them (the designer's preview): read from GET …/:id, nothing saved. */
export function TemplatePreview({ id, onClose }: { id: number; onClose: () => void }) {
  const [template, setTemplate] = useState<TemplateDetail | null>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    let live = true;
    templateApi
      .get(id)
      .then((t) => live && setTemplate(t))
      .catch(() => live && close.current()); // request() has shown why
    return () => {
      live = false;
    };
  }, [id]);
  if (!template) return <Waiting />;
  const definition = template.definition as Definition;
  const [main, second] = languagesOf(definition);
  const nameIn = (lang: string | undefined) => (lang === 'en' ? template.nameEn : lang ? template.nameHk : '');
  return (
    <Suspense fallback={<Waiting />}>
      <PreviewDialog definition={definition} titles={{ title: nameIn(main), titleTranslation: nameIn(second) }} onClose={onClose} />
    </Suspense>
  );
}
