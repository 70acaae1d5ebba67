import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiLogin, api, launchBrowser, loginAs, newPage, openedForClass, url } from './browser.js';
import { axeViolations, checkScreen, chooseLanguage, LANGUAGES, openScreen, settled, SIZES, type Finding } from './accessibility-checks.js';

// Every screen of every role, at a desktop and a phone size, in both languages: axe-core
// finds no critical or serious violation, `<html lang>` is the screen's language, and no screen
// scrolls sideways. The screens are the menu's entries as the role sees them, plus the ones reached
// from them (a form to add, a record, the designer, the answer screen, a questionnaire's results).
let browser: Browser;
/** screens reached from the menu's, by role: filled once the questionnaires they show exist */
const more: Record<string, string[]> = {};

beforeAll(async () => {
  browser = await launchBrowser();
  const teacher = await apiLogin('teacher01');
  const definition = {
    version: 1,
    sections: [
      {
        id: 's1',
        title: 'Lunch',
        questions: [
          { id: 'q1', type: 'RADIO', title: 'Your lunch', required: true, options: [{ id: 'a', label: 'Rice' }, { id: 'b', label: 'Noodles' }] },
          { id: 'q2', type: 'LINEAR_SCALE', title: 'How good', required: false, scale: { min: 1, max: 5, minLabel: 'Bad', maxLabel: 'Good' } },
          { id: 'q3', type: 'GRID_RADIO', title: 'Each day', required: false, rows: [{ id: 'r1', label: 'Mon' }], columns: [{ id: 'c1', label: 'Yes' }, { id: 'c2', label: 'No' }] },
          { id: 'q4', type: 'PARAGRAPH', title: 'Anything else', required: false },
          { id: 'q5', type: 'DATE', title: 'When', required: false },
        ],
      },
    ],
  };
  const id = await openedForClass(teacher, '1A', 'Accessibility: lunch', definition);
  const student = await api<{ list: { id: number; code: string }[] }>('/v1/students?page=1&size=5&q=', await apiLogin('admin'));
  const someStudent = student.envelope.data.list[0]?.id;
  const staff = [`/forms/add`, `/forms/view?id=${id}`, `/forms/doc?id=${id}`, `/data-statistics/detail?id=${id}`, '/change-psw'];
  more.superadmin = [...staff, '/master/students/add', `/master/students/view?id=${someStudent}`, `/master/students/edit?id=${someStudent}`, '/developer/role/add'];
  more.admin = [...staff, '/master/students/add', `/master/students/edit?id=${someStudent}`];
  more.teacher01 = staff;
  more.student001 = [`/questionnaire-filling/detail?id=${id}`, '/change-psw'];
});
afterAll(async () => browser?.close());

/** The menu's screens as the signed-in role sees them at this size (groups opened one by one), as paths. */
async function menuScreens(page: Page, phone: boolean): Promise<string[]> {
  if (phone) {
    await page.getByRole('button', { name: /選單|menu/i }).first().click();
    await page.getByTestId('menu-dashboard').waitFor({ state: 'visible' });
  }
  const paths = new Set<string>();
  const read = async () => {
    for (const href of await page.$$eval('a[data-testid^="menu-"]', (els) => els.map((e) => e.getAttribute('href') ?? ''))) if (href) paths.add(href.replace(/^.*\/qe/, ''));
  };
  await read();
  for (const group of await page.$$eval('[data-testid^="menu-group-"]', (els) => els.map((e) => e.getAttribute('data-testid')!))) {
    const opened = await page.$(`[data-testid="${group}"] + * a[data-testid^="menu-"]`);
    if (!opened) await page.getByTestId(group).click();
    await page.waitForTimeout(250);
    await read();
  }
  if (phone) {
    await page.keyboard.press('Escape');
    await page.getByTestId('menu-dashboard').waitFor({ state: 'hidden' });
  }
  return [...paths];
}

describe('every screen is accessible', () => {
  it('before logging in: the login screen and the tutorial, at both sizes, in both languages', { timeout: 300_000 }, async () => {
    const findings: Finding[] = [];
    for (const viewport of Object.values(SIZES)) {
      const page = await newPage(browser, viewport);
      for (const language of LANGUAGES) {
        for (const screen of ['/login', '/tutorial']) {
          await page.goto(url(screen));
          await settled(page);
          if (screen === '/login' && (await page.evaluate(() => document.documentElement.lang)) !== (language === 'en' ? 'en' : 'zh-HK')) {
            await page.getByTestId('language-switch').click();
            await page.getByTestId(`language-${language}`).click();
            await settled(page);
          }
          const where = `${viewport.width} px ${language} ${screen}`;
          const lang = await page.evaluate(() => document.documentElement.lang);
          if (lang !== (language === 'en' ? 'en' : 'zh-HK')) findings.push({ screen: where, problem: `<html lang="${lang}">` });
          const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (sideways > 0) findings.push({ screen: where, problem: `scrolls sideways by ${sideways} px` });
          for (const v of await axeViolations(page)) findings.push({ screen: where, problem: v });
        }
      }
      await page.close();
    }
    expect(findings.map((f) => `${f.screen}: ${f.problem}`)).toEqual([]);
  });

  /** One role's walk at one size: every screen in both languages, what each breaks. */
  async function walk(username: string, size: keyof typeof SIZES): Promise<Finding[]> {
    const viewport = SIZES[size];
    const page = await newPage(browser, viewport);
    await loginAs(page, username);
    const screens = [...(await menuScreens(page, size === 'phone')), ...(more[username] ?? [])];
    expect(screens.length).toBeGreaterThan(2);
    const findings: Finding[] = [];
    for (const language of LANGUAGES) {
      await chooseLanguage(page, language);
      for (const screen of screens) {
        await openScreen(page, screen);
        findings.push(...(await checkScreen(page, language, `${viewport.width} px ${language} ${screen}`)));
      }
    }
    await page.context().close();
    return findings;
  }

  // the two sizes side by side, each in a context of its own (its own language setting): a walk
  // mostly waits for its page, so two keep both cores of a CI machine busy
  for (const username of ['superadmin', 'admin', 'teacher01', 'student001']) {
    it(`as ${username} at ${SIZES.desktop.width} and ${SIZES.phone.width} px, in both languages`, { timeout: 900_000 }, async () => {
      const findings = (await Promise.all([walk(username, 'desktop'), walk(username, 'phone')])).flat();
      expect(findings.map((f) => `${f.screen}: ${f.problem}`)).toEqual([]);
    });
  }
});
