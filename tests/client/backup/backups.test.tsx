import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { BackupScreen } from '../../../src/client/backup/BackupScreen';
import { sizeText } from '../../../src/client/backup/api';
import { formatDateTime } from '../../../src/client/common/schoolClock';
import { fakeData, fakeFetch, renderAt } from '../questionnaires/support';

const LIST = {
  list: [
    { name: 'qe-20261124-020000.qe.zip', size: 3_500_000, createdAt: '2026-11-24T02:00:00.000Z', createdBy: null, scheduled: true, uploaded: false, encrypted: true },
    { name: 'qe-20261123-093000.qe.zip', size: 420_000, createdAt: '2026-11-23T09:30:00.000Z', createdBy: { id: 1, name: '系統管理員', nameEn: 'Super Admin' }, scheduled: false, uploaded: false, encrypted: false },
  ],
  schedule: { everyHours: 24, keep: 7 },
  job: null,
};
const ALL = ['backup.view', 'backup.backup', 'backup.restore', 'backup.delete'];

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the backup screen', () => {
  it('lists the backups with time (yyyy-MM-dd HH:mm, as every screen shows it), size, maker and the lock of an encrypted one', async () => {
    fakeFetch((call) => (call.path === '/v1/backups' ? LIST : null));
    renderAt('/system/backups', <BackupScreen />, fakeData([]), ALL);
    const rows = await screen.findAllByTestId('backup-row');
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(0, 4).map((c) => c.textContent))).toEqual([
      [formatDateTime('2026-11-24T02:00:00.000Z'), 'qe-20261124-020000.qe.zip已加密', '3.3 MB', '定時備份'],
      [formatDateTime('2026-11-23T09:30:00.000Z'), 'qe-20261123-093000.qe.zip', '410 KB', '系統管理員'],
    ]);
    expect(within(rows[0]).getAllByRole('cell')[0].textContent).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(sizeText(512)).toBe('1 KB');
  });

  it('shows only what the user may do: a viewer sees the list and no button', async () => {
    fakeFetch((call) => (call.path === '/v1/backups' ? LIST : null));
    renderAt('/system/backups', <BackupScreen />, fakeData([]), ['backup.view']);
    await screen.findAllByTestId('backup-row');
    for (const id of ['backup-make', 'backup-upload', 'backup-restore', 'backup-delete', 'backup-download', 'backup-schedule-save']) expect(screen.queryByTestId(id), id).toBeNull();
  });

  it('an empty list says what to do', async () => {
    fakeFetch((call) => (call.path === '/v1/backups' ? { ...LIST, list: [] } : null));
    renderAt('/system/backups', <BackupScreen />, fakeData([]), ALL);
    expect((await screen.findByTestId('backup-empty')).textContent).toBe('尚未有備份。請立即備份，或在下方設定定時備份。');
  });

  it('makes a backup and follows its progress to "backup succeeded"', async () => {
    let polls = 0;
    const calls = fakeFetch((call) => {
      if (call.path === '/v1/backups' && call.method === 'POST') return { id: 'j', kind: 'backup', state: 'running', done: 0, total: 100, name: 'qe-20261124-030000.qe.zip', error: null };
      if (call.path === '/v1/backups/job') return { id: 'j', kind: 'backup', state: ++polls > 1 ? 'done' : 'running', done: polls > 1 ? 100 : 40, total: 100, name: 'qe-20261124-030000.qe.zip', error: null };
      return call.path === '/v1/backups' ? LIST : null;
    });
    renderAt('/system/backups', <BackupScreen />, fakeData([]), ALL);
    fireEvent.click(await screen.findByTestId('backup-make'));
    fireEvent.click(await screen.findByTestId('backup-start'));
    expect((await screen.findByTestId('backup-progress')).textContent).toContain('正在備份');
    await waitFor(() => expect(screen.queryByTestId('backup-progress')).toBeNull(), { timeout: 5000 });
    expect(calls.find((c) => c.method === 'POST' && c.path === '/v1/backups')?.body).toEqual({});
  });

  it('asks for the name typed in full, and the passphrase of an encrypted backup, before a restore', async () => {
    const calls = fakeFetch((call) => (call.path === '/v1/backups' ? LIST : call.path.endsWith('/restore') ? { status: 400, code: 755, msg: '密碼短語不正確，或備份曾被更改；現有資料沒有改動' } : null));
    renderAt('/system/backups', <BackupScreen />, fakeData([]), ALL);
    const [sealed] = await screen.findAllByTestId('backup-row');
    fireEvent.click(within(sealed).getByTestId('backup-restore'));
    const dialog = await screen.findByTestId('restore-dialog');
    const go = within(dialog).getByTestId('restore-confirm');
    fireEvent.change(within(dialog).getByTestId('restore-confirm-name'), { target: { value: 'qe-20261124-020000.qe.zip' } });
    expect(go).toHaveProperty('disabled', true);
    fireEvent.change(within(dialog).getByTestId('restore-passphrase'), { target: { value: 'a wrong phrase' } });
    expect(go).toHaveProperty('disabled', false);
    fireEvent.click(go);
    expect((await within(dialog).findByTestId('restore-problem')).textContent).toBe('密碼短語不正確，或備份曾被更改；現有資料沒有改動');
    expect(calls.find((c) => c.path.endsWith('/restore'))?.body).toEqual({ confirm: 'qe-20261124-020000.qe.zip', passphrase: 'a wrong phrase' });
  });

  it("shows the school's name and asks for it typed when the backup is of another school (765)", async () => {
    const calls = fakeFetch((call) => {
      if (call.path === '/v1/backups') return LIST;
      if (!call.path.endsWith('/restore')) return null;
      return (call.body as { school?: string } | undefined)?.school === 'Other School' ? { tables: 1, rows: 1 } : { status: 400, code: 765, msg: '此備份屬於另一學校', data: { school: '別校中學' } };
    });
    renderAt('/system/backups', <BackupScreen />, fakeData([]), ALL);
    const [sealed] = await screen.findAllByTestId('backup-row');
    fireEvent.click(within(sealed).getByTestId('backup-restore'));
    const dialog = await screen.findByTestId('restore-dialog');
    fireEvent.change(within(dialog).getByTestId('restore-confirm-name'), { target: { value: 'qe-20261124-020000.qe.zip' } });
    fireEvent.change(within(dialog).getByTestId('restore-passphrase'), { target: { value: 'the right phrase' } });
    fireEvent.click(within(dialog).getByTestId('restore-confirm'));
    expect((await within(dialog).findByTestId('restore-school-alert')).textContent).toContain('別校中學');
    const go = within(dialog).getByTestId('restore-confirm');
    expect(go).toHaveProperty('disabled', true);
    fireEvent.change(within(dialog).getByTestId('restore-confirm-school'), { target: { value: 'Other School' } });
    expect(go).toHaveProperty('disabled', false);
    fireEvent.click(go);
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/restore')).at(-1)?.body).toEqual({ confirm: 'qe-20261124-020000.qe.zip', passphrase: 'the right phrase', school: 'Other School' }));
  });
});
