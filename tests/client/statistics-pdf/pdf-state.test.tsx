import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { getPdfState, preparePdf, resetPdfForTests, usePreparePdf } from '../../../src/client/statistics/pdf/pdfState';
import { PdfStatus } from '../../../src/client/statistics/pdf/PdfStatus';
import { PdfSupportState } from '../../../src/client/layout/TopBarItems';
import * as report from '../../../src/client/statistics/pdf/report';

/** A loader the test settles by hand, counting its calls. */
function gate<T>() {
  let calls = 0;
  let settle: { resolve: (v: T) => void; reject: (e: unknown) => void } | null = null;
  const load = () => {
    calls += 1;
    return new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  };
  return { load, calls: () => calls, resolve: (v: T) => settle!.resolve(v), reject: (e: unknown) => settle!.reject(e) };
}

function Shell({ prepare = false }: { prepare?: boolean }) {
  return (
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider} store={memoryStore()}>
      <PdfSupportState />
      {prepare && <Preparer />}
    </AdminContext>
  );
}
function Preparer() {
  usePreparePdf();
  return null;
}

/** Stands for the font's bytes. */
const FONT = new Uint8Array([0x00, 0x01, 0x00, 0x00]);

afterEach(() => {
  cleanup();
  resetPdfForTests();
});

describe('the PDF support state', () => {
  it('is idle until asked, loads once however often it is asked, then is ready', async () => {
    const font = gate<Uint8Array>();
    const mod = gate<typeof report>();
    resetPdfForTests({ font: font.load, report: mod.load });
    expect(getPdfState()).toBe('idle');
    const first = preparePdf();
    expect(getPdfState()).toBe('loading');
    const second = preparePdf();
    expect(second).toBe(first);
    expect([font.calls(), mod.calls()]).toEqual([1, 1]);
    font.resolve(FONT);
    mod.resolve(report);
    await expect(first).resolves.toEqual({ report, fontData: FONT });
    expect(getPdfState()).toBe('success');
    await preparePdf();
    expect([font.calls(), mod.calls()]).toEqual([1, 1]);
  });

  it('fails when the font does not load, and a later call tries again', async () => {
    const font = gate<Uint8Array>();
    resetPdfForTests({ font: font.load, report: () => Promise.resolve(report) });
    const first = preparePdf();
    font.reject(new Error('font: HTTP 404'));
    await expect(first).rejects.toThrow('404');
    expect(getPdfState()).toBe('failed');
    const again = preparePdf();
    expect(getPdfState()).toBe('loading');
    expect(font.calls()).toBe(2);
    font.resolve(FONT);
    await again;
    expect(getPdfState()).toBe('success');
  });
});

describe('the top bar’s PDF indicator', () => {
  it('shows nothing while idle, then loading, ready and failed in Traditional Chinese, and retries on click when failed', async () => {
    let font = gate<Uint8Array>();
    resetPdfForTests({ font: () => font.load(), report: () => Promise.resolve(report) });
    const { rerender } = render(<Shell />);
    expect(screen.queryByTestId('pdf-status')).toBeNull();

    // a PDF screen mounts: loading starts
    rerender(<Shell prepare />);
    const status = await screen.findByTestId('pdf-status');
    expect(status.getAttribute('data-state')).toBe('loading');
    expect(status.textContent).toBe('PDF 載入中');
    expect(status.getAttribute('aria-label')).toBe('正在載入 PDF 字型…');

    await act(async () => font.reject(new Error('offline')));
    await waitFor(() => expect(screen.getByTestId('pdf-status').getAttribute('data-state')).toBe('failed'));
    expect(screen.getByTestId('pdf-status').textContent).toBe('PDF 載入失敗');
    expect(screen.getByRole('button', { name: 'PDF 字型載入失敗，按此重試。' })).toBeTruthy();

    font = gate<Uint8Array>();
    fireEvent.click(screen.getByTestId('pdf-status'));
    await waitFor(() => expect(screen.getByTestId('pdf-status').getAttribute('data-state')).toBe('loading'));
    await act(async () => font.resolve(FONT));
    await waitFor(() => expect(screen.getByTestId('pdf-status').getAttribute('data-state')).toBe('success'));
    expect(screen.getByTestId('pdf-status').textContent).toBe('PDF 已就緒');
    expect(screen.getByTestId('pdf-status').getAttribute('aria-label')).toBe('PDF 已就緒，可以列印報告');
  });

  it('is in English after a switch of language', async () => {
    resetPdfForTests({ font: () => Promise.resolve(FONT), report: () => Promise.resolve(report) });
    await act(async () => i18nProvider.changeLocale('en'));
    try {
      render(<PdfStatus />, { wrapper: ({ children }) => <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider} store={memoryStore()}>{children}</AdminContext> });
      await act(async () => void (await preparePdf()));
      expect((await screen.findByTestId('pdf-status')).textContent).toBe('PDF ready');
    } finally {
      await act(async () => i18nProvider.changeLocale('zh-hk'));
    }
  });
});
