import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, Notification, testDataProvider } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { resetPdfForTests } from '../../../src/client/statistics/pdf/pdfState';
import { PdfButton, pdfFileName } from '../../../src/client/statistics/pdf/PdfButton';
import { today } from '../../../src/client/master/download';
import { fakeFetch, type FetchCall } from '../questionnaires/support';
import { detail, fontData, pdfText } from './fixture';

const font = fontData();
let saved: { name: string; blob: Blob }[] = [];
let blobs = new Map<string, Blob>();

beforeEach(() => {
  saved = [];
  blobs = new Map();
  // the browser's download: an object URL clicked on as a link
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.set(`blob:${blobs.size}`, b), `blob:${blobs.size - 1}`), revokeObjectURL: () => undefined }));
  // jsdom has no canvas: the report leaves its charts out
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.getAttribute('href')!)! });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  resetPdfForTests();
});

const bytesOf = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.readAsArrayBuffer(blob);
  });

function renderButton(fetchAnswer: (call: FetchCall) => unknown) {
  const calls = fakeFetch(fetchAnswer);
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider} store={memoryStore()}>
      <PdfButton detail={detail({ filter: { classId: 5 } })} />
      <Notification />
    </AdminContext>,
  );
  return calls;
}

describe('Print PDF', () => {
  it('waits for the font, then saves the report of the detail (with the first texts of its filter) as <title>-<date>.pdf', async () => {
    let loadFont: (v: Uint8Array) => void = () => undefined;
    resetPdfForTests({ font: () => new Promise<Uint8Array>((r) => (loadFont = r)) });
    const calls = renderButton((call) => (call.path === '/v1/statistics/41/texts' ? { list: [{ replyId: 'x', text: '多些課外活動' }], total: 23, withheld: null } : { status: 404, code: 404 }));
    const button = screen.getByTestId('statistics-pdf') as HTMLButtonElement;
    expect(button.textContent).toContain('列印 PDF');
    expect(button.disabled).toBe(true);
    loadFont(font);
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });
    expect(saved[0].name).toBe(`二零二五年度學生意見調查-${today()}.pdf`);
    expect(saved[0].blob.type).toBe('application/pdf');
    const text = pdfText(await bytesOf(saved[0].blob));
    expect(text).toContain('二零二五年度學生意見調查');
    expect(text).toContain('多些課外活動');
    const textCalls = calls.filter((c) => c.path === '/v1/statistics/41/texts');
    expect(textCalls.map((c) => [c.query.get('questionId'), c.query.get('part'), c.query.get('classId'), c.query.get('page'), c.query.get('size')])).toEqual([
      ['q1', 'other', '5', '1', '20'],
      ['q5', null, '5', '1', '20'],
    ]);
  });

  it('tells the user when the PDF cannot be made', async () => {
    resetPdfForTests({ font: () => Promise.resolve(font) });
    renderButton(() => ({ status: 500, code: 500, msg: 'down' }));
    const button = screen.getByTestId('statistics-pdf') as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    await screen.findByText('未能製作 PDF，請稍後再試。', undefined, { timeout: 10_000 });
    expect(saved).toEqual([]);
  });

  it('names the file after the title without characters a file system refuses', () => {
    expect(pdfFileName('問卷 A/B: 結果?', '2025-04-02')).toBe('問卷 A_B_ 結果_-2025-04-02.pdf');
  });
});
