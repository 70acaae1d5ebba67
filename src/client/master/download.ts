import { request } from '../providers/http';
import { schoolToday } from '../common/schoolClock';

/** Today as yyyy-MM-dd on the school's clock (file names; docs/conventions.md#dates-and-times). */
export const today = (now = new Date()): string => schoolToday(now);

/** Hands a Blob to the browser as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * GET a file of the API and save it. Failures are shown by the HTTP client: a JSON error
 * inside the file answer as a toast, 719 in the download-errors dialog (docs/errors.md#how-the-client-shows-them).
 */
export async function download(path: string, filename: string, query?: Record<string, unknown>): Promise<void> {
  const blob = await request<Blob>(path, { query, blob: true });
  saveBlob(blob, filename);
}
