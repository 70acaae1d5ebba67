import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import enMessages from '../../src/client/i18n/en.js';
import zhHkMessages from '../../src/client/i18n/zh-hk.js';
import { apiLogin, api, launchBrowser, loginAs, newPage, openedForClass, url } from './browser.js';

// Every screen of every role (issue 15), at a desktop and a phone size, in both languages: axe-core
// finds no critical or serious violation, `<html lang>` is the screen's language, and no screen
// scrolls sideways. The screens are the menu's entries as the role sees them, plus the ones reached
// from them (a form to add, a record, the designer, the answer screen, a questionnaire's results).
// evaluated as the test's own script: the page's Content-Security-Policy refuses inline scripts, as it should
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 640 } } as const;
const LANGUAGES = ['zh-hk', 'en'] as const;

interface Finding {
  screen: string;
  problem: string;
}

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

/** Waits until the screen has loaded what it shows: no progress indicator left, the page still a moment. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded');
  await page.waitForTimeout(400);
  await page.waitForFunction(() => !document.querySelector('[role="progressbar"], .MuiLinearProgress-root, .MuiCircularProgress-root'), undefined, { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(200);
}

/** axe-core's critical and serious violations on the screen now, one line each with where. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // @ts-expect-error axe is the script just added
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return (result.violations as { id: string; impact: string; help: string; nodes: { target: string[]; html: string }[] }[])
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(' | ')}${v.nodes.length > 4 ? ` … ${v.nodes.length} in all` : ''}`);
  });
  return violations;
}

/** Every text of a message catalogue, cut at its placeholders (%{name}) and plural forms (||||). */
function fragments(messages: object): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') for (const f of v.split(/%\{[^}]*\}|\|\|\|\||\n/)) out.push(f.trim());
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(messages);
  return out;
}

/**
 * The texts that say a screen is in the other language: on a zh-hk screen, the English catalogue's
 * texts (react-admin's included) and MUI's own English defaults; on an English screen, the zh-hk
 * catalogue's. Only texts long enough to mean something alone (a 2-character Chinese word or a short
 * English one is also found in data), and none that both catalogues hold (QE, JSON, Excel).
 */
const MUI_ENGLISH = ['Go to next page', 'Go to previous page', 'Go to first page', 'Go to last page', 'pagination navigation', 'Rows per page', 'No options', 'Show path', 'Profile'];
const zhTexts = new Set(fragments(zhHkMessages));
const enTexts = new Set(fragments(enMessages));
const FOREIGN: Record<'zh-hk' | 'en', string[]> = {
  'zh-hk': [...new Set([...enTexts, ...MUI_ENGLISH])].filter((t) => t.length >= 6 && /[A-Za-z]{3}/.test(t) && !zhTexts.has(t)),
  en: [...zhTexts].filter((t) => (t.match(/[\u3400-\u9fff]/g) ?? []).length >= 3 && !enTexts.has(t)),
};

/**
 * What a screen says in the other language: the names and hints of controls (aria-label, title,
 * placeholder, alt), buttons, tabs, column headers, labels and legends holding a text of the other
 * language's catalogue.
 */
async function otherLanguage(page: Page, language: 'zh-hk' | 'en'): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('[aria-label], [title], [placeholder], img[alt]'))) {
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v) out.push(`${el.tagName.toLowerCase()}[${a}]: ${v}`);
      }
    }
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('button, [role="button"], [role="tab"], th, label, legend, h1, h2, h3'))) {
      if (el.getClientRects().length) out.push(`${el.tagName.toLowerCase()}: ${el.textContent ?? ''}`);
    }
    return out;
  });
  const found: string[] = [];
  for (const line of new Set(shown)) {
    const text = line.slice(line.indexOf(': ') + 2);
    const hit = FOREIGN[language].find((t) => text.includes(t));
    if (hit) found.push(`${line.slice(0, 120)} («${hit}»)`);
  }
  return found;
}

async function chooseLanguage(page: Page, language: 'zh-hk' | 'en') {
  await page.getByTestId('language-switch').click();
  await page.getByTestId(`language-${language}`).click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language === 'en' ? 'en' : 'zh-HK');
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

  for (const username of ['superadmin', 'admin', 'teacher01', 'student001']) {
    for (const [size, viewport] of Object.entries(SIZES)) {
      it(`as ${username} at ${viewport.width} px, in both languages`, { timeout: 900_000 }, async () => {
        const page = await newPage(browser, viewport);
        await loginAs(page, username);
        const screens = [...(await menuScreens(page, size === 'phone')), ...(more[username] ?? [])];
        expect(screens.length).toBeGreaterThan(2);
        const findings: Finding[] = [];
        for (const language of LANGUAGES) {
          await chooseLanguage(page, language);
          for (const screen of screens) {
            await page.goto(url(screen));
            await settled(page);
            const where = `${language} ${screen}`;
            const lang = await page.evaluate(() => document.documentElement.lang);
            if (lang !== (language === 'en' ? 'en' : 'zh-HK')) findings.push({ screen: where, problem: `<html lang="${lang}">` });
            const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            if (sideways > 0) findings.push({ screen: where, problem: `scrolls sideways by ${sideways} px` });
            for (const v of await axeViolations(page)) findings.push({ screen: where, problem: v });
            for (const t of await otherLanguage(page, language)) findings.push({ screen: where, problem: `not in ${language}: ${t}` });
          }
        }
        await page.close();
        expect(findings.map((f) => `${f.screen}: ${f.problem}`)).toEqual([]);
      });
    }
  }
});
