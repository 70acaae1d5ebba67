import { useSyncExternalStore } from 'react';

/** The PDF support state of the top bar (docs/product-rules.md#states): idle until a PDF screen starts loading its font pack. */
export type PdfSupport = 'idle' | 'loading' | 'success' | 'failed';

let state: PdfSupport = 'idle';
const listeners = new Set<() => void>();

export function setPdfSupport(next: PdfSupport): void {
  state = next;
  listeners.forEach((l) => l());
}

export function usePdfSupport(): PdfSupport {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
