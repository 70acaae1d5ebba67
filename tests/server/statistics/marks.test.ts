import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ERRORS, errorText, type ErrorKey } from '../../../src/shared/errors.js';
import type { TextMarksResult, TextPage } from '../../../src/shared/calls/statistics.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';
import { recountAnswers } from '../../../src/server/statistics/answerRows.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, expectError, userId, type Caller } from '../questionnaires/helpers.js';
import { opened } from '../filling/helpers.js';
import { submitAs, variedAnswers } from './helpers.js';

/** A refusal whose text has its parameters filled in. */
function refused(res: LightMyRequestResponse, key: ErrorKey, params: Record<string, number>, lang: 'en' | 'zh-hk' = 'en') {
  expect(res.statusCode, res.body).toBe(ERRORS[key].http);
  expect(res.json()).toMatchObject({ code: ERRORS[key].code, msg: errorText(key, lang, params) });
}

/**
 * Text answers marked shown or hidden for a release (docs/product-rules.md#text-answers-read): by
 * the person in charge or a results manager, read back with the texts, filtered by the mark;
 * unmarked is hidden.
 */
describe('text answers marked shown or hidden', () => {
  let t: TestApp;
  let teacher: Caller;
  let id: number;
  /** every student's reply id, in the texts' order */
  let replyIds: string[];

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    id = (await opened(teacher, [{ kind: 'ALL_STUDENTS' }], { title: 'Our day' })).id;
    const students = (await t.db.selectFrom('users').select('id').where('user_type', '=', 'STUDENT').orderBy('id').execute()).map((u) => u.id);
    await submitAs(t, id, students, (i) => ({ ...variedAnswers(i), story: `day ${i}` }));
    replyIds = (await texts()).list.map((x) => x.replyId);
  });
  afterAll(async () => t?.close());

  const texts = async (query = '', who: Caller = teacher) => data<TextPage>(await who('GET', `/v1/statistics/${id}/texts?questionId=story&size=200${query}`));
  const mark = (body: object, who: Caller = teacher, questionnaire = id) => who('PUT', `/v1/statistics/${questionnaire}/texts/marks`, { questionId: 'story', ...body });

  it('lists every answer hidden until marked, and says the person in charge may mark', async () => {
    expect(replyIds).toHaveLength(200);
    const page = await texts();
    expect(page.mayMark).toBe(true);
    expect(page.list.every((x) => x.shown === false)).toBe(true);
    expect((await texts('&shown=true')).total).toBe(0);
    expect((await texts('&shown=false')).total).toBe(200);
  });

  it('marks answers shown and hidden again; the filter keeps each side', async () => {
    const chosen = replyIds.slice(0, 3);
    expect(data<TextMarksResult>(await mark({ replyIds: chosen, shown: true }))).toEqual({ marked: 3, shown: true });
    const shown = await texts('&shown=true');
    expect(shown.total).toBe(3);
    expect(shown.list.map((x) => x.replyId)).toEqual(chosen);
    expect(shown.list.every((x) => x.shown)).toBe(true);
    expect((await texts('&shown=false')).list.map((x) => x.replyId)).not.toContain(chosen[0]);
    // hidden again: counted among the hidden, not the shown
    data(await mark({ replyIds: [chosen[1]], shown: false }));
    expect((await texts('&shown=true')).list.map((x) => x.replyId)).toEqual([chosen[0], chosen[2]]);
    expect((await texts('&shown=false')).total).toBe(198);
    // the filter with the others: a search among the shown
    expect((await texts(`&shown=true&q=${encodeURIComponent((await texts('&shown=true')).list[0].text)}`)).total).toBe(1);
    const row = await t.db.selectFrom('text_answer_marks').selectAll().where('reply_id', '=', chosen[0]).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ questionnaire_id: id, question_id: 'story', shown: 1, marked_by: await userId(t.db, 'teacher01') });
  });

  it('marks 200 answers in one call, and refuses 201', async () => {
    const burst = replyIds;
    expect(data<TextMarksResult>(await mark({ replyIds: burst, shown: true }))).toEqual({ marked: 200, shown: true });
    expect((await texts('&shown=true')).total).toBe(200);
    expect((await mark({ replyIds: [...burst, 'one-too-many'], shown: true })).statusCode).toBe(422);
    data(await mark({ replyIds: burst, shown: false }));
    expect((await texts('&shown=true')).total).toBe(0);
  });

  it('lets a results manager mark; refuses a student, an assistant, and a teacher who cannot read the questionnaire', async () => {
    const admin = await as(t, 'admin');
    expect((await texts('', admin)).mayMark).toBe(true);
    data(await mark({ replyIds: [replyIds[5]], shown: true }, admin));
    expect((await texts('&shown=true')).list.map((x) => x.replyId)).toEqual([replyIds[5]]);
    expectError(await mark({ replyIds: [replyIds[5]], shown: false }, await as(t, 'student001')), 'PERMISSION_DENIED');
    expectError(await mark({ replyIds: [replyIds[5]], shown: false }, await as(t, 'teacher09')), 'RECORD_NOT_FOUND');
    data(await teacher('PUT', `/v1/questionnaires/${id}`, { assistantIds: [await userId(t.db, 'teacher03')] }));
    const assistant = await as(t, 'teacher03');
    expect((await texts('', assistant)).mayMark).toBe(false);
    expectError(await mark({ replyIds: [replyIds[5]], shown: false }, assistant), 'PERMISSION_DENIED');
    expect((await texts('&shown=true')).total).toBe(1);
  });

  it("refuses a question that is not a text question, another questionnaire's reply, an unknown id — all or none, in both languages", async () => {
    expectError(await mark({ questionId: 'house', replyIds: [replyIds[6]], shown: true }), 'TEXT_MARK_NOT_TEXT');
    expectError(await mark({ questionId: 'house', replyIds: [replyIds[6]], shown: true }, await as(t, 'teacher01', 'zh-hk')), 'TEXT_MARK_NOT_TEXT', 'zh-hk');
    expectError(await mark({ questionId: 'nope', replyIds: [replyIds[6]], shown: true }), 'RECORD_NOT_FOUND');
    const other = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }], { title: 'Another' })).id;
    const student = (await classStudents(t.db, '1A'))[0];
    // the student answered the first questionnaire too: their other reply is refused
    await submitAs(t, other, [student], () => ({ ...variedAnswers(7), story: 'elsewhere' }));
    const foreign = (await t.db.selectFrom('replies').select('id').where('questionnaire_id', '=', other).executeTakeFirstOrThrow()).id;
    refused(await mark({ replyIds: [replyIds[6], foreign], shown: true }), 'TEXT_MARK_NOT_ANSWER', { count: 1 });
    refused(await mark({ replyIds: [replyIds[6], foreign], shown: true }, await as(t, 'teacher01', 'zh-hk')), 'TEXT_MARK_NOT_ANSWER', { count: 1 }, 'zh-hk');
    refused(await mark({ replyIds: ['not-a-reply', 'nor-this'], shown: true }), 'TEXT_MARK_NOT_ANSWER', { count: 2 });
    // the other questionnaire's own call refuses this one's reply the same way
    refused(await mark({ replyIds: [replyIds[6]], shown: true }, teacher, other), 'TEXT_MARK_NOT_ANSWER', { count: 1 });
    expect((await texts('&shown=true')).list.map((x) => x.replyId)).not.toContain(replyIds[6]);
    // a choice's 'other' text is not marked on its own: never shown in its list
    expect((await texts('&part=other')).list.every((x) => x.shown === false)).toBe(true);
  });

  it('keeps the marks through a recount, and loses them with the reply', async () => {
    const shown = (await texts('&shown=true')).list.map((x) => x.replyId);
    expect(shown.length).toBeGreaterThan(0);
    await recountAnswers(t.db);
    expect((await texts('&shown=true')).list.map((x) => x.replyId)).toEqual(shown);
    await t.db.deleteFrom('replies').where('id', '=', shown[0]).execute();
    expect(await t.db.selectFrom('text_answer_marks').select('reply_id').where('reply_id', '=', shown[0]).execute()).toEqual([]);
    expect((await texts('&shown=true')).total).toBe(shown.length - 1);
  });
});

describe('the marks of an anonymous questionnaire', () => {
  let t: TestApp;
  let teacher: Caller;
  let id: number;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    const teachers = [await userId(t.db, 'teacher07'), await userId(t.db, 'teacher08')];
    id = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4A')] }, { kind: 'USERS', ids: teachers }], { type: 'ANONYMOUS', title: 'Anonymous days' })).id;
    const students = await classStudents(t.db, '4A');
    await submitAs(t, id, [...students.slice(1), ...teachers], (i) => ({ ...variedAnswers(100 + i), story: `anonymous day ${i}` }));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
  });
  afterAll(async () => t?.close());

  const texts = async (query = '') => data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=story&size=200${query}`));

  it('marks what everyone may read; refuses a withheld group; a mark names only the member of staff, and survives a mixing round', async () => {
    const all = await texts();
    const chosen = all.list.slice(0, 2).map((x) => x.replyId);
    data(await teacher('PUT', `/v1/statistics/${id}/texts/marks`, { questionId: 'story', replyIds: chosen, shown: true }));
    // two teachers replied: their group is withheld, so nothing may be marked through it
    refused(await teacher('PUT', `/v1/statistics/${id}/texts/marks`, { questionId: 'story', replyIds: chosen, shown: false, role: 'TEACHER' }), 'TEXT_MARK_WITHHELD', { min: 5 });
    const rows = await t.db.selectFrom('text_answer_marks').selectAll().where('questionnaire_id', '=', id).execute();
    expect(rows.map((r) => Object.keys(r).sort())).toEqual(rows.map(() => ['marked_at', 'marked_by', 'question_id', 'questionnaire_id', 'reply_id', 'shown']));
    expect(new Set(rows.map((r) => r.marked_by))).toEqual(new Set([await userId(t.db, 'teacher01')]));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    expect((await texts('&shown=true')).list.map((x) => x.replyId).sort()).toEqual([...chosen].sort());
  });

  it('refuses every mark while too few replies are released in all', async () => {
    const few = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4B')] }], { type: 'ANONYMOUS', title: 'Too few' })).id;
    await submitAs(t, few, (await classStudents(t.db, '4B')).slice(0, 3), (i) => ({ ...variedAnswers(300 + i), story: `few ${i}` }));
    data(await teacher('POST', `/v1/questionnaires/${few}/close`));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    const replies = (await t.db.selectFrom('replies').select('id').where('questionnaire_id', '=', few).execute()).map((r) => r.id);
    expect(replies).toHaveLength(3);
    const res = await teacher('PUT', `/v1/statistics/${few}/texts/marks`, { questionId: 'story', replyIds: replies, shown: true });
    refused(res, 'TEXT_MARK_WITHHELD', { min: 5 });
    expect(await t.db.selectFrom('text_answer_marks').select('reply_id').where('questionnaire_id', '=', few).execute()).toEqual([]);
  });
});
