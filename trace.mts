import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const context = await browser.newContext({ viewport: { width: 360, height: 640 }, locale: 'zh-HK' });
const SLOW = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
for (const round of [1, 2]) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW);
  const t0 = Date.now();
  const log = (m: string) => console.log(round, String(Date.now() - t0).padStart(5), m);
  cdp.on('Network.requestWillBeSent', (e) => log(`send ${e.request.url.replace(/^https?:\/\/[^/]+/, '')}`));
  cdp.on('Network.loadingFinished', (e) => log(`done ${e.requestId} ${e.encodedDataLength}`));
  page.on('domcontentloaded', () => log('DOMContentLoaded'));
  await page.goto('http://127.0.0.1:8377/qe/login');
  await page.getByTestId('login-submit').waitFor();
  log('form shown');
  await page.close();
}
await browser.close();
