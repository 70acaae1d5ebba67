import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launchBrowser, loginAs, newPage, url } from './browser.js';

// Next year's classes and class numbers are entered before it begins. An administrator
// chooses next year on the student list, opens a pupil in that year, gives them next year's class
// and number, and this year's stay as they were. The year is added and removed by this file, so
// the shared demo school's current year is never changed.
let browser: Browser;
let page: Page;
let admin: string;
let yearId: number;

type Student = { id: number; code: string; nameHk: string; classId: number | null; studentNumber: number | null };

beforeAll(async () => {
  admin = await apiLogin('admin');
  const created = await api<{ id: number }>('/v1/school-years', admin, 'POST', { name: '2040-2041', beginDate: '2040-09-01', endDate: '2041-08-31' });
  expect(created.envelope.code, created.envelope.msg).toBe(201);
  yearId = created.envelope.data.id;
  browser = await launchBrowser();
  page = await newPage(browser);
  await loginAs(page, 'admin');
});
afterAll(async () => {
  if (yearId) await api(`/v1/school-years/${yearId}?cascade=1`, admin, 'DELETE');
  await browser?.close();
});

describe("next year's classes on the student screens", () => {
  it('chooses next year on the list, gives a pupil its class and number there; this year is unchanged', async () => {
    const classes = (await api<{ list: { id: number; code: string; nameHk: string }[] }>('/v1/classes?size=100', admin)).envelope.data.list;
    const students = (await api<{ list: Student[] }>('/v1/students?sort=code&size=1&status=1', admin)).envelope.data.list;
    const pupil = students[0];
    expect(pupil.classId).not.toBeNull();
    const target = classes.find((c) => c.id !== pupil.classId)!;

    await page.goto(url('/master/students/list'));
    const filter = page.getByTestId('school-year-filter');
    await expect(filter.getByRole('combobox').innerText()).resolves.toMatch(/^目前學年（.+）$/);
    await filter.getByRole('combobox').click();
    await page.getByRole('option', { name: '2040-2041' }).click();
    await page.getByPlaceholder('搜尋').fill(pupil.code);
    const row = page.getByRole('row', { name: new RegExp(pupil.code) });
    await row.waitFor();
    // next year this pupil has no class yet: the class column is empty
    await expect.poll(() => row.innerText(), { timeout: 15_000 }).not.toContain(classes.find((c) => c.id === pupil.classId)!.nameHk);
    await row.getByTestId('row-edit').click();
    await page.waitForURL(new RegExp(`/master/students/edit\\?id=${pupil.id}&schoolYearId=${yearId}$`));
    await expect(page.getByTestId('school-year-screen').getByRole('combobox').innerText()).resolves.toBe('2040-2041');

    await page.getByRole('combobox', { name: /班別/ }).fill(target.nameHk);
    await page.getByRole('option', { name: target.nameHk }).click();
    await page.getByRole('spinbutton', { name: /班號/ }).fill('41');
    await page.getByTestId('master-save').click();
    await page.waitForURL(/\/master\/students\/list$/);

    const next = (await api<Student>(`/v1/students/${pupil.id}?schoolYearId=${yearId}`, admin)).envelope.data;
    expect([next.classId, next.studentNumber]).toEqual([target.id, 41]);
    const now = (await api<Student>(`/v1/students/${pupil.id}`, admin)).envelope.data;
    expect([now.classId, now.studentNumber]).toEqual([pupil.classId, pupil.studentNumber]);

    // the list of next year shows the class; the view of the current year shows this year's
    await expect.poll(() => page.getByRole('row', { name: new RegExp(pupil.code) }).innerText(), { timeout: 15_000 }).toContain(target.nameHk);
    await page.goto(url(`/master/students/view?id=${pupil.id}`));
    await expect.poll(() => page.getByRole('spinbutton', { name: /班號/ }).inputValue(), { timeout: 15_000 }).toBe(String(pupil.studentNumber));
  });
});
