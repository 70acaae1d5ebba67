import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { api, apiLogin, launchBrowser, loginAs, newPage, openedForClass, url } from './browser.js';
import { checkScreen, LANGUAGES, settled, SIZES, type Finding, type Language } from './accessibility-checks.js';

// What accessibility.test.ts cannot see by loading screens: the dialogs, menus, drawers,
// listboxes, tooltips and messages opened on them, at 1280×800 and 360×640, in both languages, as
// the role that has them. Each is opened, checked (axe-core: no critical or serious violation;
// nothing in the other language; nothing sideways; `<html lang>`) and closed or cancelled:
// - admin: on the students list the status filter's listbox, the import dialog; at 1280 px a row
//   button's tooltip, the delete confirmation and the class filter's picker (a phone's cards have
//   no row buttons); at 360 px the menu drawer and the filter button's menu (then the filter it
//   adds); the reset password dialog of a student's form; the top bar's user and language menus
//   and its Google account confirmation;
// - teacher01: the personal data question after logging in (zh-hk at 1280 px, English at 360 px:
//   it is asked once a login); the questionnaire list's status filter listbox; a running
//   questionnaire's extend (end date) and send-notice dialogs; in the designer the phone's overflow
//   menu, the preview, the definition import (its confirmation, and a refused file), the
//   add-question menu, the problem summary of "design complete" with a question without a title
//   (and its message), a question's delete confirmation and the unsaved-changes confirmation;
// - student001: the answer screen's message for a required question left out, the submit dialog
//   (checking, then busy: the server's answer held back and refused), and the leave confirmation.
// One page per role and size, reused across both languages; clicks, not page loads, between checks.

let browser: Browser;
let running: number;
let preparing: number;
let someStudent: number;

// data neither catalogue holds, so that it is never taken for a text of the other language
const definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      title: 'A11y 1',
      questions: [
        { id: 'q1', type: 'SHORT_TEXT', title: 'A11y 名', required: true },
        { id: 'q2', type: 'RADIO', title: 'A11y 飯', required: false, options: [{ id: 'a', label: 'A11y 甲' }, { id: 'b', label: 'A11y 乙' }] },
      ],
    },
  ],
};

beforeAll(async () => {
  browser = await launchBrowser();
  const teacher = await apiLogin('teacher01');
  running = await openedForClass(teacher, '1A', 'A11y dialogs 1', definition);
  // a questionnaire still being designed, for the same class (design complete needs an audience)
  const classes = await api<{ list: { id: number; code: string }[] }>('/v1/audience-options?kind=CLASS&q=1A', teacher);
  const created = await api<{ id: number }>('/v1/questionnaires', teacher, 'POST', {
    title: 'A11y dialogs 2',
    type: 'NAMED',
    openDate: new Date(Date.now() + 86_400_000).toISOString(),
    endDate: new Date(Date.now() + 8 * 86_400_000).toISOString(),
    targets: [{ kind: 'CLASS', ids: [classes.envelope.data.list.find((k) => k.code === '1A')!.id] }],
    definition,
  });
  expect(created.envelope.code, created.envelope.msg).toBe(201);
  preparing = created.envelope.data.id;
  const students = await api<{ list: { id: number }[] }>('/v1/students?page=1&size=5&q=', await apiLogin('admin'));
  someStudent = students.envelope.data.list[0].id;
});
afterAll(async () => browser?.close());

/** The checks of one size and role: each overlay's findings, named by where it was opened. */
function checker(page: Page, size: string, start: Language = 'zh-hk') {
  const findings: Finding[] = [];
  let language = start;
  return {
    findings,
    set language(l: Language) {
      language = l;
    },
    /** checks the screen as it is now, once what opens has stopped moving (a half-faded text fails on contrast) */
    async check(what: string, shown: Locator) {
      await shown.waitFor({ state: 'visible' });
      await page.evaluate(async () => {
        // a frame for a transition to start, then until none that ends is running (a spinner's never
        // ends; the ripple of the button just clicked changes no text, and takes longer than what opens)
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const until = Date.now() + 5_000;
        for (await frame(); Date.now() < until; await frame()) {
          const moving = document.getAnimations().filter((a) => {
            const target = (a.effect as KeyframeEffect | null)?.target;
            return a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity && !target?.closest('.MuiTouchRipple-root');
          });
          if (!moving.length) return;
          await Promise.race([Promise.all(moving.map((a) => a.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, until - Date.now()))]);
        }
      });
      findings.push(...(await checkScreen(page, language, `${size} ${language} ${what}`)));
    },
  };
}

/** Closes what is open with Escape, and waits until it has gone. */
async function escape(page: Page, open: Locator) {
  await page.keyboard.press('Escape');
  await open.waitFor({ state: 'hidden' });
}

/** Cancels the dialog open (its first action: cancel, close, stay) and waits until it has gone. */
async function cancel(page: Page) {
  const dialog = page.getByRole('dialog');
  await dialog.locator('.MuiDialogActions-root button').first().click();
  await dialog.waitFor({ state: 'hidden' });
}

/** A list's filter select (react-admin's filter form) by its source. */
const filterSelect = (page: Page, source: string) => page.locator(`.RaFilterForm-filterFormInput[data-source="${source}"] [role="combobox"]`);

/** The page back at its top: on a phone the top bar slides away as the page scrolls down. */
async function toTop(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('header').first().evaluate((el) => new Promise((resolve) => setTimeout(resolve, getComputedStyle(el).visibility === 'hidden' || el.getBoundingClientRect().top < 0 ? 400 : 0)));
}

/** The top bar's language menu open (checked as the language now), then the language chosen. */
async function chooseLanguageChecked(page: Page, c: ReturnType<typeof checker>, language: Language) {
  await toTop(page);
  await page.getByTestId('language-switch').click();
  await c.check('the language menu', page.getByRole('menu'));
  await page.getByTestId(`language-${language}`).click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language === 'en' ? 'en' : 'zh-HK');
  await page.getByRole('menu').waitFor({ state: 'hidden' });
  c.language = language;
  await settled(page);
}

const report = (findings: Finding[]) => findings.map((f) => `${f.screen}: ${f.problem}`);

/** One role's checks at one size: what each overlay breaks. */
type Walk = (size: keyof typeof SIZES) => Promise<Finding[]>;

const adminDialogs: Walk = async (size) => {
  const viewport = SIZES[size];
  const phone = size === 'phone';
  const page = await newPage(browser, viewport);
  const c = checker(page, size);
  await loginAs(page, 'admin');
  /** goes to a screen unless there already */
  const at = async (path: string) => {
    if (page.url().endsWith(path)) return;
    await page.goto(url(path));
    await settled(page);
  };
  const onList = async () => {
    await at('/master/students/list');
    if (phone) {
      await toTop(page);
      await page.getByRole('button', { name: /選單|menu/i }).first().click();
      await c.check('the menu drawer', page.getByTestId('menu-dashboard'));
      await escape(page, page.getByTestId('menu-dashboard'));
      await page.getByTestId('master-filters').click();
      const filters = page.getByRole('menu');
      await c.check('the filter button menu', filters);
      // the status filter, once added, stays (the list keeps its filters): the second time it is there
      const status = filters.locator('[data-key="status"]');
      if ((await status.getAttribute('aria-checked')) === 'false') await status.click();
      else await escape(page, filters);
      await filters.waitFor({ state: 'hidden' });
    } else {
      await page.getByTestId('row-edit').first().hover();
      await c.check('a row button tooltip', page.getByRole('tooltip'));
      await page.mouse.move(0, 0);
      await page.getByRole('tooltip').waitFor({ state: 'hidden' });
      await page.getByTestId('row-delete').first().click();
      await c.check('the delete confirmation', page.getByRole('dialog'));
      await cancel(page);
      // the class filter: a searchable picker's listbox
      await page.locator('.RaFilterForm-filterFormInput[data-source="classId"] input[role="combobox"]').click();
      await c.check('the class filter listbox', page.getByRole('listbox').getByRole('option').first());
      await escape(page, page.getByRole('listbox'));
    }
    await filterSelect(page, 'status').click();
    await c.check('the status filter listbox', page.getByRole('listbox'));
    await escape(page, page.getByRole('listbox'));

    await page.getByTestId('master-import').click();
    await c.check('the import dialog', page.getByTestId('import-dialog'));
    await cancel(page);

    await toTop(page);
    await page.getByRole('button', { name: /用戶選單|User menu/ }).click();
    await c.check('the user menu', page.getByRole('menu'));
    await escape(page, page.getByRole('menu'));
    await page.getByTestId('google-account').click();
    await c.check('the Google account confirmation', page.getByRole('dialog'));
    await cancel(page);
  };
  const onForm = async () => {
    await at(`/master/students/edit?id=${someStudent}`);
    await page.getByTestId('reset-password').click();
    await c.check('the reset password dialog', page.getByRole('dialog'));
    await cancel(page);
  };
  await at('/master/students/list');
  // the list, then the form; in the other language the form, then the list: one page load less
  for (const [i, language] of LANGUAGES.entries()) {
    await chooseLanguageChecked(page, c, language);
    for (const step of i % 2 ? [onForm, onList] : [onList, onForm]) await step();
  }
  await page.context().close();
  return c.findings;
};

const teacherDialogs: Walk = async (size) => {
  const viewport = SIZES[size];
  const phone = size === 'phone';
  const page = await newPage(browser, viewport);
  // the question asked once after logging in (personal data): in zh-hk at 1280 px, in English at 360 px
  const start: Language = phone ? 'en' : 'zh-hk';
  await page.addInitScript((locale) => {
    if (localStorage.getItem('RaStoreqe.locale') === null) {
      localStorage.setItem('RaStoreqe.version', '1');
      localStorage.setItem('RaStoreqe.locale', JSON.stringify(locale));
    }
  }, start);
  const c = checker(page, size, start);
  await loginAs(page, 'teacher01', undefined, { personalPrompt: true });
  await c.check('the personal data question after logging in', page.getByTestId('personal-prompt'));
  await page.getByTestId('personal-prompt-later').click();
  await page.getByTestId('personal-prompt').waitFor({ state: 'hidden' });
  await page.goto(url('/forms/list'));
  await settled(page);
  for (const language of LANGUAGES) {
    await chooseLanguageChecked(page, c, language);
    await filterSelect(page, 'status').click();
    await c.check('the questionnaire list status listbox', page.getByRole('listbox'));
    await escape(page, page.getByRole('listbox'));

    await page.goto(url(`/forms/view?id=${running}`));
    await settled(page);
    await page.getByTestId('action-extend').click();
    await c.check('the extend dialog', page.getByTestId('extend-dialog'));
    await cancel(page);
    await page.getByTestId('action-notice').click();
    await c.check('the send notice confirmation', page.getByRole('dialog'));
    await cancel(page);

    await page.goto(url(`/forms/doc?id=${preparing}`));
    await page.getByTestId('question-editor').first().waitFor();
    await settled(page);
    const more = async () => {
      await page.getByTestId('designer-more').click();
      await page.getByRole('menu').waitFor();
    };
    if (phone) {
      await more();
      await c.check('the designer overflow menu', page.getByRole('menu'));
    }
    await page.getByTestId('designer-preview').click();
    await c.check('the preview', page.getByTestId('preview-dialog'));
    await page.getByTestId('preview-close').click();
    await page.getByTestId('preview-dialog').waitFor({ state: 'hidden' });

    const file = page.getByTestId('designer-import-file');
    await file.setInputFiles({ name: 'definition.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(definition)) });
    await c.check('the definition import confirmation', page.getByRole('dialog'));
    await cancel(page);
    await file.setInputFiles({ name: 'definition.json', mimeType: 'application/json', buffer: Buffer.from('{ not json') });
    await c.check('the definition import refusal', page.getByTestId('import-refused'));
    await cancel(page);

    await page.getByTestId('add-question-0').click();
    await c.check('the add question menu', page.getByRole('menu'));
    await page.getByTestId('add-type-SHORT_TEXT').click();
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    if (phone) await more();
    await page.getByTestId('designer-ready').click();
    await c.check('the design complete problem summary', page.getByTestId('designer-problems'));

    await page.getByTestId('question-delete').last().click();
    await c.check('the question delete confirmation', page.getByRole('dialog'));
    await cancel(page);
    await page.getByTestId('designer-back').click();
    await c.check('the unsaved changes confirmation', page.getByRole('dialog'));
    // leave without saving
    await page.getByRole('dialog').locator('.MuiDialogActions-root button').last().click();
    await page.waitForURL(/\/forms\/list$/);
    await settled(page);
  }
  await page.context().close();
  return c.findings;
};

const studentDialogs: Walk = async (size) => {
  const viewport = SIZES[size];
  const page = await newPage(browser, viewport);
  const c = checker(page, size);
  await loginAs(page, 'student001');
  await page.goto(url(`/questionnaire-filling/detail?id=${running}`));
  await page.getByTestId('question-q1').waitFor();
  await settled(page);
  const name = page.getByTestId('question-q1').getByRole('textbox');
  for (const language of LANGUAGES) {
    await chooseLanguageChecked(page, c, language);
    await name.fill('');
    await page.getByTestId('section-submit').click();
    await c.check('a required answer left out', page.getByTestId('section-problems'));

    // the server's answer held back, then a refusal that says nothing: checking, then busy
    await name.fill('A11y');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/v1/my/questionnaires/${running}/replies`, async (route) => {
      await held;
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 503, msg: 'busy', data: null }) });
    });
    await page.getByTestId('section-submit').click();
    await c.check('the submit dialog, checking', page.getByTestId('submit-checking'));
    release();
    await c.check('the submit dialog, busy', page.getByTestId('submit-busy-close'));
    await page.unroute(`**/v1/my/questionnaires/${running}/replies`);
    await page.getByTestId('submit-busy-close').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    await page.getByTestId('filling-back').click();
    await c.check('the leave confirmation', page.getByRole('dialog'));
    await cancel(page);
  }
  await page.context().close();
  return c.findings;
};

// the two sizes side by side, each in a context of its own: a walk mostly waits for its page
describe('every dialog, menu and drawer is accessible', () => {
  it(`as admin at ${SIZES.desktop.width} and ${SIZES.phone.width} px: the students list's and the top bar's`, { timeout: 300_000 }, async () => {
    const findings = (await Promise.all([adminDialogs('desktop'), adminDialogs('phone')])).flat();
    expect(report(findings)).toEqual([]);
  });
  it(`as teacher01 at ${SIZES.desktop.width} and ${SIZES.phone.width} px: the questionnaires' and the designer's`, { timeout: 300_000 }, async () => {
    const findings = (await Promise.all([teacherDialogs('desktop'), teacherDialogs('phone')])).flat();
    expect(report(findings)).toEqual([]);
  });
  it(`as student001 at ${SIZES.desktop.width} and ${SIZES.phone.width} px: the answer screen's`, { timeout: 300_000 }, async () => {
    const findings = (await Promise.all([studentDialogs('desktop'), studentDialogs('phone')])).flat();
    expect(report(findings)).toEqual([]);
  });
});
