import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { url } from './browser.js';
import enMessages from '../../src/client/i18n/en.js';
import zhHkMessages from '../../src/client/i18n/zh-hk.js';

// The checks that the accessibility e2e tests share (accessibility.test.ts: every
// screen; accessibility-dialogs.test.ts: the dialogs, menus and drawers opened on them).

// evaluated as the test's own script: the page's Content-Security-Policy refuses inline scripts, as it should
export const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 640 } } as const;
export const LANGUAGES = ['zh-hk', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface Finding {
  screen: string;
  problem: string;
}

/** Waits until the screen has loaded what it shows: no progress indicator left, the page still a moment. */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded');
  await page.waitForTimeout(300);
  await page.waitForFunction(() => !document.querySelector('[role="progressbar"], .MuiLinearProgress-root, .MuiCircularProgress-root'), undefined, { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(150);
}

/**
 * Opens a screen (a path under /qe) as a user following a link does: inside the running app
 * (the router follows the history), loading the page only when the app is not running yet. A
 * whole load per screen parsed the app and axe-core again each time, and doubled the walk's time.
 */
export async function openScreen(page: Page, path: string): Promise<void> {
  const running = page.url().startsWith(url('')) && (await page.evaluate(() => Boolean(document.querySelector('#root > *'))).catch(() => false));
  if (running) {
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    }, new URL(url(path)).pathname + new URL(url(path)).search);
    await page.waitForFunction((to) => window.location.pathname + window.location.search === to, new URL(url(path)).pathname + new URL(url(path)).search);
  } else {
    await page.goto(url(path));
  }
  await settled(page);
}

/** axe-core's violations of every impact on the screen now, one line each with where. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // colours are judged as they end up, not halfway through a transition (a chip turning green
    // as the PDF font arrives mid-scan measured as grey on blue): transitions and animations jump to their end
    if (!document.getElementById('qe-axe-still')) {
      const still = document.createElement('style');
      still.id = 'qe-axe-still';
      still.textContent = '*, *::before, *::after { transition: none !important; animation-duration: 0s !important; animation-delay: 0s !important; }';
      document.head.appendChild(still);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
    // An open menu or select list (MUI's Popover, a modal popup at the end of the page) hides the
    // rest of the page from assistive technology while it is open (aria-hidden on the app), exactly
    // as a modal dialog does: axe's region rule counts dialogs as regions by default
    // ('dialog, [role=dialog], [role=alertdialog], svg'), and here counts these modal popups as well.
    // Moving them into a landmark would undo that hiding (MUI hides the portal container's siblings).
    // Tooltips and autocomplete lists, which leave the page usable, are drawn in place (theme.ts).
    // @ts-expect-error axe is the script just added
    window.axe.configure({ checks: [{ id: 'region', options: { regionMatcher: 'dialog, [role=dialog], [role=alertdialog], svg, .MuiPopover-root[role=presentation]' } }] });
    // @ts-expect-error axe is the script just added
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return (result.violations as { id: string; impact: string; help: string; nodes: { target: string[]; html: string }[] }[])
      .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(' | ')}${v.nodes.length > 4 ? ` … ${v.nodes.length} in all` : ''}`);
  });
  return violations;
}

/** Every text of a message catalogue, cut at its placeholders (%{name}) and plural forms (||||). */
export function fragments(messages: object): string[] {
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
export const MUI_ENGLISH = ['Go to next page', 'Go to previous page', 'Go to first page', 'Go to last page', 'pagination navigation', 'Rows per page', 'No options', 'Show path', 'Profile'];
/** MUI's short English defaults (autocomplete, alert), too short for the list above: a control named by one of them alone. */
const MUI_ENGLISH_SHORT = ['Open', 'Close', 'Clear', 'Loading…'];
/** A message key shown as it is (a text missing from the catalogue): qe.master.import.title, ra.action.save. */
const MESSAGE_KEY = /\b(?:qe|ra)\.(?:[a-z][A-Za-z_]*\.)+[a-z][A-Za-z_]*\b/;
const zhTexts = new Set(fragments(zhHkMessages));
const enTexts = new Set(fragments(enMessages));
export const FOREIGN: Record<Language, string[]> = {
  'zh-hk': [...new Set([...enTexts, ...MUI_ENGLISH])].filter((t) => t.length >= 6 && /[A-Za-z]{3}/.test(t) && !zhTexts.has(t)),
  en: [...zhTexts].filter((t) => (t.match(/[\u3400-\u9fff]/g) ?? []).length >= 3 && !enTexts.has(t)),
};

const HAN = /[\u3400-\u9fff\uf900-\ufaff\u{20000}-\u{3ffff}]/u;
const LETTER = /\p{L}/u;

/**
 * Whether `fragment` (a catalogue text) stands in `text` as a text of its own, not as a piece of a
 * longer word: a Chinese fragment with no Chinese character beside it, an English one with no
 * letter beside it. So a record a test made (a title 首頁進行中, a name) does not read as the
 * interface in the other language, while a label left untranslated ("狀態: 進行中", "Save") does.
 */
export function standsAlone(text: string, fragment: string): boolean {
  const neighbour = HAN.test(fragment) ? HAN : LETTER;
  for (let at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + 1)) {
    const before = Array.from(text.slice(0, at)).at(-1) ?? '';
    const after = Array.from(text.slice(at + fragment.length))[0] ?? '';
    if (!neighbour.test(before) && !neighbour.test(after)) return true;
  }
  return false;
}

/**
 * What a screen says in the other language: the names and hints of controls (aria-label, title,
 * placeholder, alt), buttons, tabs, column headers, labels and legends holding a text of the other
 * language's catalogue (on a zh-hk screen also a control named by one of MUI's short English
 * defaults, and on either a message key shown as it is); and every text shown in an open dialog,
 * menu, listbox, tooltip, drawer or message (sentences in paragraphs and list items, not only
 * buttons and labels). A part marked with a `lang` of its own is in the language it says.
 */
export async function otherLanguage(page: Page, language: Language): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const out: string[] = [];
    // a part marked as written in another language (lang="en" on a zh-hk screen: a language's own
    // name in a language menu) is not the interface left untranslated (WCAG's "language of parts")
    const page = document.documentElement.lang.toLowerCase();
    const marked = (el: Element) => (el.closest('[lang]')?.getAttribute('lang') ?? page).toLowerCase() !== page;
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('[aria-label], [title], [placeholder], img[alt]'))) {
      if (marked(el)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v) out.push(`${el.tagName.toLowerCase()}[${a}]: ${v}`);
      }
    }
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('button, [role="button"], [role="tab"], th, label, legend, h1, h2, h3'))) {
      if (el.getClientRects().length && !marked(el)) out.push(`${el.tagName.toLowerCase()}: ${el.textContent ?? ''}`);
    }
    // what an open overlay says, element by element (each element's own text)
    const overlays = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], [role="tooltip"], .MuiDrawer-modal, .MuiSnackbar-root';
    for (const box of Array.from(document.querySelectorAll<HTMLElement>(overlays))) {
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (el && node.textContent?.trim() && !marked(el) && el.checkVisibility({ visibilityProperty: true })) out.push(`${el.closest('[role]')?.getAttribute('role') ?? 'overlay'} ${el.tagName.toLowerCase()}: ${el.textContent ?? ''}`);
      }
    }
    return out;
  });
  const found: string[] = [];
  for (const line of new Set(shown)) {
    const text = line.slice(line.indexOf(': ') + 2);
    const hit = FOREIGN[language].find((t) => standsAlone(text, t)) ?? text.match(MESSAGE_KEY)?.[0] ?? (language === 'zh-hk' && /\[(aria-label|title)\]: /.test(line) && MUI_ENGLISH_SHORT.includes(text.trim()) ? text.trim() : undefined);
    if (hit) found.push(`${line.slice(0, 120)} («${hit}»)`);
  }
  return found;
}

export async function chooseLanguage(page: Page, language: Language) {
  await page.getByTestId('language-switch').click();
  await page.getByTestId(`language-${language}`).click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language === 'en' ? 'en' : 'zh-HK');
}

/**
 * How far the screen reaches beyond the window sideways: the page's own scrolling, and an open
 * dialog, menu or drawer sticking out of the window (the page's scrolling is locked under one).
 */
export async function sideways(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const page = document.documentElement.scrollWidth - window.innerWidth;
    if (page > 0) out.push(`scrolls sideways by ${page} px`);
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('.MuiDialog-paper, .MuiPopover-paper, .MuiAutocomplete-paper, .MuiDrawer-modal .MuiDrawer-paper'))) {
      const r = el.getBoundingClientRect();
      // a drawer sliding in or out lies (partly) left of the window: only what is in view counts
      if (!r.width || r.right <= 0 || r.left >= window.innerWidth) continue;
      if (r.left < -1 || r.right > window.innerWidth + 1) out.push(`${el.className.split(' ')[0]} reaches beyond the window (${Math.round(r.left)}–${Math.round(r.right)} px)`);
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') out.push(`${el.className.split(' ')[0]} scrolls sideways by ${el.scrollWidth - el.clientWidth} px`);
    }
    return out;
  });
}

/** A screen names itself with exactly one visible level-one heading (WCAG 2.4.6; axe only asks for at least one). */
export async function oneHeadingOne(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('h1, [role=heading][aria-level="1"]')]
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => el.innerText.trim()),
  );
  return texts.length === 1 ? [] : [`${texts.length} visible level-one headings${texts.length ? `: ${texts.join(' | ')}` : ''}`];
}

/** Everything asked of the screen as it is now: its language, nothing sideways, no axe violation, nothing in the other language. */
export async function checkScreen(page: Page, language: Language, where: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const lang = await page.evaluate(() => document.documentElement.lang);
  if (lang !== (language === 'en' ? 'en' : 'zh-HK')) findings.push({ screen: where, problem: `<html lang="${lang}">` });
  for (const s of await sideways(page)) findings.push({ screen: where, problem: s });
  for (const h of await oneHeadingOne(page)) findings.push({ screen: where, problem: h });
  // the tab's title names the screen before the app's name (WCAG 2.4.2), not the app's name alone
  const title = await page.title();
  if (!/.+ - .+/.test(title)) findings.push({ screen: where, problem: `the page title «${title}» does not name the screen` });
  for (const v of await axeViolations(page)) findings.push({ screen: where, problem: v });
  for (const t of await otherLanguage(page, language)) findings.push({ screen: where, problem: `not in ${language}: ${t}` });
  return findings;
}
