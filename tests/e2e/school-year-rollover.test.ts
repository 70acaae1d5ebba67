import ExcelJS from 'exceljs';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { RolloverPreview } from '../../src/shared/school/rollover.js';
import type { StatisticsComparison, StatisticsDetail } from '../../src/shared/statistics/types.js';
import { launchBrowser, newPage } from './browser.js';
import { axeViolations } from './accessibility-checks.js';
import { startOwnQe, type OwnQe } from './own-server.js';

// End to end: an administrator rolls the demo school over to the next school year through
// the wizard on the school-year list — the preview's counts per class, one class sent elsewhere
// than suggested, "at once", the confirmation — and what is stored afterwards is what the screen
// showed: each class's students next year, the graduating grade left, the new year current.
// This file starts its own QE: the roll-over changes the current year, which the other files rely on.
let browser: Browser;
let qe: OwnQe;
const LESSON = {
  version: 1,
  sections: [{
    id: 's1',
    title: '課堂',
    questions: [
      { id: 'q1', type: 'RADIO', title: '你喜歡這一課嗎？', required: true, options: [{ id: 'a', label: '喜歡' }, { id: 'b', label: '不喜歡' }] },
      { id: 'q2', type: 'SHORT_TEXT', title: '你有甚麼建議？', required: false },
    ],
  }],
};
/** What each pupil suggests: 「圖書館」 is the word most of them use. */
const IDEAS: Record<string, string> = {
  student001: '希望圖書館多些新書',
  student002: '圖書館可以開放到六點',
  student003: '想去圖書館上課',
  student004: '多些戶外活動',
};

/** Each pupil submits their choice of LESSON's one question. */
async function answer(id: number, pupils: string[], choices: string[]) {
  for (const [i, pupil] of pupils.entries()) {
    const sent = await qe.api(`/v1/my/questionnaires/${id}/replies`, await qe.token(pupil), 'POST', { submissionKey: `k-${crypto.randomUUID()}`, answers: { q1: { choice: choices[i] }, q2: IDEAS[pupil] } });
    expect(sent.code, sent.msg).toBe(200);
  }
}

/** a questionnaire of the year before the roll-over, for class 1A */
let lastYears: { id: number; title: string; pupils: number };
/** last year's questionnaire copied for this year by people, answered by three of the same pupils */
let thisYears: number;

beforeAll(async () => {
  qe = await startOwnQe();
  browser = await launchBrowser();
  const teacher = await qe.token('teacher01');
  const classes = (await qe.api<{ list: { id: number; code: string; count: number }[] }>('/v1/audience-options?kind=CLASS&q=1A', teacher)).data.list;
  const oneA = classes.find((c) => c.code === '1A')!;
  const title = '課堂回饋（去年）';
  // the survey begins as a school template: teacher02 saves a draft of it as one, and teacher01
  // makes last year's questionnaire from it (so the years below are one series through it too)
  const author = await qe.token('teacher02');
  const draft = await qe.api<{ id: number }>('/v1/questionnaires', author, 'POST', { title: '課堂回饋', type: 'NAMED', definition: LESSON });
  expect(draft.code, draft.msg).toBe(201);
  const template = await qe.api<{ id: number }>(`/v1/questionnaires/${draft.data.id}/save-as-template`, author, 'POST', { nameHk: '課堂回饋', nameEn: 'Lesson feedback', audienceKind: 'NONE' });
  expect(template.code, template.msg).toBe(201);
  const made = await qe.api<{ questionnaire: { id: number } }>(`/v1/questionnaire-templates/${template.data.id}/use`, teacher, 'POST', {});
  expect(made.code, made.msg).toBe(201);
  const created = { data: { id: made.data.questionnaire.id } };
  const dated = await qe.api(`/v1/questionnaires/${created.data.id}`, teacher, 'PUT', {
    title,
    targets: [{ kind: 'CLASS', ids: [oneA.id] }],
    openDate: new Date(Date.now() - 60_000).toISOString(),
    endDate: new Date(Date.now() + 86_400_000).toISOString(),
  });
  expect(dated.code, dated.msg).toBe(200);
  expect((await qe.api<{ status: string }>(`/v1/questionnaires/${created.data.id}/ready`, teacher, 'POST')).data.status).toBe('PROCESSING');
  // four of 1A answer last year: 三個「喜歡」，一個「不喜歡」
  await answer(created.data.id, ['student001', 'student002', 'student003', 'student004'], ['a', 'a', 'b', 'a']);
  lastYears = { id: created.data.id, title, pupils: oneA.count };
});
afterAll(async () => {
  await browser?.close();
  await qe?.close();
});

const call = <T>(path: string, token: string, method = 'GET', body?: unknown) => qe.api<T>(path, token, method, body);

/** The table's rows as [first cell, number in the last cell]. */
const tableCounts = (page: Page, testId: string) =>
  page.$$eval(`[data-testid="${testId}"] tbody tr`, (rows) => rows.map((r) => {
    const cells = [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '');
    return [cells[0], Number(cells[cells.length - 1])] as [string, number];
  }));

describe('the new school year, through the wizard', () => {
  it('previews, lets a class go elsewhere, rolls over at once, and stores what it showed', async () => {
    const token = await qe.token('admin');
    const before = (await call<RolloverPreview>('/v1/school-years/rollover/preview', token, 'POST', {})).data;
    const from = before.moves.find((m) => m.fromCode === '2A')!;
    const elsewhere = before.classes.find((c) => c.code === '3B')!;
    expect(from.toCode).toBe('3A');

    const page = await newPage(browser);
    await qe.loginAs(page, 'admin');
    await page.goto(qe.at('/master/years/list'));
    await page.getByTestId('new-school-year').click();
    await page.waitForURL(/\/master\/years\/new-year$/);
    await page.getByTestId('new-year-summary').waitFor();
    await expect(page.getByTestId('new-year-promoted').innerText()).resolves.toContain(String(before.promoted));
    await expect(page.getByTestId('new-year-graduates').innerText()).resolves.toContain(String(before.graduates));
    expect(await tableCounts(page, 'new-year-after')).toEqual(before.after.map((a) => [a.nameHk, a.students]));

    // 2A goes to 3B instead of 3A: the counts follow
    await page.getByTestId('new-year-target-2A').getByRole('combobox').click();
    await page.getByRole('option', { name: elsewhere.nameHk, exact: true }).click();
    const after3B = before.after.find((a) => a.code === '3B')!.students + from.students;
    await expect.poll(async () => Object.fromEntries(await tableCounts(page, 'new-year-after'))[elsewhere.nameHk]).toBe(after3B);
    // 3A keeps only what came from elsewhere (a class without students is not listed)
    await expect.poll(async () => Object.fromEntries(await tableCounts(page, 'new-year-after'))[before.after.find((a) => a.code === '3A')!.nameHk] ?? 0).toBe(before.after.find((a) => a.code === '3A')!.students - from.students);
    await page.getByTestId('new-year-loading').waitFor({ state: 'detached' });
    const shown = await tableCounts(page, 'new-year-after');

    await page.getByTestId('new-year-switch-now').click();
    await page.getByTestId('new-year-start').click();
    const dialog = page.getByTestId('new-year-confirm');
    await expect(dialog.innerText()).resolves.toContain(String(before.promoted));
    await page.getByTestId('new-year-confirm-run').click();
    await page.waitForURL(/\/master\/years\/list$/);
    await page.getByText(/已成為目前學年/).waitFor();

    // stored: next year current, each class as the screen showed, the graduating grade left
    const info = (await call<{ currentYear: { id: number; name: string } }>('/v1/my/user-info', token)).data;
    expect(info.currentYear.name).toBe(before.nextYear.name);
    const classes = (await call<{ list: { id: number; code: string; nameHk: string }[] }>('/v1/classes?size=100', token)).data.list;
    const stored: [string, number][] = [];
    for (const c of classes) {
      const n = (await call<{ total: number }>(`/v1/students?classId=${c.id}&size=1`, token)).data.total;
      if (n > 0) stored.push([c.nameHk, n]);
    }
    expect(stored.sort()).toEqual([...shown].sort());
    const graduateGrade = before.grades.find((g) => g.id === before.graduateGradeId)!;
    const leavers = (await call<{ total: number }>('/v1/students?status=2&size=1', token)).data.total;
    expect(leavers).toBe(before.graduates);
    expect(before.moves.filter((m) => m.graduates).every((m) => before.classes.find((c) => c.id === m.fromClassId)!.gradeId === graduateGrade.id)).toBe(true);

    // the wizard again starts from the new current year
    await page.goto(qe.at('/master/years/new-year'));
    await expect(page.getByTestId('new-year-summary').innerText()).resolves.toContain(`${before.nextYear.name} →`);
    await page.close();
  });

  it('copies last year’s questionnaire for this year on a phone: the same pupils, now a grade up, says how many, and compares the two years', async () => {
    const page = await newPage(browser, { width: 360, height: 740 });
    await qe.loginAs(page, 'teacher01');
    await page.goto(qe.at(`/forms/view?id=${lastYears.id}`));
    await page.getByTestId('action-copyForYear').click();
    const dialog = page.getByTestId('year-copy-dialog');
    await dialog.getByTestId('year-copy-people').click();
    await dialog.getByTestId('year-copy-submit').click();
    const done = dialog.getByTestId('year-copy-done');
    await done.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // 1A's pupils are 2A's now: all of them still asked, none dropped
    await expect(done.innerText()).resolves.toContain(`原本的對象有 ${lastYears.pupils} 人，今年有 ${lastYears.pupils} 人`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await dialog.getByTestId('year-copy-open').click();
    await page.waitForURL((u) => u.search !== `?id=${lastYears.id}` && u.pathname.endsWith('/forms/view'));
    const id = Number(new URL(page.url()).searchParams.get('id'));
    const token = await qe.token('teacher01');
    const copy = (await call<{ status: string; schoolYearId: number; openDate: string | null; targets: { kind: string; ids?: number[] }[] }>(`/v1/questionnaires/${id}`, token)).data;
    const current = (await call<{ currentYear: { id: number } }>('/v1/my/user-info', token)).data.currentYear;
    expect(copy).toMatchObject({ status: 'PREPARING', schoolYearId: current.id, openDate: null });
    expect(copy.targets).toEqual([{ kind: 'USERS', ids: expect.any(Array) }]);
    expect(copy.targets[0].ids).toHaveLength(lastYears.pupils);

    // it runs this year: three of the same pupils answer, 一個「喜歡」
    const dated = await call(`/v1/questionnaires/${id}`, token, 'PUT', { openDate: new Date(Date.now() - 60_000).toISOString(), endDate: new Date(Date.now() + 86_400_000).toISOString() });
    expect(dated.code, dated.msg).toBe(200);
    expect((await call<{ status: string }>(`/v1/questionnaires/${id}/ready`, token, 'POST')).data.status).toBe('PROCESSING');
    await answer(id, ['student001', 'student002', 'student003'], ['b', 'b', 'a']);
    thisYears = id;

    // the statistics put both years side by side: last year's 75 % 「喜歡」, this year's 33.3 %
    const years = (await call<{ years: { id: number; name: string }[] }>('/v1/my/user-info', token)).data.years;
    const lastName = years.find((y) => y.id !== current.id && y.name < years.find((x) => x.id === current.id)!.name)!.name;
    const currentName = years.find((y) => y.id === current.id)!.name;
    await page.goto(qe.at(`/data-statistics/detail?id=${id}`));
    await page.getByTestId('tab-years').click();
    const rows = page.getByTestId('years-question-q1').getByTestId('years-row');
    await expect.poll(() => rows.count()).toBe(2);
    const texts = (await rows.allInnerTexts()).map((r) => r.replace(/\s+/g, ' '));
    expect(texts[0]).toContain(lastName);
    expect(texts[0]).toContain('75% (3)');
    expect(texts[1]).toContain(currentName);
    expect(texts[1]).toContain('33.3% (1)');
    // and as a trend: a line per option across the two years, named for the question
    await page.getByTestId('years-question-q1').getByTestId('trend-chart').locator('canvas[role="img"][aria-label*="百分比走勢"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    // the comparison as a spreadsheet: both years, the same counts
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('comparison-export').click()]);
    expect(file.suggestedFilename()).toMatch(/歷年比較.*\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync((await file.path())!) as unknown as ArrayBuffer);
    const cells = Array.from(book.getWorksheet('歷年比較')!.getSheetValues(), (r) => (Array.isArray(r) ? r.slice(1) : []));
    expect(cells).toContainEqual(['學年', lastName, currentName]);
    expect(cells).toContainEqual(['回覆數', 4, 3]);
    // and as a PDF, made in the browser: both years' columns, the same percents and counts
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => document.querySelector('[data-testid="comparison-pdf"]')?.getAttribute('data-state') === 'success', undefined, { timeout: 30_000 });
    const [pdf] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('comparison-pdf').click()]);
    expect(pdf.suggestedFilename()).toMatch(/-歷年比較-\d{4}-\d{2}-\d{2}\.pdf$/);
    const pdfText = execFileSync('pdftotext', ['-layout', (await pdf.path())!, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
    expect(pdfText).toContain(`選項 ${lastName} ${currentName}`);
    expect(pdfText).toMatch(/喜歡 75% \(3\) 33\.3% \(1\)/);
    // the comparison and the copy dialog's result, as axe reads them at any impact
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });
  it('closes the year’s loop: a copy by grade says whom it asks now, the comparison’s counts are each year’s own, the top words, and the released summary on a pupil’s phone', async () => {
    const token = await qe.token('teacher01');
    // by grade and class this time: last year's 1A means this year's 1A, whoever is in it now
    const page = await newPage(browser, { width: 360, height: 740 });
    await qe.loginAs(page, 'teacher01');
    await page.goto(qe.at(`/forms/view?id=${lastYears.id}`));
    await page.getByTestId('action-copyForYear').click();
    const dialog = page.getByTestId('year-copy-dialog');
    await dialog.getByTestId('year-copy-grade').click();
    await dialog.getByTestId('year-copy-submit').click();
    const done = dialog.getByTestId('year-copy-done');
    await done.waitFor();
    await expect(done.innerText()).resolves.toMatch(new RegExp(`原本的對象有 ${lastYears.pupils} 人，今年有 \\d+ 人`));

    // the comparison's figures are each year's own statistics, year by year
    const compared = (await call<StatisticsComparison>(`/v1/statistics/${thisYears}/comparison`, token)).data;
    expect(compared.series.map((m) => m.questionnaire.id)).toEqual([lastYears.id, thisYears]);
    for (const [i, m] of compared.series.entries()) {
      const own = (await call<StatisticsDetail>(`/v1/statistics/${m.questionnaire.id}`, token)).data;
      expect(m.replyCount).toBe(own.replyCount);
      for (const q of compared.questions) expect(q.years[i]?.summary).toEqual(own.questions.find((x) => x.id === q.id)?.summary);
    }

    // this year's suggestions: 「圖書館」 leads the words; the questionnaire ends, one suggestion is marked shown
    await page.goto(qe.at(`/data-statistics/detail?id=${thisYears}`));
    await expect.poll(() => page.getByTestId('terms-q2-answer').getByTestId('term').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('圖書館')]));
    expect((await call(`/v1/questionnaires/${thisYears}/close`, token, 'POST')).code).toBe(200);
    const texts = (await call<{ list: { replyId: string; text: string }[] }>(`/v1/statistics/${thisYears}/texts?questionId=q2&size=50`, token)).data.list;
    const marked = texts.find((x) => x.text === IDEAS.student001)!;
    expect((await call(`/v1/statistics/${thisYears}/texts/marks`, token, 'PUT', { questionId: 'q2', replyIds: [marked.replyId], shown: true })).code).toBe(200);

    // released to the respondents from the statistics screen
    expect((await call<{ mayRelease: boolean; status: string }>(`/v1/statistics/${thisYears}/release`, token)).data).toMatchObject({ mayRelease: true, status: 'FINISHED' });
    await page.goto(qe.at(`/data-statistics/detail?id=${thisYears}`));
    await page.getByTestId('statistics-detail').waitFor();
    await page.getByTestId('release-results').click();
    const release = page.getByTestId('release-dialog');
    await expect.poll(() => release.getByTestId('release-shows').innerText()).toContain('1 個已標示為顯示的文字答案');
    await release.getByTestId('release-confirm').click();
    await release.waitFor({ state: 'detached' });
    await page.close();

    // a pupil who answered this year finds it on a phone: the chart, and the marked suggestion only
    const phone = await newPage(browser, { width: 360, height: 740 });
    await qe.loginAs(phone, 'student001');
    await phone.goto(qe.at('/questionnaire-filling/list'));
    await phone.getByTestId('released-result').first().getByRole('link').click();
    await phone.getByTestId('result-summary').waitFor();
    await phone.getByTestId('summary-question-q1').locator('canvas').first().waitFor();
    await expect(phone.getByTestId('summary-question-q2').getByTestId('summary-text').allInnerTexts()).resolves.toEqual([IDEAS.student001]);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.close();
  });
});
