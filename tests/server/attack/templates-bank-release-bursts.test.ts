import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplatePage } from '../../../src/shared/calls/templates.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, create, data, oneQuestion, userId, type Caller } from '../questionnaires/helpers.js';
import { opened } from '../filling/helpers.js';
import { submitAs, variedAnswers } from '../statistics/helpers.js';

const BURST = 200;

/**
 * Bursts of 200 calls at once on one template, one bank question and one release: every answer a
 * success or a documented refusal, none a 5xx, and what the database holds afterwards exactly what
 * the rules say — 200 drafts, 200 bank questions (each save is a question of its own), one release
 * row whose staff are one of the bodies sent, never a mix.
 */
describe('bursts of 200 on templates, the question bank and result releases', () => {
  let t: TestApp;
  let teacher: Caller;
  let tk: string;
  let me: number;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    tk = (await login(t.app, 'teacher01')).tk;
    me = await userId(t.db, 'teacher01');
  });
  afterAll(async () => t?.close());

  const burst = (n: number, request: (i: number) => { method: 'POST' | 'PUT' | 'DELETE' | 'GET'; url: string; payload?: object }) =>
    Promise.all(Array.from({ length: n }, (_, i) => t.app.inject({ ...request(i), headers: { ...bearer(tk), 'accept-language': 'en' } })));

  it('200 uses of one template at once: 200 distinct drafts, each of the template, the caller in charge', async () => {
    const template = data<TemplatePage>(await teacher('GET', '/v1/questionnaire-templates')).list[0].id;
    const before = (await t.db.selectFrom('questionnaires').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0;
    const answers = await burst(BURST, () => ({ method: 'POST', url: `/v1/questionnaire-templates/${template}/use`, payload: {} }));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(BURST).fill(200));
    const ids = answers.map((a) => a.json().data.questionnaire.id as number);
    expect(new Set(ids).size).toBe(BURST);
    const made = await t.db.selectFrom('questionnaires').select(['id', 'template_id', 'status', 'in_charge_id']).where('id', '>', before).execute();
    expect(made.map((r) => r.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    for (const r of made) expect(r).toMatchObject({ template_id: template, status: 'PREPARING', in_charge_id: me });
  });

  it('200 saves of one question to the bank at once: 200 bank questions, alike but for their ids, each found', async () => {
    const q = await create(teacher, { title: 'Burst bank', definition: oneQuestion() });
    const answers = await burst(BURST, () => ({ method: 'POST', url: '/v1/question-bank', payload: { questionnaireId: q.id, questionId: 'q1', tags: ['burst'] } }));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(BURST).fill(200));
    expect(answers.map((a) => a.json().code)).toEqual(Array(BURST).fill(201));
    const ids = answers.map((a) => a.json().data.id as number);
    expect(new Set(ids).size).toBe(BURST);
    const rows = await t.db.selectFrom('question_bank').selectAll().where('source_questionnaire_id', '=', q.id).execute();
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    for (const r of rows) expect(r).toMatchObject({ source_question_id: 'q1', definition: rows[0].definition, tags: '["burst"]', retired: 0, created_by: me });
    const tags = data<{ tag: string; count: number }[]>(await teacher('GET', '/v1/question-bank/tags'));
    expect(tags).toContainEqual({ tag: 'burst', count: BURST });
    expect(data<{ total: number }>(await teacher('GET', '/v1/question-bank?tag=burst')).total).toBe(BURST);
  });

  describe('one finished questionnaire released', () => {
    let id: number;
    let staff: number[];

    beforeAll(async () => {
      id = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '2A')] }], { title: 'Burst release' })).id;
      await submitAs(t, id, (await classStudents(t.db, '2A')).slice(0, 3), (i) => ({ ...variedAnswers(i), story: `burst ${i}` }));
      data(await teacher('POST', `/v1/questionnaires/${id}/close`));
      staff = (await t.db.selectFrom('users').select('id').where('user_type', '=', 'TEACHER').orderBy('id').limit(12).execute()).map((u) => u.id);
    });

    const stored = async () => ({
      rows: await t.db.selectFrom('result_releases').selectAll().where('questionnaire_id', '=', id).execute(),
      staff: (await t.db.selectFrom('result_release_staff').select('user_id').where('questionnaire_id', '=', id).orderBy('user_id').execute()).map((s) => s.user_id),
    });

    it('200 identical releases at once: all succeed, one row, the staff sent', async () => {
      const body = { respondents: true, staff: staff.slice(0, 3) };
      const answers = await burst(BURST, () => ({ method: 'PUT', url: `/v1/statistics/${id}/release`, payload: body }));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(BURST).fill(200));
      const now = await stored();
      expect(now.rows).toHaveLength(1);
      expect(now.rows[0]).toMatchObject({ to_respondents: 1, withdrawn_at: null, released_by: me });
      expect(now.staff).toEqual(body.staff);
    });

    it('200 different releases at once: one row, its staff and respondents exactly one body sent, never a mix', async () => {
      // body i: staff a run of 1 to 4 teachers, respondents every other one
      const bodyOf = (i: number) => ({ respondents: i % 2 === 0, staff: staff.slice(i % 9, (i % 9) + 1 + (i % 4)) });
      const answers = await burst(BURST, (i) => ({ method: 'PUT', url: `/v1/statistics/${id}/release`, payload: bodyOf(i) }));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(BURST).fill(200));
      const now = await stored();
      expect(now.rows).toHaveLength(1);
      const sent = Array.from({ length: BURST }, (_, i) => bodyOf(i)).map((b) => JSON.stringify({ respondents: b.respondents, staff: [...b.staff].sort((x, y) => x - y) }));
      expect(sent).toContain(JSON.stringify({ respondents: now.rows[0].to_respondents === 1, staff: now.staff }));
      // each answer shows a release as one of the bodies sent made it (its own or a later one), never a mix of two
      const mixes = answers
        .map((a) => a.json().data.release as { respondents: boolean; staff: { id: number }[] })
        .map((r) => JSON.stringify({ respondents: r.respondents, staff: r.staff.map((s) => s.id).sort((x, y) => x - y) }))
        .filter((shown) => !sent.includes(shown));
      expect(mixes).toEqual([]);
      // what the state call answers is what is stored
      const state = data<{ release: { respondents: boolean; staff: { id: number }[] } }>(await teacher('GET', `/v1/statistics/${id}/release`));
      expect({ respondents: state.release.respondents, staff: state.release.staff.map((s) => s.id).sort((x, y) => x - y) }).toEqual({ respondents: now.rows[0].to_respondents === 1, staff: now.staff });
    });

    it('releases and withdrawals racing: each a success or 749, the end one of the two, and readers agree with it', async () => {
      const body = { respondents: false, staff: staff.slice(0, 2) };
      const reader = await as(t, (await t.db.selectFrom('users').select('username').where('id', '=', staff[0]).executeTakeFirstOrThrow()).username);
      for (let round = 0; round < 3; round++) {
        const answers = await burst(BURST, (i) => (i % 2 === 0 ? { method: 'PUT', url: `/v1/statistics/${id}/release`, payload: body } : { method: 'DELETE', url: `/v1/statistics/${id}/release` }));
        for (const [i, a] of answers.entries()) {
          if (i % 2 === 0) expect(a.statusCode, a.body).toBe(200);
          else expect([200, 409], a.body).toContain(a.statusCode);
          if (a.statusCode === 409) expect(a.json().code).toBe(749);
        }
        const now = await stored();
        expect(now.rows).toHaveLength(1);
        expect(now.staff).toEqual(body.staff);
        expect(now.rows[0].to_respondents).toBe(0);
        const standing = now.rows[0].withdrawn_at === null;
        // readers: the chosen teacher finds and reads it exactly when it stands
        const list = data<{ list: { id: number }[] }>(await reader('GET', '/v1/my/result-summaries')).list.map((x) => x.id);
        expect(list.includes(id)).toBe(standing);
        expect((await reader('GET', `/v1/my/result-summaries/${id}`)).statusCode).toBe(standing ? 200 : 404);
        // reads racing with a last release and a last withdrawal: each a success or 738, never a 5xx
        const reads = await Promise.all([
          ...Array.from({ length: 50 }, () => reader('GET', `/v1/my/result-summaries/${id}`)),
          teacher('PUT', `/v1/statistics/${id}/release`, body),
          teacher('DELETE', `/v1/statistics/${id}/release`),
        ]);
        for (const r of reads.slice(0, 50)) {
          expect([200, 404], r.body).toContain(r.statusCode);
          if (r.statusCode === 404) expect(r.json().code).toBe(738);
          else expect(r.json().data.questionnaire.id).toBe(id);
        }
        expect(reads[50].statusCode).toBe(200);
        expect([200, 409]).toContain(reads[51].statusCode);
      }
    });
  });
});
