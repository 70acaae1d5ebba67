import { useState } from 'react';
import { CircularProgress } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Button, useLocaleState, useNotify } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { StatisticsDetail } from '../../../shared/statistics/types';
import type { Lang } from '../../../shared/i18n/text';
import { titleIn } from '../../../shared/questionnaire/languages';
import { saveBlob, today } from '../../master/download';
import { fetchDetail, fetchTexts } from '../api';
import { preparePdf, usePreparePdf, type PdfKit } from './pdfState';
import type { Translate } from './options';
import { translateIn } from './translateIn';

/** A title as a file name: characters no file system takes are replaced. */
export const pdfFileName = (title: string, date = today()) => {
  const safe = [...title].map((ch) => (ch.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(ch) ? '_' : ch)).join('').trim();
  return `${safe || 'statistics'}-${date}.pdf`;
};

/**
 * A 'Print PDF' button: mounting it starts loading the PDF support (pdfkit, charts, font); it
 * waits while that loads, then `make` writes the file with it and the button saves it.
 */
export function PrintPdfButton({ testId, make }: { testId: string; make: (kit: PdfKit, interfaceLang: Lang) => Promise<{ blob: Blob; name: string }> }) {
  const state = usePreparePdf();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const waiting = busy || state === 'loading';

  const onClick = async () => {
    setBusy(true);
    try {
      const kit = await preparePdf();
      const { blob, name } = await make(kit, locale === 'en' ? 'en' : 'zh-hk');
      saveBlob(blob, name);
    } catch {
      notify('qe.pdf.failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      label="qe.pdf.print"
      title={waiting ? translate(state === 'loading' ? 'qe.pdf.tip.loading' : 'qe.pdf.printing') : undefined}
      onClick={() => void onClick()}
      disabled={waiting}
      aria-busy={waiting}
      data-testid={testId}
      data-state={state}
    >
      {waiting ? <CircularProgress size={16} color="inherit" aria-hidden /> : <PictureAsPdfIcon />}
    </Button>
  );
}

/**
 * The language a report is made in and its translate function: `language` when one is chosen
 * (ExportLanguage), its messages loaded then, else the interface's.
 */
export async function reportLanguage(language: Lang | undefined, interfaceLang: Lang, translate: Translate): Promise<{ lang: Lang; t: Translate; other: boolean }> {
  const lang = language ?? interfaceLang;
  if (lang === interfaceLang) return { lang, t: translate, other: false };
  return { lang, t: await translateIn(lang), other: true };
}

/**
 * 'Print PDF' on the statistics detail (data-statistics.print): the report of what the detail
 * shows (the same filter), made in the browser and saved as `<title>-<yyyy-MM-dd>.pdf`.
 * In a `language` other than the interface's, the questionnaire's texts are asked for again in
 * that language and the report's own texts taken from that language's messages.
 */
export function PdfButton({ detail, language }: { detail: StatisticsDetail; language?: Lang }) {
  const translate = useTranslate();
  return (
    <PrintPdfButton
      testId="statistics-pdf"
      make={async ({ report, fontData }, interfaceLang) => {
        const id = detail.questionnaire.id;
        const { lang, t, other } = await reportLanguage(language, interfaceLang, (key, options) => translate(key, options));
        const shown = other ? await fetchDetail(id, detail.filter, lang) : detail;
        const blob = await report.makeStatisticsPdf(shown, {
          translate: t,
          locale: lang,
          fontData,
          texts: (questionId, part, size) => fetchTexts(id, detail.filter, { questionId, part, q: '', page: 1, size }),
        });
        return { blob, name: pdfFileName(titleIn(shown.questionnaire, lang)) };
      }}
    />
  );
}
