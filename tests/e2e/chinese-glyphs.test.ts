import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, url } from './browser.js';

// Every e2e measure of width, every screenshot and every axe check reads Chinese as a school's
// screen shows it only if the browser has a Chinese font: without one Chromium draws each character
// as a narrow box, and lists that are too wide for real glyphs pass. .ci/run installs Debian's
// fonts-noto-cjk; this test fails the e2e run when the glyphs are boxes again.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

/** A font that draws Traditional Chinese: Noto/Source Han CJK, or a system font of Hong Kong, Taiwan or China. */
const CHINESE_FONT = /CJK|Noto Sans (TC|HK|SC)|Noto Serif (TC|HK|SC)|Source Han|WenQuanYi|Droid Sans Fallback|AR PL|PingFang|Heiti|JhengHei|YaHei|MingLiU|PMingLiU/i;

describe('Chinese is drawn with a Chinese font', () => {
  it('the login screen in zh-hk: each Chinese text is rendered by a CJK font, one full-width glyph per character', async () => {
    const page = await newPage(browser, { width: 1280, height: 800 });
    await page.goto(url('/login'));
    await page.waitForFunction(() => document.documentElement.lang === 'zh-HK');
    const heading = page.locator('h1').first();
    await heading.waitFor();
    const text = (await heading.textContent()) ?? '';
    const han = Array.from(text).filter((c) => /\p{Script=Han}/u.test(c));
    expect(han.length, `the login heading «${text}» has Chinese characters`).toBeGreaterThan(0);

    // what Chromium actually drew the heading with (DevTools' "Rendered Fonts")
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'h1' });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    const used = fonts.map((f) => `${f.familyName} (${f.glyphCount})`).join(', ');
    const drawingChinese = fonts.filter((f) => CHINESE_FONT.test(f.familyName) || CHINESE_FONT.test(f.postScriptName));
    expect(drawingChinese.length, `fonts used for «${text}»: ${used}`).toBeGreaterThan(0);
    expect(drawingChinese.reduce((n, f) => n + f.glyphCount, 0), `fonts used for «${text}»: ${used}`).toBeGreaterThanOrEqual(han.length);

    // and as a reader sees it: a Chinese character is a square glyph (about 1 em wide), where a
    // missing glyph's box is narrower; and two different characters are not the same drawing
    const measured = await page.evaluate((chars) => {
      const probe = document.createElement('span');
      probe.style.cssText = 'font-size: 40px; position: absolute; white-space: nowrap; visibility: hidden';
      probe.lang = 'zh-HK';
      document.body.appendChild(probe);
      const widths = chars.map((c) => {
        probe.textContent = c;
        return probe.getBoundingClientRect().width;
      });
      const canvas = document.createElement('canvas');
      canvas.width = 96;
      canvas.height = 48;
      const ctx = canvas.getContext('2d')!;
      const drawing = (c: string) => {
        ctx.clearRect(0, 0, 96, 48);
        ctx.font = `40px ${getComputedStyle(probe).fontFamily}`;
        ctx.fillText(c, 4, 40);
        return Array.from(ctx.getImageData(0, 0, 96, 48).data.filter((_, i) => i % 4 === 3)).join(',');
      };
      probe.remove();
      return { widths, same: drawing('問') === drawing('卷') };
    }, han.slice(0, 4));
    for (const w of measured.widths) expect(w, `a Chinese character 40 px high is ${w} px wide`).toBeGreaterThanOrEqual(36);
    expect(measured.same, '問 and 卷 are drawn the same: boxes, not glyphs').toBe(false);
    await page.close();
  });
});
