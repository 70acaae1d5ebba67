import { chromium, type Browser, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { DEFAULT_TIME_ZONE, schoolDateTime } from '../../src/shared/school-clock.js';

/** Debian's Chromium, headless, with the flags this workplace needs (no network beyond loopback). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export const baseUrl = () => inject('baseUrl');

/** A new page in a fresh context (its own local storage) at a desktop or phone size. */
export async function newPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'zh-HK' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

export const url = (path: string) => `${baseUrl()}/qe${path}`;

/** What a teacher types in a date-time field for a moment: yyyy-MM-dd HH:mm on the school's clock (the demo school's, Hong Kong), whatever the browser's zone. */
export const schoolInput = (date: Date) => schoolDateTime(date, DEFAULT_TIME_ZONE);

/** Logs in through the login screen and waits for the home screen. */
export async function loginAs(page: Page, username: string, password = 'Passw0rd!', options: { personalPrompt?: boolean } = {}): Promise<void> {
  await page.goto(url('/login'));
  // the staff-edit-personal question asked once after login (src/client/personal/StaffPersonalPrompt.tsx)
  // would cover the screen a test is about: answered beforehand, unless the test is about it
  if (!options.personalPrompt) await page.evaluate(() => localStorage.setItem('qe-staff-edit-personal', '1'));
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('welcome').waitFor();
}

/** Logs out through the user menu. */
export async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: /用戶選單|User menu/ }).click();
  await page.getByRole('menuitem', { name: /登出|Logout|Log out/ }).click();
  await page.waitForURL(/\/qe\/login/);
}

type Envelope<T = unknown> = { code: number; msg: string; data: T };

/** A call of QE's API over HTTP, as a script would make it: the status and the envelope. */
export async function api<T = unknown>(path: string, token: string | null, method = 'GET', body?: unknown): Promise<{ status: number; envelope: Envelope<T> }> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, envelope: (await res.json()) as Envelope<T> };
}

/** Logs in through the API and answers the token. */
export async function apiLogin(username: string, password = 'Passw0rd!'): Promise<string> {
  const { envelope } = await api<{ tk: string }>('/v1/login', null, 'POST', { username, password });
  expect(envelope.code, `${username}: ${envelope.msg}`).toBe(200);
  return envelope.data.tk;
}

/** As `teacher` (a token), a NAMED questionnaire of `definition` for one class that opens now (PROCESSING) and ends in `endsInMs` (a week): its id. */
export async function openedForClass(teacher: string, classCode: string, title: string, definition: unknown, endsInMs = 7 * 86_400_000): Promise<number> {
  const classes = await api<{ list: { id: number; code: string }[] }>(`/v1/audience-options?kind=CLASS&q=${encodeURIComponent(classCode)}`, teacher);
  const classId = classes.envelope.data.list.find((k) => k.code === classCode)!.id;
  const created = await api<{ id: number }>('/v1/questionnaires', teacher, 'POST', {
    title,
    type: 'NAMED',
    openDate: new Date(Date.now() - 60_000).toISOString(),
    endDate: new Date(Date.now() + endsInMs).toISOString(),
    targets: [{ kind: 'CLASS', ids: [classId] }],
    definition,
  });
  expect(created.envelope.code, created.envelope.msg).toBe(201);
  const id = created.envelope.data.id;
  const ready = await api<{ status: string }>(`/v1/questionnaires/${id}/ready`, teacher, 'POST');
  expect(ready.envelope.code, ready.envelope.msg).toBe(200);
  expect(ready.envelope.data.status).toBe('PROCESSING');
  return id;
}
