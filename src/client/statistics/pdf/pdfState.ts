import { useEffect } from 'react';
import { setPdfSupport, usePdfSupport, type PdfSupport } from '../../providers/pdfSupport';
import type * as Report from './report';

/**
 * The PDF support state of the top bar (docs/product-rules.md#states: loading, success, failed): 'idle' until a
 * PDF screen opens, then pdfkit, chart.js (report.ts) and the Traditional Chinese font are
 * loaded once, on demand, and the state says how that went. The state lives in the app's one
 * store of it (providers/pdfSupport.ts, a useSyncExternalStore store) so the top bar reads it
 * without loading anything of the PDF.
 */
export type PdfState = PdfSupport;

/** What a report needs once loaded: the report module (with pdfkit and chart.js) and the font (its TrueType bytes). */
export interface PdfKit {
  report: typeof Report;
  fontData: Uint8Array;
}

export interface PdfLoaders {
  report: () => Promise<typeof Report>;
  font: () => Promise<Uint8Array>;
}

const defaultLoaders: PdfLoaders = {
  report: () => import('./report'),
  font: () => import('./font').then((m) => m.loadFontData()),
};

let loaders = defaultLoaders;
let state: PdfState = 'idle';
let ready: Promise<PdfKit> | null = null;

function set(next: PdfState): void {
  state = next;
  setPdfSupport(next);
}

export const getPdfState = (): PdfState => state;

/**
 * Starts loading the report module and the font, once: later calls answer the same promise.
 * After a failure the next call tries again (the top bar's retry).
 */
export function preparePdf(): Promise<PdfKit> {
  if (ready) return ready;
  set('loading');
  const attempt = Promise.all([loaders.report(), loaders.font()]).then(
    ([report, fontData]) => {
      set('success');
      return { report, fontData };
    },
    (e: unknown) => {
      ready = null;
      set('failed');
      throw e;
    },
  );
  ready = attempt;
  return attempt;
}

/** The state, for components (re-renders on change). */
export const usePdfState = (): PdfState => usePdfSupport();

/** Starts the PDF support when a PDF screen mounts (the statistics detail, through PdfButton); answers the state. */
export function usePreparePdf(): PdfState {
  useEffect(() => {
    preparePdf().catch(() => undefined); // the failure is shown by the state
  }, []);
  return usePdfState();
}

/** Tests only: other loaders, and back to 'idle'. */
export function resetPdfForTests(next: Partial<PdfLoaders> = {}): void {
  loaders = { ...defaultLoaders, ...next };
  ready = null;
  set('idle');
}
