import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ERRORS, errorText, type ErrorKey } from '../../../src/shared/errors.js';
import type { StatisticsDetail, TextPage } from '../../../src/shared/calls/statistics.js';
import type { ResultReleaseState, ResultSummary, ResultSummaryList } from '../../../src/shared/calls/result-releases.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, expectError, inMinutes, userId, type Caller } from '../questionnaires/helpers.js';
import { opened } from '../filling/helpers.js';
import { submitAs, variedAnswers } from './helpers.js';

/** A refusal whose text has its parameters filled in. */
function refused(res: LightMyRequestResponse, key: ErrorKey, params: Record<string, number>, lang: 'en' | 'zh-hk' = 'en') {
  expect(res.statusCode, res.body).toBe(ERRORS[key].http);
  expect(res.json()).toMatchObject({ code: ERRORS[key].code, msg: errorText(key, lang, params) });
}

/**
 * Results released (docs/product-rules.md#results-released): a finished questionnaire's summary
 * released by its person in charge to the respondents who replied and to chosen staff, with only
 * the text answers marked shown, and withdrawn.
 */
describe('results released', () => {
  let t: TestApp;
  let teacher: Caller;
  let id: number;
  /** 1A's students: all but the last replied */
  let pupils: number[];
  const names = new Map<number, string>();

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    id = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }], { title: 'Our day' })).id;
    // an assistant reads the results but does not release them
    data(await teacher('PUT', `/v1/questionnaires/${id}`, { assistantIds: [await userId(t.db, 'teacher03')] }));
    pupils = await classStudents(t.db, '1A');
    await submitAs(t, id, pupils.slice(0, -1), (i) => ({ ...variedAnswers(i), story: `day ${i}` }));
    for (const u of await t.db.selectFrom('users').select(['id', 'name_hk', 'name_en', 'username']).where('id', 'in', pupils).execute()) names.set(u.id, `${u.name_en}|${u.username}`);
  });
  afterAll(async () => t?.close());

  const pupil = (i: number, lang: 'en' | 'zh-hk' = 'en') => t.db.selectFrom('users').select('username').where('id', '=', pupils.at(i)!).executeTakeFirstOrThrow().then((u) => as(t, u.username, lang));
  const releaseTo = (body: object, who: Caller = teacher, questionnaire = id) => who('PUT', `/v1/statistics/${questionnaire}/release`, body);
  const summaryOf = (who: Caller, questionnaire = id) => who('GET', `/v1/my/result-summaries/${questionnaire}`);
  const listOf = async (who: Caller) => data<ResultSummaryList>(await who('GET', '/v1/my/result-summaries')).list.map((x) => x.id);

  it('refuses a release while the questionnaire is in progress, in both languages, and nobody reads it', async () => {
    expectError(await releaseTo({ respondents: true, staff: [] }), 'RESULT_RELEASE_NOT_FINISHED');
    expectError(await releaseTo({ respondents: true, staff: [] }, await as(t, 'teacher01', 'zh-hk')), 'RESULT_RELEASE_NOT_FINISHED', 'zh-hk');
    const state = data<ResultReleaseState>(await teacher('GET', `/v1/statistics/${id}/release`));
    expect(state).toMatchObject({ status: 'PROCESSING', mayRelease: true, release: null, shownTexts: 0, withheld: null });
    expect(await t.db.selectFrom('result_releases').selectAll().execute()).toEqual([]);
    expectError(await summaryOf(await pupil(0)), 'RESULT_SUMMARY_NOT_RELEASED');
  });

  it('releases a finished questionnaire to its respondents: the detail’s figures, no text until one is marked, no names', async () => {
    data(await teacher('POST', `/v1/questionnaires/${id}/close`));
    const state = data<ResultReleaseState>(await releaseTo({ respondents: true, staff: [] }));
    expect(state.release).toMatchObject({ respondents: true, staff: [], releasedBy: { id: await userId(t.db, 'teacher01') }, withdrawnAt: null });
    const reader = await pupil(0);
    expect(await listOf(reader)).toEqual([id]);
    const summary = data<ResultSummary>(await summaryOf(reader));
    const detail = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}`));
    expect(summary.replyCount).toBe(detail.replyCount);
    // the charts: every choice, scale and grid question with the detail's own summary; dates and times left out
    const charted = detail.questions.filter((q) => q.summary && ['choices', 'grid', 'scale'].includes(q.summary.kind));
    expect(summary.questions.filter((q) => q.summary).map((q) => [q.id, q.summary])).toEqual(charted.map((q) => [q.id, q.summary]));
    expect(summary.questions.map((q) => q.id)).not.toContain('birthday');
    // the texts: none is marked, so none is shown
    expect(summary.questions.filter((q) => q.texts).map((q) => [q.id, q.texts])).toEqual([['name', []], ['age', []], ['code', []], ['story', []], ['why', []]]);
    const body = JSON.stringify(summary);
    // the pupils' names and accounts (the person in charge is named as in the list; a pupil may share that name)
    for (const n of names.values()) for (const part of n.split('|')) if (part !== summary.questionnaire.inCharge.nameEn) expect(body).not.toContain(part);
    expect(body).not.toMatch(/replyId|classId|gradeId/);
  });

  it('shows only the text answers marked shown', async () => {
    const texts = data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=story&size=200`)).list;
    data(await teacher('PUT', `/v1/statistics/${id}/texts/marks`, { questionId: 'story', replyIds: [texts[0].replyId, texts[1].replyId], shown: true }));
    data(await teacher('PUT', `/v1/statistics/${id}/texts/marks`, { questionId: 'story', replyIds: [texts[1].replyId], shown: false }));
    expect(data<ResultReleaseState>(await teacher('GET', `/v1/statistics/${id}/release`)).shownTexts).toBe(1);
    const summary = data<ResultSummary>(await summaryOf(await pupil(1)));
    expect(summary.questions.find((q) => q.id === 'story')!.texts).toEqual([texts[0].text]);
    expect(JSON.stringify(summary)).not.toContain(texts[1].text);
    expect(JSON.stringify(summary)).not.toContain(texts[2].text);
    // a choice's 'other' texts are never shown, only counted
    expect(summary.questions.find((q) => q.id === 'sports')!.texts).toBeNull();
  });

  it('refuses a pupil who did not reply, a pupil not asked, a teacher not chosen; reads for a chosen teacher', async () => {
    const silent = await pupil(-1);
    expectError(await summaryOf(silent), 'RESULT_SUMMARY_NOT_RELEASED');
    expect(await listOf(silent)).toEqual([]);
    const stranger = await as(t, (await t.db.selectFrom('users').select('username').where('id', '=', (await classStudents(t.db, '2A'))[0]).executeTakeFirstOrThrow()).username);
    expectError(await summaryOf(stranger), 'RESULT_SUMMARY_NOT_RELEASED');
    const teacher05 = await as(t, 'teacher05');
    expectError(await summaryOf(teacher05), 'RESULT_SUMMARY_NOT_RELEASED');
    expectError(await summaryOf(teacher05, 999_999), 'RESULT_SUMMARY_NOT_RELEASED');
    data(await releaseTo({ respondents: true, staff: [await userId(t.db, 'teacher05'), await userId(t.db, 'admin')] }));
    expect(data<ResultSummary>(await summaryOf(teacher05)).questionnaire.id).toBe(id);
    expect(await listOf(teacher05)).toEqual([id]);
    expect(await listOf(await as(t, 'admin'))).toEqual([id]);
    // released again to the staff only: the respondents no longer read it
    const state = data<ResultReleaseState>(await releaseTo({ respondents: false, staff: [await userId(t.db, 'teacher05')] }));
    expect(state.release).toMatchObject({ respondents: false, staff: [{ id: await userId(t.db, 'teacher05') }] });
    expectError(await summaryOf(await pupil(0)), 'RESULT_SUMMARY_NOT_RELEASED');
    expect(await listOf(await as(t, 'admin'))).toEqual([]);
    data(await releaseTo({ respondents: true, staff: [] }));
  });

  it('lets only the person in charge or a results manager release; an assistant, a student and a stranger are refused', async () => {
    const assistant = await as(t, 'teacher03');
    expect(data<ResultReleaseState>(await assistant('GET', `/v1/statistics/${id}/release`)).mayRelease).toBe(false);
    expectError(await releaseTo({ respondents: true, staff: [] }, assistant), 'RESULT_RELEASE_NOT_YOURS');
    expectError(await releaseTo({ respondents: true, staff: [] }, await as(t, 'teacher03', 'zh-hk')), 'RESULT_RELEASE_NOT_YOURS', 'zh-hk');
    expectError(await assistant('DELETE', `/v1/statistics/${id}/release`), 'RESULT_RELEASE_NOT_YOURS');
    expectError(await releaseTo({ respondents: true, staff: [] }, await pupil(0)), 'PERMISSION_DENIED');
    expectError(await releaseTo({ respondents: true, staff: [] }, await as(t, 'teacher09')), 'RECORD_NOT_FOUND');
    const admin = await as(t, 'admin');
    expect(data<ResultReleaseState>(await admin('GET', `/v1/statistics/${id}/release`)).mayRelease).toBe(true);
    data(await releaseTo({ respondents: true, staff: [] }, admin));
    expect((await t.db.selectFrom('result_releases').select('released_by').where('questionnaire_id', '=', id).executeTakeFirstOrThrow()).released_by).toBe(await userId(t.db, 'admin'));
  });

  it('refuses a hostile body: 200 staff ids, bad ids, strings, a student, an unknown user, nobody to read it', async () => {
    const before = await t.db.selectFrom('result_release_staff').selectAll().where('questionnaire_id', '=', id).execute();
    const staffIds = (await t.db.selectFrom('users').select('id').where('user_type', '!=', 'STUDENT').execute()).map((u) => u.id);
    const many = Array.from({ length: 200 }, (_, i) => staffIds[i % staffIds.length] + (i >= staffIds.length ? 1_000_000 + i : 0));
    for (const body of [
      { respondents: true, staff: many },
      { respondents: true, staff: [0] },
      { respondents: true, staff: [-1] },
      { respondents: true, staff: [2 ** 31] },
      { respondents: true, staff: [1.5] },
      { respondents: true, staff: ['one'] },
      { respondents: true, staff: 'all' },
      { respondents: 'yes', staff: [] },
      { respondents: true },
      { respondents: true, staff: [], everyone: true },
      { respondents: true, staff: [staffIds[0], staffIds[0]] },
    ]) {
      const res = await releaseTo(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().code).toBe(422);
    }
    refused(await releaseTo({ respondents: true, staff: [pupils[0], 999_999, staffIds[0]] }), 'RESULT_RELEASE_NOT_STAFF', { count: 2 });
    refused(await releaseTo({ respondents: true, staff: [pupils[0]] }, await as(t, 'teacher01', 'zh-hk')), 'RESULT_RELEASE_NOT_STAFF', { count: 1 }, 'zh-hk');
    expectError(await releaseTo({ respondents: false, staff: [] }), 'RESULT_RELEASE_NO_READERS');
    expect(await t.db.selectFrom('result_release_staff').selectAll().where('questionnaire_id', '=', id).execute()).toEqual(before);
  });

  it('withdraws: its readers neither find nor read it; a second withdrawal is refused; released again it shows', async () => {
    const reader = await pupil(0);
    const state = data<ResultReleaseState>(await teacher('DELETE', `/v1/statistics/${id}/release`));
    expect(state.release?.withdrawnAt).toEqual(expect.any(String));
    expect(await listOf(reader)).toEqual([]);
    expectError(await summaryOf(reader), 'RESULT_SUMMARY_NOT_RELEASED');
    expectError(await summaryOf(await pupil(0, 'zh-hk')), 'RESULT_SUMMARY_NOT_RELEASED', 'zh-hk');
    expectError(await summaryOf(teacher), 'RESULT_SUMMARY_NOT_RELEASED');
    expectError(await teacher('DELETE', `/v1/statistics/${id}/release`), 'RESULT_RELEASE_NONE');
    data(await releaseTo({ respondents: true, staff: [] }));
    expect(await listOf(reader)).toEqual([id]);
  });

  it('a finished questionnaire is not extended; were one in progress again, its release is refused to readers and cannot be made', async () => {
    expectError(await teacher('POST', `/v1/questionnaires/${id}/extend`, { endDate: inMinutes(60) }), 'ILLEGAL_TRANSITION');
    await t.db.updateTable('questionnaires').set({ status: 'PROCESSING' }).where('id', '=', id).execute();
    const reader = await pupil(0);
    expect(await listOf(reader)).toEqual([]);
    expectError(await summaryOf(reader), 'RESULT_SUMMARY_NOT_RELEASED');
    expectError(await releaseTo({ respondents: true, staff: [] }), 'RESULT_RELEASE_NOT_FINISHED');
    await t.db.updateTable('questionnaires').set({ status: 'FINISHED' }).where('id', '=', id).execute();
    expect(await listOf(reader)).toEqual([id]);
  });
});

describe('results released of an anonymous questionnaire', () => {
  let t: TestApp;
  let teacher: Caller;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => t?.close());

  it('refuses a release below the minimum group, and nothing is released', async () => {
    const few = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4B')] }], { type: 'ANONYMOUS', title: 'Too few' })).id;
    await submitAs(t, few, (await classStudents(t.db, '4B')).slice(0, 3), (i) => ({ ...variedAnswers(300 + i), story: `few ${i}` }));
    data(await teacher('POST', `/v1/questionnaires/${few}/close`));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    expect(data<ResultReleaseState>(await teacher('GET', `/v1/statistics/${few}/release`)).withheld).toEqual({ minGroupSize: 5, reason: 'total' });
    refused(await teacher('PUT', `/v1/statistics/${few}/release`, { respondents: true, staff: [] }), 'RESULT_RELEASE_WITHHELD', { min: 5 });
    refused(await (await as(t, 'teacher01', 'zh-hk'))('PUT', `/v1/statistics/${few}/release`, { respondents: true, staff: [] }), 'RESULT_RELEASE_WITHHELD', { min: 5 }, 'zh-hk');
    expect(await t.db.selectFrom('result_releases').selectAll().where('questionnaire_id', '=', few).execute()).toEqual([]);
  });

  it('releases one with enough replies: figures for everyone only, the withheld group still withheld in the detail', async () => {
    const teachers = [await userId(t.db, 'teacher07'), await userId(t.db, 'teacher08')];
    const id = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4A')] }, { kind: 'USERS', ids: teachers }], { type: 'ANONYMOUS', title: 'Anonymous days' })).id;
    const students = await classStudents(t.db, '4A');
    await submitAs(t, id, [...students.slice(1), ...teachers], (i) => ({ ...variedAnswers(100 + i), story: `anonymous day ${i}` }));
    data(await teacher('POST', `/v1/questionnaires/${id}/close`));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    const texts = data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=story&size=200`)).list;
    data(await teacher('PUT', `/v1/statistics/${id}/texts/marks`, { questionId: 'story', replyIds: [texts[0].replyId], shown: true }));
    data(await teacher('PUT', `/v1/statistics/${id}/release`, { respondents: true, staff: [] }));
    const reader = await as(t, (await t.db.selectFrom('users').select('username').where('id', '=', students[1]).executeTakeFirstOrThrow()).username);
    const summary = data<ResultSummary>(await reader('GET', `/v1/my/result-summaries/${id}`));
    const detail = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}`));
    expect(summary.replyCount).toBe(students.length - 1 + teachers.length);
    expect(summary.questions.filter((q) => q.summary).map((q) => q.summary)).toEqual(detail.questions.filter((q) => q.summary && ['choices', 'grid', 'scale'].includes(q.summary.kind)).map((q) => q.summary));
    expect(summary.questions.find((q) => q.id === 'story')!.texts).toEqual([texts[0].text]);
    expect(Object.keys(summary)).toEqual(['questionnaire', 'replyCount', 'questions']);
    // the two teachers' group stays withheld where groups are shown
    expect(data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}?role=TEACHER`)).withheld).toEqual({ minGroupSize: 5, reason: 'group' });
    // the student who did not submit reads nothing; a teacher who submitted reads it (respondents are teachers too)
    const silent = await as(t, (await t.db.selectFrom('users').select('username').where('id', '=', students[0]).executeTakeFirstOrThrow()).username);
    expectError(await silent('GET', `/v1/my/result-summaries/${id}`), 'RESULT_SUMMARY_NOT_RELEASED');
    expect(data<ResultSummary>(await (await as(t, 'teacher07'))('GET', `/v1/my/result-summaries/${id}`)).replyCount).toBe(summary.replyCount);
  });
});
