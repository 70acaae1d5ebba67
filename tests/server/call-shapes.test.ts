import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { openSession } from '../../src/server/auth/sessions.js';
import { testApp, type TestApp } from './harness.js';
import { caller } from './master/helpers.js';
import { FILLING_ANSWERS } from '../../src/shared/calls/filling.js';
import { SESSION_ANSWERS } from '../../src/shared/calls/session.js';
import { as, classStudents, data, oneQuestion, type Caller } from './questionnaires/helpers.js';
import { goodAnswers, everyType, newKey, opened } from './filling/helpers.js';

// Calls described once (src/shared/calls/, docs/conventions.md#call-shapes): what they answer,
// success and refusal, is what those schemas say, and the OpenAPI page shows it.
describe('calls answer what their schemas describe', () => {
  let t: TestApp;
  let teacher: Caller;
  const ajv = new Ajv({ strict: false, allErrors: true });
  /** the schema's own problems with an answer, none when it fits */
  const problems = (schema: object, body: unknown) => {
    const validate = ajv.compile(schema);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => t?.close());

  it('the OpenAPI page shows each call’s answer per status, not an empty data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    const one = doc.paths['/v1/my/questionnaires/{id}'].get.responses;
    const data200 = one['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(data200.properties)).toEqual(expect.arrayContaining(['id', 'title', 'status', 'feedbackStatus', 'designatedCode', 'definition', 'answers']));
    expect(one['4XX'] ?? one['4xx']).toBeDefined();
    const list = doc.paths['/v1/my/questionnaires'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(list.properties.list.items.properties.status.enum).toEqual(['PREPARING', 'NOT_OPEN', 'PROCESSING', 'FINISHED']);
    const reply = doc.paths['/v1/my/questionnaires/{id}/replies'].post;
    expect(reply.responses['200'].content['application/json'].schema.properties.data.properties).toHaveProperty('submittedAt');
    expect(reply.requestBody.content['application/json'].schema.required).toEqual(['submissionKey', 'answers']);
  });

  it('a pupil’s list, one questionnaire, a refused and an accepted reply, and a submitted one read back all fit their schemas', async () => {
    const [pupil] = await classStudents(t.db, '5A');
    const named = await opened(teacher, [{ kind: 'USERS', ids: [pupil] }], { title: 'Shapes', definition: everyType() });
    const anonymous = await opened(teacher, [{ kind: 'USERS', ids: [pupil] }], { title: 'Shapes, anonymous', definition: oneQuestion(), type: 'ANONYMOUS' });
    const me = caller(t.app, await openSession(t.db, t.config, pupil), 'en');

    const list = await me('GET', '/v1/my/questionnaires');
    expect(problems(FILLING_ANSWERS.list[200], list.json())).toEqual([]);
    expect(data<{ total: number }>(list).total).toBeGreaterThanOrEqual(2);

    const before = await me('GET', `/v1/my/questionnaires/${named.id}`);
    expect(problems(FILLING_ANSWERS.one[200], before.json())).toEqual([]);
    expect(before.json().data.answers).toBeNull();

    const refused = await me('POST', `/v1/my/questionnaires/${named.id}/replies`, { submissionKey: newKey(), answers: {} });
    expect(refused.statusCode).toBe(422);
    expect(problems(FILLING_ANSWERS.reply['4xx'], refused.json())).toEqual([]);
    expect(Object.keys(refused.json().data).length).toBeGreaterThan(0);

    const stored = await me('POST', `/v1/my/questionnaires/${named.id}/replies`, { submissionKey: newKey(), answers: goodAnswers() });
    expect(stored.statusCode).toBe(200);
    expect(problems(FILLING_ANSWERS.reply[200], stored.json())).toEqual([]);

    // read back: the answers as sent, every question's (the schema leaves them open: nothing is dropped)
    const after = (await me('GET', `/v1/my/questionnaires/${named.id}`)).json();
    expect(problems(FILLING_ANSWERS.one[200], after)).toEqual([]);
    expect(after.data.answers).toEqual(goodAnswers());
    expect(after.data.definition).toEqual(everyType());

    const anon = await me('GET', `/v1/my/questionnaires/${anonymous.id}`);
    expect(problems(FILLING_ANSWERS.one[200], anon.json())).toEqual([]);

    const missing = await me('GET', '/v1/my/questionnaires/2147483000');
    expect(missing.statusCode).toBe(404);
    expect(problems(FILLING_ANSWERS.one['4xx'], missing.json())).toEqual([]);
    expect(missing.json()).toMatchObject({ code: 404, data: null });
  });

  it('the user info of each kind of user fits its schema, and the OpenAPI page shows it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    const data200 = doc.paths['/v1/my/user-info'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(data200.properties)).toEqual(expect.arrayContaining(['userId', 'userType', 'permissions', 'years', 'currentTerm', 'personalDataStatus']));
    for (const username of ['superadmin', 'admin', 'teacher01', 'student001']) {
      const call = await as(t, username);
      const info = await call('GET', '/v1/my/user-info');
      expect(info.statusCode, username).toBe(200);
      expect(problems(SESSION_ANSWERS.userInfo[200], info.json()), username).toEqual([]);
      expect(info.json().data.permissions.length, username).toBeGreaterThan(0);
    }
    // refused without a session: the refusal's shape
    const outsider = caller(t.app, null, 'en');
    const refused = await outsider('GET', '/v1/my/user-info');
    expect(refused.statusCode).toBe(401);
    expect(problems(SESSION_ANSWERS.userInfo['4xx'], refused.json())).toEqual([]);
  });
});
