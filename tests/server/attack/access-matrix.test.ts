import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { quickLink } from '../../../src/server/filling/quick.js';
import { signInStamp } from '../../../src/server/auth/sign-in-stamp.js';
import { ERRORS, type ErrorKey, errorText } from '../../../src/shared/errors.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { as, create, data, processing, userId } from '../questionnaires/helpers.js';
import { apiOperations, fillPath, type Operation } from './fuzz-support.js';

/**
 * The access matrix: every operation of the OpenAPI document the server publishes,
 * called as every kind of caller. Which callers get through the guard is written out below,
 * row by row, by hand — not derived from the permissions the server seeds — so a change to a
 * route's permission, or to the default roles, shows up here as a failing row. A new route
 * without a row fails, and so does a row whose route is gone.
 *
 * Columns (one letter each, "-" where the caller is refused):
 *   N nobody (no token)          F a forged token (the admin's claims, signed with another key)
 *   R a revoked session (logged out)   Q a reminder-link session (its questionnaire only)
 *   s student001   T teacher01   A admin   S superadmin
 * "Gets through" is any answer but the guard's refusal; a refusal is exactly the envelope of
 * SESSION_EXPIRED (401) for N and F, SESSION_REVOKED (444) for R, PERMISSION_DENIED (405) for the others.
 */
const EXPECTED: Record<string, string> = {
  // session and the caller's own data
  'POST /v1/login': 'NFRQsTAS',
  'POST /v1/logout': '---QsTAS',
  'POST /v1/change-password': '----sTAS',
  'GET /v1/my/user-info': '---QsTAS',
  'GET /v1/my/action-list': '---QsTAS',
  'GET /v1/my/permissions': '---QsTAS',
  // the home screen: any account (each card for the permissions it serves), not a reminder link's session
  'GET /v1/my/dashboard': '----sTAS',
  // the school, before anyone logs in
  'GET /v1/school-info': 'NFRQsTAS',
  'GET /v1/init': 'NFRQsTAS',
  'POST /v1/init': 'NFRQsTAS',
  // developer area: menus and actions (super administrator only)
  'GET /v1/menu-actions/actions/tree': '-------S',
  'GET /v1/menus/actions/inquire': '-------S',
  'POST /v1/menus/actions/create': '-------S',
  'POST /v1/menus/actions/edit': '-------S',
  'POST /v1/menus/actions/delete': '-------S',
  'POST /v1/menus/actions/update-sort': '-------S',
  'GET /v1/actions/actions/inquire': '-------S',
  'POST /v1/actions/actions/create': '-------S',
  'POST /v1/actions/actions/edit': '-------S',
  'POST /v1/actions/actions/delete': '-------S',
  // developer area: roles (administrators read them; only the super administrator changes them or who holds them)
  'GET /v1/roles': '------AS',
  'POST /v1/roles': '-------S',
  'GET /v1/roles/{id}': '------AS',
  'PUT /v1/roles/{id}': '-------S',
  'DELETE /v1/roles/{id}': '-------S',
  'GET /v1/roles/actions/action-list': '------AS',
  'POST /v1/roles/actions/select-action': '-------S',
  'GET /v1/roles/{id}/users': '------AS',
  'GET /v1/users/{id}/roles': '-------S',
  'PUT /v1/users/{id}/roles': '-------S',
  'GET /ed/roles/{role_id}/permissions': '------AS',
  // master data: administrators
  'GET /v1/admins': '------AS',
  'POST /v1/admins': '------AS',
  'GET /v1/admins/{id}': '------AS',
  'PUT /v1/admins/{id}': '------AS',
  'DELETE /v1/admins/{id}': '------AS',
  'PUT /v1/admins/{id}/password': '------AS',
  'GET /v1/admins/export': '------AS',
  'GET /v1/admins/import-template': '------AS',
  'POST /v1/admins/import': '------AS',
  'GET /v1/grade-classes': '------AS',
  'POST /v1/grade-classes': '------AS',
  'GET /v1/grade-classes/{id}': '------AS',
  'PUT /v1/grade-classes/{id}': '------AS',
  'DELETE /v1/grade-classes/{id}': '------AS',
  'GET /v1/grade-classes/export': '------AS',
  'GET /v1/mail-settings': '------AS',
  'PUT /v1/mail-settings': '------AS',
  'POST /v1/mail-settings/test': '------AS',
  'GET /v1/mail-settings/outbox': '------AS',
  'GET /v1/positions': '------AS',
  'POST /v1/positions': '------AS',
  'GET /v1/positions/{id}': '------AS',
  'PUT /v1/positions/{id}': '------AS',
  'DELETE /v1/positions/{id}': '------AS',
  'GET /v1/positions/export': '------AS',
  'GET /v1/school-years': '------AS',
  'POST /v1/school-years': '------AS',
  'GET /v1/school-years/{id}': '------AS',
  'PUT /v1/school-years/{id}': '------AS',
  'DELETE /v1/school-years/{id}': '------AS',
  'GET /v1/school-years/export': '------AS',
  // the "new school year" roll-over (school-year.management)
  'POST /v1/school-years/rollover/preview': '------AS',
  'POST /v1/school-years/rollover': '------AS',
  'GET /v1/students': '------AS',
  'POST /v1/students': '------AS',
  'GET /v1/students/{id}': '------AS',
  'PUT /v1/students/{id}': '------AS',
  'DELETE /v1/students/{id}': '------AS',
  'PUT /v1/students/{id}/password': '------AS',
  'GET /v1/students/export': '------AS',
  'GET /v1/students/import-template': '------AS',
  'POST /v1/students/import': '------AS',
  'GET /v1/teacher-groups': '------AS',
  'POST /v1/teacher-groups': '------AS',
  'GET /v1/teacher-groups/{id}': '------AS',
  'PUT /v1/teacher-groups/{id}': '------AS',
  'DELETE /v1/teacher-groups/{id}': '------AS',
  'GET /v1/teacher-groups/export': '------AS',
  'GET /v1/teachers': '------AS',
  'POST /v1/teachers': '------AS',
  'GET /v1/teachers/{id}': '------AS',
  'PUT /v1/teachers/{id}': '------AS',
  'DELETE /v1/teachers/{id}': '------AS',
  'PUT /v1/teachers/{id}/password': '------AS',
  'GET /v1/teachers/export': '------AS',
  'GET /v1/teachers/import-template': '------AS',
  'POST /v1/teachers/import': '------AS',
  // the class list of the student screens: not for students or teachers
  'GET /v1/classes': '------AS',
  // an import's job: any logged-in account asks, and sees only its own (404 otherwise)
  'GET /v1/import-jobs/{id}': '----sTAS',
  'GET /v1/import-jobs/latest': '----sTAS',
  // questionnaire design: teachers (their own), administrators (all)
  'GET /v1/questionnaires': '-----TAS',
  'POST /v1/questionnaires': '-----TAS',
  'GET /v1/questionnaires/{id}': '-----TAS',
  'PUT /v1/questionnaires/{id}': '-----TAS',
  'DELETE /v1/questionnaires/{id}': '-----TAS',
  'POST /v1/questionnaires/{id}/ready': '-----TAS',
  'POST /v1/questionnaires/{id}/cancel-ready': '-----TAS',
  'POST /v1/questionnaires/{id}/close': '-----TAS',
  'POST /v1/questionnaires/{id}/notice': '-----TAS',
  'POST /v1/questionnaires/{id}/copy': '-----TAS',
  'POST /v1/questionnaires/{id}/copy-for-year': '-----TAS',
  'POST /v1/questionnaires/{id}/extend': '-----TAS',
  'POST /v1/questionnaires/audience-count': '-----TAS',
  'POST /v1/questionnaires/images': '-----TAS',
  // questionnaire templates: teachers read, save and use them; administrators edit, retire and restore them
  'GET /v1/questionnaire-templates': '-----TAS',
  'GET /v1/questionnaire-templates/{id}': '-----TAS',
  'POST /v1/questionnaires/{id}/save-as-template': '-----TAS',
  'PUT /v1/questionnaire-templates/{id}': '------AS',
  'POST /v1/questionnaire-templates/{id}/retire': '------AS',
  'POST /v1/questionnaire-templates/{id}/restore': '------AS',
  'POST /v1/questionnaire-templates/{id}/use': '-----TAS',
  // the question bank: teachers search it and save to it; administrators reword, retire and restore
  'GET /v1/question-bank': '-----TAS',
  'GET /v1/question-bank/tags': '-----TAS',
  'GET /v1/question-bank/{id}': '-----TAS',
  'POST /v1/question-bank': '-----TAS',
  'PUT /v1/question-bank/{id}': '------AS',
  'POST /v1/question-bank/{id}/retire': '------AS',
  'POST /v1/question-bank/{id}/restore': '------AS',
  'GET /v1/audience-options': '-----TAS',
  'GET /v1/staff-options': '-----TAS',
  // Google account binding: staff; clearing someone's binding: administrators
  'GET /v1/google/actions/auth-url': '-----TAS',
  'POST /v1/google/actions/bind': '-----TAS',
  'DELETE /v1/google/bindings/{userId}': '------AS',
  // filling in: everyone logged in, the reminder link only its own questionnaire (not the list)
  'POST /v1/quick-login': 'NFRQsTAS',
  'GET /v1/my/questionnaires': '----sTAS',
  'GET /v1/my/questionnaires/{id}': '---QsTAS',
  'POST /v1/my/questionnaires/{id}/replies': '---QsTAS',
  // a named questionnaire's draft: whoever may reply to it, the reminder link for its own questionnaire
  'GET /v1/my/questionnaires/{id}/draft': '---QsTAS',
  'PUT /v1/my/questionnaires/{id}/draft': '---QsTAS',
  'DELETE /v1/my/questionnaires/{id}/draft': '---QsTAS',
  // statistics: teachers (their own), administrators (all)
  'GET /v1/statistics': '-----TAS',
  'GET /v1/statistics/{id}': '-----TAS',
  'GET /v1/statistics/{id}/texts': '-----TAS',
  // marks for a release: the guard lets results readers through; the service then asks for the person in charge or a manager
  'PUT /v1/statistics/{id}/texts/marks': '-----TAS',
  // results released: read by whoever reads the results (released and withdrawn by the person in charge or a results manager, decided by the handler)
  'GET /v1/statistics/{id}/release': '-----TAS',
  'PUT /v1/statistics/{id}/release': '-----TAS',
  'DELETE /v1/statistics/{id}/release': '-----TAS',
  // the summaries released to me: any account (who reads which is decided by the handler), not a reminder link's session
  'GET /v1/my/result-summaries': '----sTAS',
  'GET /v1/my/result-summaries/{id}': '----sTAS',
  'GET /v1/statistics/{id}/terms': '-----TAS',
  'GET /v1/statistics/{id}/comparison': '-----TAS',
  'GET /v1/statistics/{id}/respondents': '-----TAS',
  'GET /v1/statistics/{id}/replies/{replyId}': '-----TAS',
  'GET /v1/statistics/{id}/export': '-----TAS',
  'GET /v1/statistics/{id}/comparison/export': '-----TAS',
  // school settings: administrators
  'GET /v1/school': '------AS',
  'PUT /v1/school': '------AS',
  'POST /v1/school/logo': '------AS',
  'DELETE /v1/school/logo': '------AS',
  // staff personal data: staff see and ask to change their own; administrators approve others'
  // backup and restore: the super administrator's alone by default
  'GET /v1/backups': '-------S',
  'POST /v1/backups': '-------S',
  'GET /v1/backups/job': '-------S',
  'GET /v1/backups/{name}/download': '-------S',
  'DELETE /v1/backups/{name}': '-------S',
  'POST /v1/backups/upload': '-------S',
  'POST /v1/backups/{name}/restore': '-------S',
  'GET /v1/backups/schedule': '-------S',
  'PUT /v1/backups/schedule': '-------S',
  // sign-in with the school's accounts: the login page's calls are public (a test's completion is
  // decided by the handler: its super administrator only); the providers, their test and the
  // password login per user type are the super administrator's; an account's links follow who
  // sees and edits that account's record (decided by the handler per user type)
  'GET /v1/sign-in/options': 'NFRQsTAS',
  'POST /v1/sign-in/start': 'NFRQsTAS',
  'POST /v1/sign-in/complete': 'NFRQsTAS',
  'GET /v1/identity-providers': '-------S',
  'POST /v1/identity-providers': '-------S',
  'PUT /v1/identity-providers/{id}': '-------S',
  'DELETE /v1/identity-providers/{id}': '-------S',
  'POST /v1/identity-providers/{id}/test': '-------S',
  'GET /v1/sign-in/password-policy': '-------S',
  'PUT /v1/sign-in/password-policy': '-------S',
  'GET /v1/my/sign-in-links': '----sTAS',
  'GET /v1/users/{userId}/sign-in-links': '------AS',
  'DELETE /v1/users/{userId}/sign-in-links/{linkId}': '------AS',
  'GET /v1/my/personal-data': '-----TAS',
  'POST /v1/my/personal-data': '-----TAS',
  'POST /v1/my/personal-data/avatar': '-----TAS',
  'GET /v1/personal-data-requests': '------AS',
  'POST /v1/personal-data-requests/{id}/confirm': '------AS',
  'POST /v1/personal-data-requests/{id}/reject': '------AS',
};

const CALLERS = ['nobody', 'forged', 'revoked', 'quick', 'student', 'teacher', 'admin', 'super'] as const;
type Caller = (typeof CALLERS)[number];

/** The guard's refusal for each caller. */
const REFUSAL: Record<Caller, ErrorKey> = {
  nobody: 'SESSION_EXPIRED',
  forged: 'SESSION_EXPIRED',
  revoked: 'SESSION_REVOKED',
  quick: 'PERMISSION_DENIED',
  student: 'PERMISSION_DENIED',
  teacher: 'PERMISSION_DENIED',
  admin: 'PERMISSION_DENIED',
  super: 'PERMISSION_DENIED',
};

const isRefusal = (res: LightMyRequestResponse, key: ErrorKey) => {
  if (res.statusCode !== ERRORS[key].http) return false;
  const body = res.json() as unknown;
  return JSON.stringify(body) === JSON.stringify({ code: ERRORS[key].code, msg: errorText(key, 'en'), data: null });
};

describe('access matrix', () => {
  let t: TestApp;
  let operations: Operation[];
  const tokens = {} as Record<Caller, string | null>;
  /** a second session per caller, for POST /v1/logout (which ends the one it is sent with) */
  const logoutTokens = {} as Record<Caller, string | null>;
  /** ids that exist, for the path parameters */
  const ids: Record<string, number | string> = {};

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    const id = (username: string) => userId(t.db, username);
    const session = async (username: string) => (await login(t.app, username)).tk;
    ids.student = await id('student001');
    ids.teacher = await id('teacher01');
    ids.otherTeacher = await id('teacher20');
    ids.admin = await id('admin');

    // the questionnaire every caller asks for: teacher01's, open, for student001 and teacher01, with student001's reply
    const teacher = await as(t, 'teacher01');
    const q = await processing(teacher, [{ kind: 'USERS', ids: [ids.student as number, ids.teacher as number] }]);
    ids.questionnaire = q.id;
    // one to open, close, notify, copy and extend; one to delete
    ids.changing = (await processing(teacher, [{ kind: 'USERS', ids: [ids.student as number] }])).id;
    ids.deleting = (await create(teacher, { title: 'To delete' })).id;
    const student = await login(t.app, 'student001');
    data(await t.app.inject({ method: 'POST', url: `/v1/my/questionnaires/${q.id}/replies`, headers: bearer(student.tk), payload: { submissionKey: 'matrix-reply-1', answers: { q1: 'Music' } } }));
    ids.reply = (await t.db.selectFrom('replies').select('id').where('questionnaire_id', '=', q.id).executeTakeFirstOrThrow()).id;

    // records of each master entity, and spare ones for the deletes
    const admin = await as(t, 'admin');
    const made = async (url: string, body: object) => data<{ id: number }>(await admin('POST', url, body), 201).id;
    ids.grade = (await t.db.selectFrom('grades').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    ids.position = (await t.db.selectFrom('positions').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    ids.year = (await t.db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow()).id;
    ids.group = await made('/v1/teacher-groups', { code: 'MATRIX', nameHk: '組', nameEn: 'Group' });
    ids.spareAdmin = await made('/v1/admins', { code: 'SPARE1', username: 'spare-admin', password: 'Spare123', nameHk: '備用', nameEn: 'Spare' });
    ids.spareGrade = await made('/v1/grade-classes', { code: 'SPARE', nameHk: '備用', nameEn: 'Spare' });
    ids.sparePosition = await made('/v1/positions', { code: 'SPARE', nameHk: '備用', nameEn: 'Spare' });
    ids.spareYear = await made('/v1/school-years', { name: 'Spare year', beginDate: '2040-09-01', endDate: '2041-08-31', yearStatus: '0' });
    ids.spareStudent = await made('/v1/students', { code: 'SSPARE', username: 'spare-student', password: 'Spare123', nameHk: '備用', nameEn: 'Spare' });
    ids.spareGroup = await made('/v1/teacher-groups', { code: 'SPARE', nameHk: '備用', nameEn: 'Spare' });
    ids.spareTeacher = await made('/v1/teachers', { code: 'TSPARE', username: 'spare-teacher', password: 'Spare123', nameHk: '備用', nameEn: 'Spare' });
    const roles = await t.db.selectFrom('roles').select(['id', 'role_code']).execute();
    ids.adminRole = roles.find((r) => r.role_code === 'ADMIN')!.id;
    const superadmin = await as(t, 'superadmin');
    const spareRole = data<{ id: number }>(await superadmin('POST', '/v1/roles', { userType: 'TEACHER', roleCode: 'SPARE', nameHk: '備用', nameEn: 'Spare' }), 201);
    ids.spareRole = spareRole.id;
    ids.menu = (await t.db.selectFrom('menus').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    ids.action = (await t.db.selectFrom('actions').select('id').orderBy('id').executeTakeFirstOrThrow()).id;

    // the callers
    tokens.nobody = null;
    logoutTokens.nobody = null;
    tokens.student = await session('student001');
    tokens.teacher = await session('teacher01');
    tokens.admin = await session('admin');
    tokens.super = await session('superadmin');
    for (const [caller, username] of [['student', 'student001'], ['teacher', 'teacher01'], ['admin', 'admin'], ['super', 'superadmin']] as const) logoutTokens[caller] = await session(username);
    // forged: the admin's own claims and session, signed with a key that is not the server's
    const claims = decodeJwt(tokens.admin);
    tokens.forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not-the-server-secret-but-just-as-long-as-it'));
    logoutTokens.forged = tokens.forged;
    // revoked: a session that logged out
    tokens.revoked = await session('teacher02');
    expect((await t.app.inject({ method: 'POST', url: '/v1/logout', headers: bearer(tokens.revoked) })).json().code).toBe(200);
    logoutTokens.revoked = tokens.revoked;
    // a reminder link's session, for the questionnaire everyone asks for
    const quick = async () => {
      const link = await quickLink(t.config, 'http://qe.test', ids.student as number, q.id, q.endDate, (await signInStamp(t.db, ids.student as number))!);
      const res = await t.app.inject({ method: 'POST', url: '/v1/quick-login', payload: { token: new URL(link).searchParams.get('token') } });
      return data<{ tk: string }>(res).tk;
    };
    tokens.quick = await quick();
    logoutTokens.quick = await quick();

    operations = await apiOperations(t.app);
  }, 120_000);
  afterAll(async () => t?.close());

  /** Existing ids for an operation's path (the spare records for deletes), and its required query. */
  function requestOf(op: Operation): { url: string } {
    const resource = op.path.split('/')[2];
    const del = op.method === 'DELETE';
    const record: Record<string, number | string> = {
      admins: del ? ids.spareAdmin : ids.admin,
      'grade-classes': del ? ids.spareGrade : ids.grade,
      positions: del ? ids.sparePosition : ids.position,
      'school-years': del ? ids.spareYear : ids.year,
      students: del ? ids.spareStudent : ids.student,
      'teacher-groups': del ? ids.spareGroup : ids.group,
      teachers: del ? ids.spareTeacher : ids.teacher,
      roles: del ? ids.spareRole : ids.adminRole,
      users: ids.otherTeacher,
      questionnaires: del ? ids.deleting : /\/(ready|cancel-ready|close|notice|copy|copy-for-year|extend)$/.test(op.path) ? ids.changing : ids.questionnaire,
      my: ids.questionnaire,
      statistics: ids.questionnaire,
      google: ids.otherTeacher,
    };
    const values = { id: record[resource] ?? 0, role_id: ids.adminRole, userId: ids.otherTeacher, replyId: ids.reply, linkId: 1, name: 'qe-20260101-000000.qe.zip' };
    const query: Record<string, string | number> = { menuId: ids.menu, actionId: ids.action, roleId: ids.adminRole, kind: 'CLASS', questionId: 'q1' };
    const required = op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(query[p.name])}`);
    return { url: fillPath(op.path, values) + (required.length ? `?${required.join('&')}` : '') };
  }

  it('has a row for every operation of the OpenAPI document, and an operation for every row', () => {
    const documented = operations.map((op) => op.key).sort();
    expect(documented.filter((k) => !(k in EXPECTED)), 'operations without a row').toEqual([]);
    expect(Object.keys(EXPECTED).filter((k) => !documented.includes(k)), 'rows without an operation').toEqual([]);
    for (const [key, marks] of Object.entries(EXPECTED)) expect(marks, key).toMatch(/^[N-][F-][R-][Q-][s-][T-][A-][S-]$/);
  });

  it.each(Object.keys(EXPECTED))('%s: through the guard exactly as the table says', async (key) => {
    const op = operations.find((o) => o.key === key);
    expect(op, `${key} is not in the OpenAPI document`).toBeDefined();
    const { url } = requestOf(op!);
    const wrong: string[] = [];
    for (const [i, caller] of CALLERS.entries()) {
      const through = EXPECTED[key][i] !== '-';
      const token = key === 'POST /v1/logout' ? logoutTokens[caller] : tokens[caller];
      // no body: the guard decides before any body is read, and the routes that get one answer 422 without changing anything
      const res = await t.app.inject({ method: op!.method, url, headers: { 'accept-language': 'en', ...(token ? bearer(token) : {}) } });
      const refused = isRefusal(res, REFUSAL[caller]);
      if (through && (refused || res.statusCode === 401)) wrong.push(`${caller} was refused: ${res.statusCode} ${res.body.slice(0, 120)}`);
      if (!through && !refused) wrong.push(`${caller} got through (or was refused otherwise): ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong, `${key} ${url}`).toEqual([]);
  });

  it('scopes data: a teacher asking for another teacher\'s questionnaire gets 404, a student not asked cannot read or answer it', async () => {
    const other = await as(t, 'teacher02');
    for (const url of [`/v1/questionnaires/${ids.questionnaire}`, `/v1/statistics/${ids.questionnaire}`, `/v1/statistics/${ids.questionnaire}/respondents`, `/v1/statistics/${ids.questionnaire}/replies/${ids.reply}`]) {
      const res = await other('GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ code: ERRORS.RECORD_NOT_FOUND.code, msg: errorText('RECORD_NOT_FOUND', 'en'), data: null });
    }
    // the export answers as downloads do (719), with "not found" as its reason, and no file
    const exported = await other('GET', `/v1/statistics/${ids.questionnaire}/export`);
    expect(exported.json()).toEqual({ code: ERRORS.DOWNLOAD_ERROR.code, msg: `${errorText('DOWNLOAD_ERROR', 'en')}\n${errorText('RECORD_NOT_FOUND', 'en')}`, data: null });
    for (const [method, url] of [['PUT', `/v1/questionnaires/${ids.questionnaire}`], ['POST', `/v1/questionnaires/${ids.changing}/close`], ['DELETE', `/v1/questionnaires/${ids.questionnaire}`]] as const) {
      const res = await other(method, url, method === 'PUT' ? { title: 'Taken over' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // the teacher in charge does see it
    expect((await (await as(t, 'teacher01'))('GET', `/v1/statistics/${ids.questionnaire}`)).statusCode).toBe(200);
    // a student it does not ask: not found to read, refused to answer
    const outsider = await as(t, 'student002');
    const read = await outsider('GET', `/v1/my/questionnaires/${ids.questionnaire}`);
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual({ code: ERRORS.RECORD_NOT_FOUND.code, msg: errorText('RECORD_NOT_FOUND', 'en'), data: null });
    const answer = await outsider('POST', `/v1/my/questionnaires/${ids.questionnaire}/replies`, { submissionKey: 'outsider-1', answers: { q1: 'Art' } });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({ code: ERRORS.NOT_A_RESPONDENT.code, msg: errorText('NOT_A_RESPONDENT', 'en'), data: null });
    // a reminder link's session asking for another questionnaire
    const quick = await t.app.inject({ method: 'GET', url: `/v1/my/questionnaires/${ids.changing}`, headers: { ...bearer(tokens.quick!), 'accept-language': 'en' } });
    expect(isRefusal(quick, 'PERMISSION_DENIED')).toBe(true);
  });

  it('lets a route that takes any of several permissions through with one of them', async () => {
    // a role holding only student.edit, given to teacher03: the class list (for the student form) opens, the student list does not
    const superadmin = await as(t, 'superadmin');
    const role = data<{ id: number }>(await superadmin('POST', '/v1/roles', { userType: 'TEACHER', roleCode: 'STUDENT_EDITOR', nameHk: '學生編輯', nameEn: 'Student editor' }), 201);
    const edit = await t.db
      .selectFrom('actions as a')
      .innerJoin('menus as m', 'm.id', 'a.menu_id')
      .select('a.id')
      .where('m.code', '=', 'student')
      .where('a.code', '=', 'edit')
      .executeTakeFirstOrThrow();
    data(await superadmin('POST', '/v1/roles/actions/select-action', { roleId: role.id, actions: [edit.id], system: 'QE' }));
    const teacherRole = await t.db.selectFrom('roles').select('id').where('role_code', '=', 'TEACHER').executeTakeFirstOrThrow();
    const teacher03 = await userId(t.db, 'teacher03');
    data(await superadmin('PUT', `/v1/users/${teacher03}/roles`, { roleIds: [teacherRole.id, role.id] }));
    const teacher = await as(t, 'teacher03');
    const classes = await teacher('GET', '/v1/classes');
    expect(classes.statusCode).toBe(200);
    expect(classes.json().data.list.length).toBeGreaterThan(0);
    expect(isRefusal(await teacher('GET', '/v1/students'), 'PERMISSION_DENIED')).toBe(true);
    // and teacher01, without it, is refused
    expect(isRefusal(await (await as(t, 'teacher01'))('GET', '/v1/classes'), 'PERMISSION_DENIED')).toBe(true);
  });

  it('refuses tokens forged in other ways on a route of every kind of permission', async () => {
    const good = tokens.admin!;
    const [head, payload] = good.split('.');
    const other = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forgeries = [
      `${head}.${Buffer.from(JSON.stringify({ ...other, sub: String(ids.student), jti: String(ids.student) })).toString('base64url')}.${good.split('.')[2]}`,
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`,
      `${good}x`,
      good.split('.').slice(0, 2).join('.'),
      'not-a-token',
      await new SignJWT({ ...other, exp: Math.floor(Date.now() / 1000) - 60 }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(t.config.secret)),
    ];
    for (const url of ['/v1/my/user-info', '/v1/students', '/v1/questionnaires', '/ed/roles/1/permissions']) {
      for (const forged of forgeries) {
        const res = await t.app.inject({ method: 'GET', url, headers: { ...bearer(forged), 'accept-language': 'en' } });
        expect(isRefusal(res, 'SESSION_EXPIRED'), `${url} with ${forged.slice(0, 40)}…: ${res.statusCode} ${res.body}`).toBe(true);
      }
    }
  });
});
