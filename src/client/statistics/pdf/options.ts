/** What the PDF report is made with: the translate function for its labels and the options of makeStatisticsPdf (report.ts). */
import type { TextPage } from '../../../shared/statistics/types';

import type { Translate } from '../../i18n/messages';

export type { Translate };

export interface StatisticsPdfOptions {
  translate: Translate;
  /** 'zh-hk' or 'en': which of the two names of master data is shown */
  locale: string;
  /** the TrueType font's bytes (font.ts loadFontData) */
  fontData: Uint8Array;
  /** the fallback font's bytes, asked for only when a text of the report needs it (emoji); default font.ts loadFallbackFont */
  fallbackFont?: () => Promise<Uint8Array>;
  /** the first `size` text answers of a question (part 'answer'), or the 'other' texts of a choice question */
  texts?: (questionId: string, part: 'answer' | 'other', size: number) => Promise<TextPage>;
  /** draw the charts (needs a canvas: a browser); default true */
  charts?: boolean;
  /** how many text answers a question lists at most; default 20 */
  textLimit?: number;
  /** the print date; default now */
  now?: Date;
}
