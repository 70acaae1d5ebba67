/**
 * Messages that code outside React (the HTTP client) hands to the layout, which shows them:
 * toasts, the import-errors dialog (706) and the download-errors dialog (719).
 */
export type Notice =
  | { kind: 'toast'; message: string; type: 'error' | 'success' | 'info' | 'warning'; translate?: boolean }
  | { kind: 'import-errors'; lines: string[] }
  | { kind: 'download-errors'; lines: string[] };

type Listener = (notice: Notice) => void;
const listeners = new Set<Listener>();

export function publish(notice: Notice): void {
  for (const l of listeners) l(notice);
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
