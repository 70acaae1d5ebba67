/** The texts of the PDF report: the text answers a question lists, and the note of a withheld result. */
import type { TextPage, Withheld } from '../../../shared/statistics/types';
import { GREY, type Writer } from './layout';
import type { Translate } from './options';

/** The note of a withheld result: a group too small, or too few replies in all. */
export const withheldKey = (w: Withheld | null | undefined) => (w?.reason === 'total' ? 'qe.pdf.withheldTotal' : 'qe.pdf.withheld');

export function textList(w: Writer, page: TextPage | null, total: number, t: Translate, limit: number): void {
  if (page?.withheld) {
    w.text(t(withheldKey(page.withheld), { min: page.withheld.minGroupSize }), { size: 9, color: GREY });
    return;
  }
  if (!total) {
    w.text(t('qe.pdf.noAnswers'), { size: 9, color: GREY });
    return;
  }
  const list = page?.list.slice(0, limit) ?? [];
  const all = page?.total ?? total;
  w.text(list.length < all && list.length ? t('qe.pdf.textsShown', { shown: list.length, total: all }) : t('qe.pdf.textsTotal', { total: all }), { size: 9, color: GREY });
  list.forEach((answer, i) => w.text(`${i + 1}. ${answer.text}`, { size: 9, indent: 3, after: 0.6 }));
  w.gap(1);
}
