import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { DB } from '../../../src/server/db/connect.js';
import { ERRORS, type ErrorKey, errorText } from '../../../src/shared/errors.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import type { Questionnaire, Target } from '../../../src/shared/questionnaire/types.js';
import { login, type TestApp } from '../harness.js';
import { caller } from '../master/helpers.js';

export type Caller = ReturnType<typeof caller>;

/** A caller logged in as `username`, in English (or zh-hk). */
export async function as(t: TestApp, username: string, lang: 'en' | 'zh-hk' = 'en'): Promise<Caller> {
  const { tk } = await login(t.app, username);
  return caller(t.app, tk, lang);
}

/** A definition with one short-text question. */
export const oneQuestion = (): Definition => ({
  version: 1,
  sections: [{ id: 's1', questions: [{ id: 'q1', type: 'SHORT_TEXT', title: 'Your favourite subject?', required: true }] }],
});

/** ISO time `minutes` from now (negative: in the past). */
export const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** A user's id by login name. */
export async function userId(db: DB, username: string): Promise<number> {
  return (await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
}

export async function classId(db: DB, code: string): Promise<number> {
  return (await db.selectFrom('classes').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
}

export async function gradeId(db: DB, code: string): Promise<number> {
  return (await db.selectFrom('grades').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
}

/** The students of one class in the current school year. */
export async function classStudents(db: DB, code: string): Promise<number[]> {
  const rows = await db
    .selectFrom('student_classes as sc')
    .innerJoin('classes as c', 'c.id', 'sc.class_id')
    .innerJoin('school_years as y', 'y.id', 'sc.school_year_id')
    .where('c.code', '=', code)
    .where('y.year_status', '=', '1')
    .select('sc.user_id')
    .orderBy('sc.user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** The data of a success envelope, failing with the whole answer otherwise. */
export function data<T = Questionnaire>(res: LightMyRequestResponse, code: 200 | 201 = 200): T {
  expect(res.json(), res.body).toMatchObject({ code, msg: 'success' });
  return res.json().data as T;
}

/** A business error of the catalogue, in the caller's language. */
export function expectError(res: LightMyRequestResponse, key: ErrorKey, lang: 'en' | 'zh-hk' = 'en') {
  expect(res.statusCode, res.body).toBe(ERRORS[key].http);
  expect(res.json()).toMatchObject({ code: ERRORS[key].code, msg: errorText(key, lang) });
}

/** A questionnaire created by `call` (its creator needs a Google account). */
export async function create(call: Caller, body: { title?: string; targets?: Target[]; definition?: Definition; openDate?: string | null; endDate?: string | null; type?: string; assistantIds?: number[]; schoolYearId?: number } = {}): Promise<Questionnaire> {
  return data(await call('POST', '/v1/questionnaires', { title: 'Subject survey', ...body }), 201);
}

/** A questionnaire that is ready and opens now: PROCESSING with its feedback records. */
export async function processing(call: Caller, targets: Target[], extra: { title?: string; endDate?: string; type?: string } = {}): Promise<Questionnaire> {
  const q = await create(call, { title: extra.title ?? 'Open survey', targets, definition: oneQuestion(), openDate: inMinutes(-1), endDate: extra.endDate ?? inMinutes(60 * 24), type: extra.type });
  const ready = data(await call('POST', `/v1/questionnaires/${q.id}/ready`));
  expect(ready.status).toBe('PROCESSING');
  return ready;
}

export async function feedbackRows(db: DB, questionnaireId: number) {
  return db.selectFrom('feedback').selectAll().where('questionnaire_id', '=', questionnaireId).orderBy('user_id').execute();
}
