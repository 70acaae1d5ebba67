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
import { preparePdf, usePreparePdf } from './pdfState';
import { translateIn } from './translateIn';

/** A title as a file name: characters no file system takes are replaced. */
export const pdfFileName = (title: string, date = today()) => {
  const safe = [...title].map((ch) => (ch.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(ch) ? '_' : ch)).join('').trim();
  return `${safe || 'statistics'}-${date}.pdf`;
};

/**
 * 'Print PDF' on the statistics detail (data-statistics.print): the report of what the detail
 * shows (the same filter), made in the browser and saved as `<title>-<yyyy-MM-dd>.pdf`.
 * Mounting it starts loading the PDF support (pdfkit, charts, font); it waits while that loads.
 * In a `language` other than the interface's, the questionnaire's texts are asked for again in
 * that language and the report's own texts taken from that language's messages.
 */
export function PdfButton({ detail, language }: { detail: StatisticsDetail; language?: Lang }) {
  const state = usePreparePdf();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const waiting = busy || state === 'loading';

  const onClick = async () => {
    setBusy(true);
    try {
      const { report, fontData } = await preparePdf();
      const id = detail.questionnaire.id;
      const lang: Lang = language ?? (locale === 'en' ? 'en' : 'zh-hk');
      const other = lang !== (locale === 'en' ? 'en' : 'zh-hk');
      const [shown, t] = other ? await Promise.all([fetchDetail(id, detail.filter, lang), translateIn(lang)]) : [detail, translate];
      const blob = await report.makeStatisticsPdf(shown, {
        translate: (key, options) => t(key, options),
        locale: lang,
        fontData,
        texts: (questionId, part, size) => fetchTexts(id, detail.filter, { questionId, part, q: '', page: 1, size }),
      });
      saveBlob(blob, pdfFileName(titleIn(shown.questionnaire, lang)));
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
      data-testid="statistics-pdf"
      data-state={state}
    >
      {waiting ? <CircularProgress size={16} color="inherit" aria-hidden /> : <PictureAsPdfIcon />}
    </Button>
  );
}
