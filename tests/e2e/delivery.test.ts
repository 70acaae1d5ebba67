import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { apiLogin, launchBrowser, openedForClass, url } from './browser.js';

// Client delivery: the login page on a slow mobile network (1.6 Mbit/s, 150 ms round
// trip), first visit and repeat visit. What is asserted is what does not depend on the machine:
// the bytes on the wire (≤ 400 KB, compressed), that the login page's first script is not the
// app (react-admin and MUI load once the form is sent: src/client/main.tsx), and that a repeat
// visit fetches no script again (hashed assets are immutable). The times are printed, as the
// bench prints its figures. Then a student logs in on the same network (the app downloads then)
// and opens an answer screen.

/** The built client the e2e server serves (tests/e2e/global-setup.ts). */
const ASSETS = resolve('dist/client/assets');
/** Texts that only react-admin's and MUI's code holds: a script with one of them is the app's. */
const APP_MARKERS = ['ra.notification.i18n_error', 'MuiButtonBase'];
const isAppScript = (name: string) => {
  const text = readFileSync(resolve(ASSETS, name), 'utf8');
  return APP_MARKERS.some((marker) => text.includes(marker));
};
const assetName = (address: string) => /\/qe\/assets\/([^/?]+)$/.exec(new URL(address).pathname)?.[1] ?? null;

let browser: Browser;
let context: BrowserContext;
beforeAll(async () => {
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 360, height: 640 }, locale: 'zh-HK' });
});
afterAll(async () => browser?.close());

const SLOW = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

/** A page of the shared context (its cache kept between visits) on the slow network. */
async function slowPage(): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW);
  return { page, cdp };
}

/** Opens the login page throttled; answers the bytes received over the network, the requests that did, and the time until the form can be used. */
async function visit(page: Page, cdp: CDPSession) {
  const wire = new Map<string, number>();
  const urls = new Map<string, string>();
  const cached = new Set<string>();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.requestServedFromCache', (e) => cached.add(e.requestId));
  cdp.on('Network.loadingFinished', (e) => wire.set(e.requestId, e.encodedDataLength));
  const started = Date.now();
  await page.goto(url('/login'));
  await page.getByTestId('login-submit').waitFor();
  await page.getByTestId('login-username').fill('student001');
  const usable = Date.now() - started;
  await page.waitForLoadState('networkidle');
  const fetched = [...wire.entries()].filter(([id, bytes]) => !cached.has(id) && bytes > 0).map(([id, bytes]) => ({ url: urls.get(id) ?? '', bytes }));
  return { usable, bytes: fetched.reduce((n, f) => n + f.bytes, 0), fetched };
}

describe('the login page on a slow mobile network', () => {
  it('first visit: at most 400 KB on the wire, compressed; repeat visit: no script fetched again', async () => {
    const { page, cdp } = await slowPage();
    const first = await visit(page, cdp);
    console.log(`login page, first visit: ${(first.bytes / 1024).toFixed(0)} KB on the wire, usable after ${first.usable} ms`);
    for (const f of first.fetched) console.log(`  ${(f.bytes / 1024).toFixed(1)} KB ${f.url.replace(/^https?:\/\/[^/]+/, '')}`);
    expect(first.bytes).toBeLessThanOrEqual(400 * 1024);
    const scripts = first.fetched.map((f) => assetName(f.url)).filter((name): name is string => name !== null && name.endsWith('.js'));
    expect(scripts.some((name) => /^index-[^/]+\.js$/.test(name))).toBe(true);
    // the app is in the build (the markers find it), and none of it came with the login page
    expect(readdirSync(ASSETS).filter((name) => name.endsWith('.js') && isAppScript(name)).length).toBeGreaterThan(0);
    expect(scripts.filter(isAppScript)).toEqual([]);
    await page.close();

    const again = await slowPage();
    const repeat = await visit(again.page, again.cdp);
    console.log(`login page, repeat visit: ${(repeat.bytes / 1024).toFixed(1)} KB on the wire, usable after ${repeat.usable} ms`);
    for (const f of repeat.fetched) console.log(`  ${(f.bytes / 1024).toFixed(1)} KB ${f.url.replace(/^https?:\/\/[^/]+/, '')}`);
    expect(repeat.fetched.filter((f) => /\.(js|css|ttf)$/.test(f.url))).toEqual([]);
  });
});

describe("a student's answer screen on a slow mobile network", () => {
  it('opens with its first question ready to answer (the times printed), first after logging in and again', async () => {
    const teacher = await apiLogin('teacher01');
    const questions = Array.from({ length: 10 }, (_, i) =>
      i % 2 ? { id: `q${i + 1}`, type: 'SHORT_TEXT', title: `第${i + 1}題`, required: false } : { id: `q${i + 1}`, type: 'RADIO', title: `第${i + 1}題`, required: false, options: [{ id: 'a', label: '同意' }, { id: 'b', label: '不同意' }] },
    );
    const id = await openedForClass(teacher, '1A', `E2E 慢網絡 ${Date.now()}`, { version: 1, sections: [{ id: 's1', title: '問題', questions }] });
    // a context of its own: nothing cached but what this student's own visits bring
    const own = await browser.newContext({ viewport: { width: 360, height: 640 }, locale: 'zh-HK' });
    const page = await own.newPage();
    const cdp = await own.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW);
    await page.goto(url('/login'));
    await page.evaluate(() => localStorage.setItem('qe-staff-edit-personal', '1'));
    await page.getByTestId('login-username').fill('student002');
    await page.getByTestId('login-password').fill('Passw0rd!');
    const submitted = Date.now();
    await page.getByTestId('login-submit').click();
    await page.getByTestId('welcome').waitFor();
    console.log(`login sent to home screen shown, the app downloaded meanwhile: ${Date.now() - submitted} ms`);

    const open = async () => {
      const started = Date.now();
      await page.goto(url(`/questionnaire-filling/detail?id=${id}`));
      await page.getByTestId('question-q1').getByRole('radio').first().waitFor();
      return Date.now() - started;
    };
    const first = await open();
    const repeat = await open();
    console.log(`answer screen, first opening after login: usable after ${first} ms; opened again: ${repeat} ms`);
    await own.close();
  });
});
