import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './browser.js';
import { startOwnQe, type OwnQe } from './own-server.js';

// Backup and restore as the super administrator uses it: the Backup screen makes a backup (and an
// encrypted one) while QE runs, lists them, downloads one, refuses a file that is not a backup,
// and restores a backup behind the strong confirmation — the data of the backup back, everyone
// logged out. This file starts its own QE: a restore ends every session, which the other files rely on.
let browser: Browser;
let qe: OwnQe;

beforeAll(async () => {
  qe = await startOwnQe();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await qe?.close();
});

describe('backup and restore on the screen', () => {
  it('backs up, encrypts, downloads, refuses a foreign file and restores behind the strong confirmation', async () => {
    const page = await newPage(browser);
    await qe.loginAs(page, 'superadmin');
    await page.getByTestId('menu-backups').click();
    await page.waitForURL(/\/system\/backups$/);
    await page.getByTestId('backup-empty').waitFor();

    // a backup now: its progress, "backup succeeded", and the row
    await page.getByTestId('backup-make').click();
    await page.getByTestId('backup-start').click();
    await page.getByText('備份成功').waitFor();
    await expect(page.getByTestId('backup-row').count()).resolves.toBe(1);
    const first = (await page.getByTestId('backup-row').first().innerText()).match(/qe-\d{8}-\d{6}(-\d+)?\.qe\.zip/)![0];

    // an encrypted one: the passphrase twice, the start button waits for them to agree
    await page.getByTestId('backup-make').click();
    await page.getByTestId('backup-encrypt').click();
    await page.getByTestId('backup-passphrase').fill('school passphrase');
    await page.getByTestId('backup-passphrase-repeat').fill('school passphrasf');
    await expect(page.getByTestId('backup-start').isDisabled()).resolves.toBe(true);
    await page.getByTestId('backup-passphrase-repeat').fill('school passphrase');
    await page.getByTestId('backup-start').click();
    // as long as the backup takes (the first one's "backup succeeded" may still be on screen): bounded, not timed
    await expect.poll(() => page.getByTestId('backup-row').count(), { timeout: 60_000 }).toBe(2);
    await expect(page.getByTestId('backup-row').filter({ hasText: '已加密' }).count()).resolves.toBe(1);

    // download: the archive itself
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('backup-row').filter({ hasText: first }).getByTestId('backup-download').click()]);
    expect(download.suggestedFilename()).toBe(first);

    // a file that is not a backup: refused with the reason, nothing listed
    const foreign = join(qe.dataDir, 'holiday-photos.zip');
    writeFileSync(foreign, 'PK\u0003\u0004 not a backup at all');
    await page.getByTestId('backup-upload-file').setInputFiles(foreign);
    await page.getByText(/不是 QE 的備份|已損壞或不完整/).first().waitFor();
    await expect(page.getByTestId('backup-row').count()).resolves.toBe(2);

    // a change after the first backup, and a teacher logged in
    const admin = await qe.token('superadmin');
    const teacher = await qe.token('teacher05');
    const classes = (await qe.api<{ list: { id: number; nameHk: string }[] }>('/v1/classes?size=100', admin)).data.list;
    const positions = (await qe.api<{ list: { id: number; nameEn: string }[] }>('/v1/positions', admin)).data.list;
    expect((await qe.api(`/v1/positions/${positions[0].id}`, admin, 'PUT', { nameEn: 'Renamed after the backup' })).code).toBe(200);

    // the restore: the name typed in full before the button works; then "restore succeeded" and the login page
    await page.getByTestId('backup-row').filter({ hasText: first }).getByTestId('backup-restore').click();
    const confirm = page.getByTestId('restore-confirm');
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await page.getByTestId('restore-confirm-name').fill(first.slice(0, -3));
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await page.getByTestId('restore-confirm-name').fill(first);
    await confirm.click();
    await page.waitForURL(/\/qe\/login/);
    await page.getByText('還原成功').waitFor();

    const again = await qe.token('superadmin');
    expect((await qe.api<{ nameEn: string }>(`/v1/positions/${positions[0].id}`, again)).data.nameEn).toBe(positions[0].nameEn);
    expect((await qe.api<{ list: unknown[] }>('/v1/classes?size=100', again)).data.list).toHaveLength(classes.length);
    expect([401, 444]).toContain((await qe.api('/v1/my/user-info', teacher)).code);
    await page.close();
  });
});
