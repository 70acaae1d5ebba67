import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './accessibility-checks.js';
import { launchBrowser, newPage } from './browser.js';
import { startOwnQe, type OwnQe } from './own-server.js';
import { startIssuer, type Issuer } from '../support/oidc-issuer.js';

// End to end, sign-in with the school's own accounts against a real OpenID Connect provider on
// loopback (oidc-provider, tests/support/oidc-issuer.ts): the super administrator adds the
// provider in the school settings and tests it in a new window, which shows the report; a pupil
// on a phone (360×740, zh-hk) opens the answer screen a reminder pointed to, is sent to the login
// page, taps the school's button, signs in at the provider and lands on that answer screen,
// answers and submits; the link shows on the pupil's own "my sign-ins" and on their record; the
// pupil signs out, the login page is back and the old token opens nothing. This file starts its
// own QE: a provider on the shared one would put its button on every other file's login page.
// axe-core finds nothing on the new screens (the settings, the login page with the button, the report).

let browser: Browser;
let qe: OwnQe;
let idp: Issuer;
let callback: string;

const PUPIL = 'student001';
const PUPIL_ACCOUNT = 'student001@demo.qe.school';
const NAME_HK = '啟思學校帳戶';
const NAME_EN = 'QE School account';

beforeAll(async () => {
  qe = await startOwnQe();
  callback = `${qe.base}/qe/sign-in-callback`;
  idp = await startIssuer({
    redirectUris: [callback],
    accounts: {
      // the pupil's account at the school's provider; the super administrator's, known to the provider but to no QE account
      'pupil-001': { email: PUPIL_ACCOUNT, email_verified: true, name: 'Chan Tai Man' },
      'it-officer': { email: 'it.officer@demo.qe.school', email_verified: true, name: 'IT Officer' },
    },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await qe?.close();
});

/** The page does not scroll sideways. */
async function fits(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The provider's own login page (its development login form): the account's id, any password. */
async function signInAtProvider(page: Page, accountId: string) {
  await page.waitForURL((u) => u.toString().startsWith(idp.origin));
  await page.locator('input[name="login"]').fill(accountId);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
}

/** As a teacher (a token), a named questionnaire with one required short question for class 1A, open now: its id. */
async function questionnaireFor1A(token: string, title: string): Promise<number> {
  const classes = await qe.api<{ list: { id: number; code: string }[] }>('/v1/audience-options?kind=CLASS&q=1A', token);
  const classId = classes.data.list.find((k) => k.code === '1A')!.id;
  const created = await qe.api<{ id: number }>('/v1/questionnaires', token, 'POST', {
    title,
    type: 'NAMED',
    openDate: new Date(Date.now() - 60_000).toISOString(),
    endDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    targets: [{ kind: 'CLASS', ids: [classId] }],
    definition: { version: 1, sections: [{ id: 's1', title: '意見', questions: [{ id: 'q1', type: 'SHORT_TEXT', title: '你最喜歡哪一科？', required: true }] }] },
  });
  expect(created.code, created.msg).toBe(201);
  const ready = await qe.api<{ status: string }>(`/v1/questionnaires/${created.data.id}/ready`, token, 'POST');
  expect(ready.data.status, ready.msg).toBe('PROCESSING');
  return created.data.id;
}

describe('sign-in with a school account', () => {
  it('the super administrator adds the provider in the school settings and tests it in a new window', async () => {
    const page = await newPage(browser);
    await qe.loginAs(page, 'superadmin');
    await page.goto(qe.at('/master/school'));
    const section = page.getByTestId('sign-in-settings');
    await section.getByTestId('providers-none').waitFor();

    await section.getByTestId('provider-add').click();
    const dialog = page.getByTestId('provider-dialog');
    await dialog.getByTestId('provider-kind-oidc').check();
    await dialog.getByTestId('provider-nameHk').fill(NAME_HK);
    await dialog.getByTestId('provider-nameEn').fill(NAME_EN);
    await dialog.getByTestId('provider-issuer').fill(idp.issuer);
    await dialog.getByTestId('provider-clientId').fill(idp.clientId);
    await dialog.getByTestId('provider-secret').fill(idp.clientSecret);
    await dialog.getByTestId('provider-domain-input').fill('demo.qe.school');
    await dialog.getByTestId('provider-domain-input').press('Enter');
    await dialog.getByTestId('provider-domains').getByText('demo.qe.school').waitFor();
    await dialog.getByTestId('provider-save').click();
    await dialog.waitFor({ state: 'detached' });

    const item = section.locator('[data-testid^="provider-"]').filter({ has: page.getByTestId('provider-name') }).first();
    await expect(item.getByTestId('provider-name').innerText()).resolves.toBe(NAME_HK);
    // the address to register at the provider is the one the provider has for QE
    await expect(item.getByTestId('provider-redirect-uri').innerText()).resolves.toBe(callback);
    await expect(item.getByTestId('provider-links').innerText()).resolves.toBe('已連結帳戶：0');
    expect(await axeViolations(page)).toEqual([]);

    // the test: a new window, the provider's page, back to QE's report
    const [popup] = await Promise.all([page.context().waitForEvent('page'), item.getByTestId('provider-test').click()]);
    await signInAtProvider(popup, 'it-officer');
    const report = popup.getByTestId('sign-in-test-report');
    await report.waitFor();
    await expect(popup.getByTestId('sign-in-test-step-discovery').getAttribute('data-ok')).resolves.toBe('true');
    await expect(popup.getByTestId('sign-in-test-step-token').getAttribute('data-ok')).resolves.toBe('true');
    await expect(popup.getByTestId('sign-in-test-claims').innerText()).resolves.toContain('it.officer@demo.qe.school');
    // no QE account has that school account
    await expect(popup.getByTestId('sign-in-test-account').innerText()).resolves.toBe('沒有相符的 QE 帳戶。');
    await expect(popup.getByTestId('sign-in-test-result').innerText()).resolves.toContain('測試未通過');
    expect(await axeViolations(popup)).toEqual([]);
    // the browser key was used once and forgotten in both windows
    expect(await popup.evaluate(() => sessionStorage.getItem('qe-sign-in'))).toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem('qe-sign-in'))).toBeNull();
    // the super administrator's session in the settings window is untouched
    await page.getByTestId('sign-in-settings').waitFor();
    const closed = popup.waitForEvent('close');
    // the button closes its own window: a click whose page goes away under it has done its work
    await popup
      .getByTestId('sign-in-close')
      .click({ noWaitAfter: true })
      .catch((error: unknown) => {
        if (!popup.isClosed()) throw error;
      });
    await closed;
    expect(popup.isClosed()).toBe(true);
    await page.close();
  });

  it('a pupil on a phone signs in with the school account, lands on the answer screen a reminder pointed to, submits, sees the link, signs out', async () => {
    const admin = await qe.token('superadmin');
    const teacher = await qe.token('teacher01');
    const title = `學校帳戶登入 ${Date.now()}`;
    const id = await questionnaireFor1A(teacher, title);
    // the pupil's QE account knows its school account
    const pupil = (await qe.api<{ list: { id: number; username: string }[] }>(`/v1/students?page=1&size=5&q=${PUPIL}`, admin)).data.list.find((s) => s.username === PUPIL)!;
    const set = await qe.api(`/v1/students/${pupil.id}`, admin, 'PUT', { schoolAccount: PUPIL_ACCOUNT });
    expect(set.code, set.msg).toBe(200);

    const page = await newPage(browser, { width: 360, height: 740 });
    // where the reminder's link pointed: without a session, the login page, keeping the way there
    const wanted = `/questionnaire-filling/detail?id=${id}`;
    await page.goto(qe.at(wanted));
    await page.waitForURL((u) => u.pathname === '/qe/login' && u.searchParams.get('redirect') === wanted);
    const button = page.getByRole('button', { name: `以${NAME_HK}登入` });
    await button.waitFor();
    await expect(page.getByRole('group', { name: '以學校帳戶登入' }).count()).resolves.toBe(1);
    // full width of the form on a phone, and nothing wider than the screen
    const [buttonBox, submitBox] = await Promise.all([button.boundingBox(), page.getByTestId('login-submit').boundingBox()]);
    expect(Math.round(buttonBox!.width)).toBe(Math.round(submitBox!.width));
    await fits(page);
    expect(await axeViolations(page)).toEqual([]);

    await button.click();
    await signInAtProvider(page, 'pupil-001');
    await page.waitForURL((u) => u.pathname === '/qe/questionnaire-filling/detail' && u.searchParams.get('id') === String(id));
    const question = page.getByTestId('question-q1');
    await question.waitFor();
    await fits(page);
    expect(await page.evaluate(() => sessionStorage.getItem('qe-sign-in'))).toBeNull();
    await question.getByRole('textbox').fill('視覺藝術');
    await page.getByTestId('section-submit').click();
    await page.waitForURL(new RegExp(`/questionnaire-filling/view\\?id=${id}$`));
    await page.getByTestId('filling-submitted').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('qe-token'));
    const mine = await qe.api<{ feedbackStatus: string; answers: Record<string, unknown> }>(`/v1/my/questionnaires/${id}`, token);
    expect(mine.data.feedbackStatus).toBe('SUBMITTED');
    expect(mine.data.answers).toEqual({ q1: '視覺藝術' });

    // the pupil's own sign-ins, from the user menu
    await page.getByRole('button', { name: /用戶選單/ }).click();
    await page.getByTestId('my-sign-ins-item').click();
    const mySignIns = page.getByRole('dialog', { name: '我的登入方式' });
    await expect(mySignIns.getByTestId('sign-in-link-email').innerText()).resolves.toBe(PUPIL_ACCOUNT);
    await expect(mySignIns.getByTestId('sign-in-unlink').count()).resolves.toBe(0);
    await fits(page);
    await mySignIns.getByTestId('my-sign-ins-close').click();
    await mySignIns.waitFor({ state: 'detached' });
    // the focus is back on the menu's button, where the user opened it from
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('用戶選單');

    // signs out: the login page is back, with the school's button; the old token opens nothing
    await page.getByRole('button', { name: /用戶選單/ }).click();
    await page.getByRole('menuitem', { name: /登出/ }).click();
    await page.waitForURL(/\/qe\/login/);
    await page.getByTestId('login-username').waitFor();
    await page.getByRole('button', { name: `以${NAME_HK}登入` }).waitFor();
    const after = await qe.api('/v1/my/user-info', token);
    expect([401, 444]).toContain(after.code);
    await page.close();

    // the link, on the pupil's record as the super administrator sees it
    const office = await newPage(browser);
    await qe.loginAs(office, 'superadmin');
    await office.goto(qe.at(`/master/students/edit?id=${pupil.id}`));
    const panel = office.getByTestId('linked-sign-ins');
    await expect(panel.getByTestId('sign-in-link-email').innerText()).resolves.toBe(PUPIL_ACCOUNT);
    await expect(panel.getByTestId('sign-in-link-used').innerText()).resolves.not.toContain('未曾使用');
    await office.close();
  });
});
