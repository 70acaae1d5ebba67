import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { testApp, type TestApp } from './harness.js';
import { caller } from './master/helpers.js';
import { TEMPLATE_ANSWERS } from '../../src/shared/calls/templates.js';
import { BANK_ANSWERS } from '../../src/shared/calls/question-bank.js';
import { RESULT_RELEASE_ANSWERS } from '../../src/shared/calls/result-releases.js';
import { as, classId, classStudents, create, oneQuestion, userId, type Caller } from './questionnaires/helpers.js';
import { opened } from './filling/helpers.js';
import { submitAs, variedAnswers } from './statistics/helpers.js';

const ajv = new Ajv({ strict: false, allErrors: true });
/** The schema's own problems with an answer (the same schema objects the routes hand to Fastify), none when it fits. */
function problems(schema: object, body: unknown): string[] {
  const validate = ajv.compile(schema);
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

type Answers = { 200: object; '4xx': object };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A call that succeeds (HTTP 200, the envelope's code `code`: 200, or 201 for what it made) with an envelope that fits the call's success schema. */
async function fits(call: Caller, answers: Answers, method: Method, url: string, payload?: unknown, code = 200) {
  const res = await call(method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  expect(res.json().code, `${method} ${url}`).toBe(code);
  expect(problems(answers[200], res.json()), `${method} ${url}`).toEqual([]);
  return res.json().data;
}

/** A refusal with this HTTP status and business code, in the refusal's shape. */
async function refused(call: Caller, answers: Answers, method: Method, url: string, payload: unknown, status: number, code: number) {
  const res = await call(method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  expect(problems(answers['4xx'], res.json()), `${method} ${url}`).toEqual([]);
  expect(res.json().code, `${method} ${url}`).toBe(code);
}

// Calls described once (src/shared/calls/, docs/conventions.md#call-shapes), continued from
// call-shapes.test.ts: the templates', the question bank's and the results released's calls,
// a success and a refusal of each, answer what their schemas say.
describe('the template, question bank and result release calls answer what their schemas describe', () => {
  let t: TestApp;
  let teacher: Caller;
  let admin: Caller;
  let student: Caller;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    admin = await as(t, 'admin');
    student = await as(t, 'student001');
  });
  afterAll(async () => t?.close());

  it('templates: the list, one, save as template, a change, retire, restore and use; and a refusal of each', async () => {
    const page = await fits(teacher, TEMPLATE_ANSWERS.list, 'GET', '/v1/questionnaire-templates?size=200');
    expect(page.total).toBeGreaterThanOrEqual(4);
    await fits(teacher, TEMPLATE_ANSWERS.list, 'GET', '/v1/questionnaire-templates?retired=true&q=%E5%AD%B8&sort=updatedAt&order=DESC');
    await refused(teacher, TEMPLATE_ANSWERS.list, 'GET', '/v1/questionnaire-templates?size=201', undefined, 422, 422);
    await refused(student, TEMPLATE_ANSWERS.list, 'GET', '/v1/questionnaire-templates', undefined, 403, 405);

    const starter = await fits(teacher, TEMPLATE_ANSWERS.one, 'GET', `/v1/questionnaire-templates/${page.list[0].id}`);
    expect(starter).toMatchObject({ id: page.list[0].id, starter: true });
    await refused(teacher, TEMPLATE_ANSWERS.one, 'GET', '/v1/questionnaire-templates/2147483000', undefined, 404, 404);

    const q = await create(teacher, { title: 'Shapes, template', targets: [{ kind: 'ALL_TEACHERS' }], definition: oneQuestion() });
    const saved = await fits(teacher, TEMPLATE_ANSWERS.one, 'POST', `/v1/questionnaires/${q.id}/save-as-template`, { nameHk: '形狀', nameEn: 'Shapes' }, 201);
    expect(saved).toMatchObject({ nameEn: 'Shapes', audienceKind: 'ALL_TEACHERS', gradeCode: null, starter: false, retired: false, questionCount: 1 });
    await refused(teacher, TEMPLATE_ANSWERS.one, 'POST', `/v1/questionnaires/${q.id}/save-as-template`, { nameHk: '形狀', nameEn: 'Shapes', audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S9' }, 422, 422);

    const changed = await fits(admin, TEMPLATE_ANSWERS.one, 'PUT', `/v1/questionnaire-templates/${saved.id}`, { nameEn: 'Shapes, changed', audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S1' });
    expect(changed).toMatchObject({ nameEn: 'Shapes, changed', audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S1' });
    await refused(admin, TEMPLATE_ANSWERS.one, 'PUT', `/v1/questionnaire-templates/${saved.id}`, { definition: { version: 1, sections: [{ id: 's1', questions: [] }] } }, 409, 714);

    const used = await fits(teacher, TEMPLATE_ANSWERS.use, 'POST', `/v1/questionnaire-templates/${saved.id}/use`, {}, 201);
    expect(used).toMatchObject({ questionnaire: { status: 'PREPARING', title: '形狀' }, audience: { kind: 'STUDENTS_OF_GRADE', gradeCode: 'S1', found: true } });

    expect(await fits(admin, TEMPLATE_ANSWERS.one, 'POST', `/v1/questionnaire-templates/${saved.id}/retire`)).toMatchObject({ retired: true });
    await refused(teacher, TEMPLATE_ANSWERS.use, 'POST', `/v1/questionnaire-templates/${saved.id}/use`, {}, 409, 709);
    await refused(teacher, TEMPLATE_ANSWERS.one, 'POST', `/v1/questionnaire-templates/${saved.id}/restore`, undefined, 403, 405);
    expect(await fits(admin, TEMPLATE_ANSWERS.one, 'POST', `/v1/questionnaire-templates/${saved.id}/restore`)).toMatchObject({ retired: false });
    await refused(admin, TEMPLATE_ANSWERS.one, 'POST', '/v1/questionnaire-templates/2147483000/retire', undefined, 404, 404);
  });

  it('the question bank: save, the list, the tags, one, a change, retire and restore; and a refusal of each', async () => {
    const q = await create(teacher, { title: 'Shapes, bank', definition: oneQuestion() });
    const saved = await fits(teacher, BANK_ANSWERS.one, 'POST', '/v1/question-bank', { questionnaireId: q.id, questionId: 'q1', tags: ['shapes', 'Shapes ', '形狀'] }, 201);
    expect(saved).toMatchObject({ type: 'SHORT_TEXT', tags: ['shapes', '形狀'], retired: false, titleEn: null });
    await refused(teacher, BANK_ANSWERS.one, 'POST', '/v1/question-bank', { questionnaireId: q.id, questionId: 'nothing' }, 404, 742);
    await refused(teacher, BANK_ANSWERS.one, 'POST', '/v1/question-bank', { questionnaireId: q.id, questionId: 'q1', tags: ['a|b'] }, 422, 422);

    const page = await fits(teacher, BANK_ANSWERS.list, 'GET', '/v1/question-bank?tag=SHAPES&type=SHORT_TEXT');
    expect(page.list.map((x: { id: number }) => x.id)).toEqual([saved.id]);
    await refused(teacher, BANK_ANSWERS.list, 'GET', '/v1/question-bank?size=51', undefined, 422, 422);
    await refused(student, BANK_ANSWERS.list, 'GET', '/v1/question-bank', undefined, 403, 405);

    expect(await fits(teacher, BANK_ANSWERS.tags, 'GET', '/v1/question-bank/tags')).toEqual(expect.arrayContaining([{ tag: 'shapes', count: 1 }]));
    await refused(student, BANK_ANSWERS.tags, 'GET', '/v1/question-bank/tags', undefined, 403, 405);

    expect(await fits(teacher, BANK_ANSWERS.one, 'GET', `/v1/question-bank/${saved.id}`)).toEqual(saved);
    await refused(teacher, BANK_ANSWERS.one, 'GET', '/v1/question-bank/2147483000', undefined, 404, 404);

    expect(await fits(admin, BANK_ANSWERS.one, 'PUT', `/v1/question-bank/${saved.id}`, { tags: ['reworded'] })).toMatchObject({ id: saved.id, tags: ['reworded'] });
    const otherType = { ...saved.definition, sections: [{ ...saved.definition.sections[0], questions: [{ ...saved.definition.sections[0].questions[0], type: 'PARAGRAPH' }] }] };
    await refused(admin, BANK_ANSWERS.one, 'PUT', `/v1/question-bank/${saved.id}`, { definition: otherType }, 400, 744);

    expect(await fits(admin, BANK_ANSWERS.one, 'POST', `/v1/question-bank/${saved.id}/retire`)).toMatchObject({ retired: true });
    await refused(admin, BANK_ANSWERS.one, 'PUT', `/v1/question-bank/${saved.id}`, { tags: [] }, 409, 743);
    await refused(teacher, BANK_ANSWERS.one, 'POST', `/v1/question-bank/${saved.id}/restore`, undefined, 403, 405);
    expect(await fits(admin, BANK_ANSWERS.one, 'POST', `/v1/question-bank/${saved.id}/restore`)).toMatchObject({ retired: false });
  });

  it('results released: the state, a release, a withdrawal, and a reader’s list and summary; and a refusal of each', async () => {
    const id = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '3A')] }], { title: 'Shapes, released' })).id;
    const pupils = await classStudents(t.db, '3A');
    await submitAs(t, id, pupils.slice(0, 3), (i) => ({ ...variedAnswers(i), story: `shape ${i}` }));
    const reader = await as(t, (await t.db.selectFrom('users').select('username').where('id', '=', pupils[0]).executeTakeFirstOrThrow()).username);

    expect(await fits(teacher, RESULT_RELEASE_ANSWERS.state, 'GET', `/v1/statistics/${id}/release`)).toMatchObject({ status: 'PROCESSING', release: null, mayRelease: true });
    await refused(teacher, RESULT_RELEASE_ANSWERS.state, 'PUT', `/v1/statistics/${id}/release`, { respondents: true, staff: [] }, 409, 745);
    await refused(teacher, RESULT_RELEASE_ANSWERS.state, 'GET', '/v1/statistics/2147483000/release', undefined, 404, 404);
    await (await teacher('POST', `/v1/questionnaires/${id}/close`)).json();

    const staff = await userId(t.db, 'teacher05');
    const released = await fits(teacher, RESULT_RELEASE_ANSWERS.state, 'PUT', `/v1/statistics/${id}/release`, { respondents: true, staff: [staff] });
    expect(released).toMatchObject({ status: 'FINISHED', release: { respondents: true, staff: [{ id: staff }], withdrawnAt: null } });
    await refused(teacher, RESULT_RELEASE_ANSWERS.state, 'PUT', `/v1/statistics/${id}/release`, { respondents: false, staff: [] }, 400, 739);
    await refused(teacher, RESULT_RELEASE_ANSWERS.state, 'PUT', `/v1/statistics/${id}/release`, { respondents: true, staff: [pupils[1]] }, 400, 748);

    const list = await fits(reader, RESULT_RELEASE_ANSWERS.list, 'GET', '/v1/my/result-summaries');
    expect(list.list.map((x: { id: number }) => x.id)).toEqual([id]);
    await refused(caller(t.app, null, 'en'), RESULT_RELEASE_ANSWERS.list, 'GET', '/v1/my/result-summaries', undefined, 401, 401);

    const summary = await fits(reader, RESULT_RELEASE_ANSWERS.one, 'GET', `/v1/my/result-summaries/${id}`);
    expect(summary).toMatchObject({ questionnaire: { id }, replyCount: 3 });
    await refused(await as(t, 'teacher06'), RESULT_RELEASE_ANSWERS.one, 'GET', `/v1/my/result-summaries/${id}`, undefined, 404, 738);

    const withdrawn = await fits(teacher, RESULT_RELEASE_ANSWERS.state, 'DELETE', `/v1/statistics/${id}/release`);
    expect(withdrawn.release.withdrawnAt).toEqual(expect.any(String));
    await refused(teacher, RESULT_RELEASE_ANSWERS.state, 'DELETE', `/v1/statistics/${id}/release`, undefined, 409, 749);
    await refused(reader, RESULT_RELEASE_ANSWERS.one, 'GET', `/v1/my/result-summaries/${id}`, undefined, 404, 738);
  });

  it('the OpenAPI page shows each of these calls’ data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    const data200 = (path: string, method: string) => doc.paths[path][method].responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(data200('/v1/questionnaire-templates', 'get').properties)).toEqual(['list', 'total']);
    expect(Object.keys(data200('/v1/questionnaire-templates/{id}/use', 'post').properties)).toEqual(['questionnaire', 'audience']);
    expect(Object.keys(data200('/v1/question-bank/{id}', 'get').properties)).toEqual(expect.arrayContaining(['id', 'type', 'tags', 'definition']));
    expect(Object.keys(data200('/v1/statistics/{id}/release', 'put').properties)).toEqual(['status', 'mayRelease', 'shownTexts', 'withheld', 'release']);
    expect(Object.keys(data200('/v1/my/result-summaries/{id}', 'get').properties)).toEqual(['questionnaire', 'replyCount', 'questions']);
  });
});
