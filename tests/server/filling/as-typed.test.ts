import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import type { RespondentPage, TextPage } from '../../../src/shared/statistics/types.js';
import { testApp, type TestApp } from '../harness.js';
import { caller } from '../master/helpers.js';
import { as, classStudents, data, type Caller } from '../questionnaires/helpers.js';
import { newKey, opened } from './helpers.js';

/**
 * docs/product-rules.md#answers-as-typed: a text answer keeps its leading and inner spaces and
 * its line breaks (its trailing whitespace goes) from the submission to the statistics, the reply
 * read back and the xlsx; any other value of an answer is trimmed.
 */
const definition = (): Definition => ({
  version: 1,
  sections: [
    {
      id: 's1',
      title: 'As typed',
      questions: [
        { id: 'short', type: 'SHORT_TEXT', title: 'A line', required: false, textRule: { kind: 'length', min: 2, max: 20 } },
        { id: 'story', type: 'PARAGRAPH', title: 'A poem', required: true },
        { id: 'pick', type: 'RADIO', title: 'Pick', required: false, options: [{ id: 'a', label: 'A' }], other: true },
        { id: 'day', type: 'DATE', title: 'A day', required: false },
      ],
    },
  ],
});

const POEM = '  床前明月光，\n    疑是地上霜。\n\n  Two  spaces\tand a tab';
const sent = { short: '   indented', story: `${POEM}  \n\n `, pick: { choice: '__other__', otherText: '  my own\n  way  ' }, day: ' 2026-01-05 ' };
const kept = { short: '   indented', story: POEM, pick: { choice: '__other__', otherText: '  my own\n  way' }, day: '2026-01-05' };

describe('text answers as typed', () => {
  let t: TestApp;
  let teacher: Caller;
  let student: Caller;
  let id: number;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    const [me, other] = await classStudents(t.db, '4A');
    id = (await opened(teacher, [{ kind: 'USERS', ids: [me, other] }], { definition: definition(), title: 'As typed' })).id;
    student = caller(t.app, await openSession(t.db, t.config, me));
    // a second respondent starts a draft
    const drafting = caller(t.app, await openSession(t.db, t.config, other));
    data(await drafting('PUT', `/v1/my/questionnaires/${id}/draft`, { answers: { story: '  a draft\n  goes on  ', short: '  ab ' } }));
    expect(data<{ answers: unknown }>(await drafting('GET', `/v1/my/questionnaires/${id}/draft`)).answers).toEqual({ story: '  a draft\n  goes on', short: '  ab' });
  });
  afterAll(async () => t?.close());

  it('refuses a required paragraph of spaces and line breaks only: it is no answer', async () => {
    const res = await student('POST', `/v1/my/questionnaires/${id}/replies`, { submissionKey: newKey(), answers: { story: '   \n \n  ' } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().data)).toEqual(['story']);
  });

  it('judges a text rule on the text, not its indent: 3 spaces and "ab" is 2 characters', async () => {
    const res = await student('POST', `/v1/my/questionnaires/${id}/replies`, { submissionKey: newKey(), answers: { story: 'x', short: '   a' } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().data)).toEqual(['short']);
  });

  it('stores leading spaces and line breaks, shows them back, and lists them in the statistics and the xlsx', async () => {
    data(await student('POST', `/v1/my/questionnaires/${id}/replies`, { submissionKey: newKey(), answers: sent }));
    const stored = await t.db.selectFrom('replies').select(['id', 'answers']).where('questionnaire_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.answers)).toEqual(kept);
    // my reply, read back on the answer screen
    expect(data<{ answers: unknown }>(await student('GET', `/v1/my/questionnaires/${id}`)).answers).toEqual(kept);

    // the statistics: the text answers and the 'other' texts, and the reply read whole
    expect(data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=story`)).list.map((x) => x.text)).toEqual([POEM]);
    expect(data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=short`)).list.map((x) => x.text)).toEqual(['   indented']);
    expect(data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=pick&part=other`)).list.map((x) => x.text)).toEqual(['  my own\n  way']);
    const done = data<RespondentPage>(await teacher('GET', `/v1/statistics/${id}/respondents?status=SUBMITTED`));
    expect(data<{ answers: unknown }>(await teacher('GET', `/v1/statistics/${id}/replies/${done.list[0].replyId}`)).answers).toEqual(kept);

    // the xlsx: the same texts, a cell with line breaks wrapped so that Excel shows them
    const res = await teacher('GET', `/v1/statistics/${id}/export`);
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const answers = workbook.worksheets[1];
    const header = answers.getRow(1).values as unknown[];
    const column = (title: string) => header.findIndex((h) => typeof h === 'string' && h.includes(title));
    const row = answers.getRow(2);
    const poem = row.getCell(column('A poem'));
    expect(poem.value).toBe(POEM);
    expect(poem.alignment?.wrapText).toBe(true);
    const line = row.getCell(column('A line'));
    expect(line.value).toBe('   indented');
    expect(line.alignment?.wrapText).toBeFalsy();
    expect(row.values as unknown[]).toContainEqual(expect.stringContaining('  my own\n  way'));
    expect(row.getCell(column('A day')).value).toBe('2026-01-05');
  });
});
