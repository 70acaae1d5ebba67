import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import { api, apiLogin, launchBrowser, loginAs, newPage, openedForClass, url } from './browser.js';

// Results released (docs/product-rules.md#results-released): a teacher's questionnaire ends, one
// text answer is marked shown, the teacher releases the results to the respondents; a pupil on a
// 360 px phone finds them above their list and sees a chart and the marked answer, never the
// unmarked one; withdrawn, they are gone.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const definition: Definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      title: '意見',
      questions: [
        { id: 'lunch', type: 'RADIO', title: '你喜歡午膳嗎？', required: true, options: [{ id: 'yes', label: '喜歡' }, { id: 'no', label: '不喜歡' }] },
        { id: 'idea', type: 'SHORT_TEXT', title: '你對學校的建議', required: true },
      ],
    },
  ],
};
const IDEAS: Record<string, string> = { student008: '希望圖書館開放時間更長', student009: '想有更多籃球場' };

describe('results released', () => {
  it('a pupil on a phone finds the released summary from their list; withdrawn, it is gone', async () => {
    const teacher = await apiLogin('teacher01');
    const title = `結果發佈 ${Date.now()}`;
    const id = await openedForClass(teacher, '1A', title, definition);
    for (const [username, idea] of Object.entries(IDEAS)) {
      const sent = await api(`/v1/my/questionnaires/${id}/replies`, await apiLogin(username), 'POST', { submissionKey: `e2e-release-${username}-${id}`, answers: { lunch: { choice: username === 'student008' ? 'yes' : 'no' }, idea } });
      expect(sent.envelope.code, `${username}: ${sent.envelope.msg}`).toBe(200);
    }
    // it ends: closed by its person in charge, as its end date would
    expect((await api(`/v1/questionnaires/${id}/close`, teacher, 'POST')).envelope.code).toBe(200);
    // one answer marked shown
    const texts = await api<{ list: { replyId: string; text: string }[] }>(`/v1/statistics/${id}/texts?questionId=idea&size=50`, teacher);
    const marked = texts.envelope.data.list.find((x) => x.text === IDEAS.student008)!;
    expect((await api(`/v1/statistics/${id}/texts/marks`, teacher, 'PUT', { questionId: 'idea', replyIds: [marked.replyId], shown: true })).envelope.code).toBe(200);

    // the teacher releases it to the respondents from the statistics detail
    const desk = await newPage(browser);
    await loginAs(desk, 'teacher01');
    await desk.goto(url(`/data-statistics/detail?id=${id}`));
    await desk.getByTestId('statistics-detail').waitFor();
    await desk.getByTestId('release-results').click();
    const dialog = desk.getByTestId('release-dialog');
    await expect.poll(() => dialog.getByTestId('release-shows').innerText()).toContain('1 個已標示為顯示的文字答案');
    await expect(dialog.getByRole('checkbox', { name: '給已提交回覆的回應者' }).isChecked()).resolves.toBe(true);
    await dialog.getByTestId('release-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => desk.getByTestId('release-results').innerText()).toBe('結果已發佈');

    // a pupil who replied, on a phone
    const phone = await newPage(browser, { width: 360, height: 740 });
    await loginAs(phone, 'student008');
    await phone.goto(url('/questionnaire-filling/list'));
    const entry = phone.getByTestId('released-result').filter({ hasText: title });
    await entry.getByRole('link', { name: `${title}的結果` }).click();
    await phone.getByTestId('result-summary').waitFor();
    await expect(phone.getByTestId('summary-title').innerText()).resolves.toBe(title);
    // a chart of the choice question, and the marked answer only
    await phone.getByTestId('summary-question-lunch').locator('canvas').first().waitFor();
    await expect(phone.getByTestId('summary-question-idea').getByTestId('summary-text').allInnerTexts()).resolves.toEqual([IDEAS.student008]);
    await expect(phone.getByText(IDEAS.student009).count()).resolves.toBe(0);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // withdrawn (after a confirmation): the pupil's list no longer has it, nor does its address answer
    await desk.getByTestId('release-results').click();
    await desk.getByTestId('release-withdraw').click();
    await desk.getByTestId('release-withdraw-yes').click();
    await desk.getByTestId('release-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => desk.getByTestId('release-results').innerText()).toBe('發佈結果');
    await phone.goto(url('/questionnaire-filling/list'));
    await phone.getByTestId('filling-cards').waitFor();
    await expect(phone.getByTestId('released-result').filter({ hasText: title }).count()).resolves.toBe(0);
    await phone.goto(url(`/questionnaire-filling/results?id=${id}`));
    await expect.poll(() => phone.getByTestId('summary-refused').innerText()).toBe('此問卷的結果未有發佈給你，或發佈已被撤回');
    await desk.close();
    await phone.close();
  });
});
