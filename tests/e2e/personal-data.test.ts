import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, loginAs, newPage, url } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

describe('staff personal data in the browser', () => {
  it('a teacher is asked once, applies; an administrator rejects with a reason, then confirms', async () => {
    const teacher = await newPage(browser);
    await loginAs(teacher, 'teacher08', 'Passw0rd!', { personalPrompt: true });
    // the staff-edit-personal question: asked after login while the data is unconfirmed
    await teacher.getByTestId('personal-prompt').waitFor();
    await teacher.getByTestId('personal-prompt-check').click();
    await teacher.waitForURL(/\/qe\/personal-data\/mine$/);
    await expect(teacher.evaluate(() => localStorage.getItem('qe-staff-edit-personal'))).resolves.toBe('1');
    await teacher.getByTestId('personal-tel').fill('2555 0808');
    await teacher.getByTestId('personal-card-type').click();
    await teacher.getByRole('option', { name: '香港身份證' }).click();
    await teacher.getByTestId('personal-card-no').fill('D808808(8)');
    await teacher.getByTestId('personal-submit').click();
    await teacher.locator('[data-testid="confirm-status"][data-status="WAITTING"]').getByText('待審批').waitFor();
    await teacher.getByText('D808***(8)').first().waitFor();
    // asked once: a reload does not ask again
    await teacher.reload();
    await teacher.getByTestId('personal-data').waitFor();
    expect(await teacher.getByTestId('personal-prompt').count()).toBe(0);

    const admin = await newPage(browser);
    await loginAs(admin, 'admin');
    await admin.goto(url('/personal-data/approve'));
    const card = admin.locator('[data-testid="personal-request-card"][data-user-no="T008"]');
    await card.waitFor();
    await expect(card.getByTestId('change-tel').innerText()).resolves.toContain('2555 0808');
    await expect(card.getByTestId('change-identityCardId').innerText()).resolves.toContain('D808***(8)');
    await card.getByTestId('personal-reject').click();
    await admin.getByTestId('personal-reject-reason-input').fill('請填寫辦公室電話');
    await admin.getByTestId('personal-reject-submit').click();
    await card.waitFor({ state: 'detached' });

    await teacher.reload();
    await teacher.locator('[data-testid="confirm-status"][data-status="REJECT"]').getByText('已拒絕').waitFor();
    await expect(teacher.getByTestId('personal-reject-reason').innerText()).resolves.toContain('請填寫辦公室電話');
    await teacher.getByTestId('personal-tel').fill('2555 0809');
    await teacher.getByTestId('personal-card-no').fill('D808808(8)');
    await teacher.getByTestId('personal-submit').click();
    await teacher.locator('[data-testid="confirm-status"][data-status="WAITTING"]').getByText('待審批').waitFor();

    await admin.reload();
    await card.waitFor();
    await card.getByTestId('personal-confirm').click();
    await card.waitFor({ state: 'detached' });
    await admin.getByTestId('queue-tab-CONFIRM').click();
    await admin.locator('[data-testid="personal-request-card"][data-user-no="T008"] [data-testid="confirm-status"][data-status="CONFIRM"]').getByText('已確認').first().waitFor();

    await teacher.reload();
    await teacher.locator('[data-testid="confirm-status"][data-status="CONFIRM"]').getByText('已確認').waitFor();
    await teacher.close();
    await admin.close();
  });
});
