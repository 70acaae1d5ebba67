import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Notification } from 'react-admin';
import { Notices } from '../../../src/client/layout/Notices';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { QuestionnaireList } from '../../../src/client/questionnaires/list/QuestionnaireList';
import { ERRORS, type ErrorKey, errorText } from '../../../src/shared/errors';
import { fakeData, fakeFetch, questionnaire, renderAt } from './support';

// "Send notice" refused by the server (no QE_PUBLIC_URL, a notice already running, an SMTP
// server that cannot be used): the envelope's msg is what the user reads.
const ROW = questionnaire({ id: 3, title: '進行中的問卷', status: 'PROCESSING', submittedCount: 12, respondentCount: 30 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('send notice refused', () => {
  beforeEach(async () => {
    await i18nProvider.changeLocale('zh-hk');
    // a wide screen: the list is a table with its row actions (below 1024 px, jsdom's own width, it is cards)
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1280 });
  });

  it.each<[ErrorKey, Record<string, string>]>([
    ['PUBLIC_URL_REQUIRED', {}],
    ['NOTICE_IN_PROGRESS', {}],
    ['MAIL_CERTIFICATE_UNTRUSTED', { reason: 'self-signed certificate' }],
  ])('shows the server’s message for %s', async (key, params) => {
    const msg = errorText(key, 'zh-hk').replace(/%\{(\w+)\}/g, (_, k: string) => params[k]);
    const calls = fakeFetch((call) => (call.path.endsWith('/notice') ? { status: ERRORS[key].http, code: ERRORS[key].code, msg } : ROW));
    renderAt(
      '/forms/list',
      <>
        <QuestionnaireList />
        <Notices />
        <Notification />
      </>,
      fakeData([ROW]),
    );
    const row = (await screen.findByText('進行中的問卷')).closest('tr') as HTMLElement;
    fireEvent.click(await within(row).findByTestId('row-notice'));
    fireEvent.click(await screen.findByRole('button', { name: '發送通知' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /v1/questionnaires/3/notice'));
    expect(await screen.findByText(msg)).toBeTruthy();
    expect(screen.queryByText(/通知已發送/)).toBeNull();
  });
});
