import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplatePage } from '../../../src/shared/calls/templates.js';
import { testApp, type TestApp } from '../harness.js';
import { as, create, data, expectError, oneQuestion, type Caller } from '../questionnaires/helpers.js';
import { prng } from './fuzz-support.js';
import { Raw, hostileJsonValue, toJson } from './fuzz-values.js';

const SEED = Number(process.env.QE_FUZZ_SEED ?? 20261129);
const CASES = 120;

/**
 * Hostile bodies to the template calls that take one — new from template (`POST …/use`), save as
 * template and a template's change: each refused with a field error (422) or the documented
 * business code, a refusal in QE's envelope, never a 5xx, and nothing made or changed.
 */
describe('template calls refuse hostile bodies and make nothing', () => {
  let t: TestApp;
  let teacher: Caller;
  let admin: Caller;
  let template: number;
  let retired: number;
  let source: number;

  const counts = async () => ({
    questionnaires: Number((await t.db.selectFrom('questionnaires').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    templates: Number((await t.db.selectFrom('questionnaire_templates').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  });
  const templateRows = () => t.db.selectFrom('questionnaire_templates').selectAll().orderBy('id').execute();
  /** a body sent as JSON text (it may hold what JSON.stringify cannot write) */
  const send = (call: 'teacher' | 'admin', method: 'POST' | 'PUT', url: string, body: unknown) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${call === 'teacher' ? tokens.teacher : tokens.admin}`, 'content-type': 'application/json', 'accept-language': 'en' }, payload: toJson(body) });
  const tokens = { teacher: '', admin: '' };

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    admin = await as(t, 'admin');
    for (const who of ['teacher', 'admin'] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { username: who === 'teacher' ? 'teacher01' : 'admin', password: 'Passw0rd!' } });
      tokens[who] = res.json().data.tk;
    }
    const page = data<TemplatePage>(await teacher('GET', '/v1/questionnaire-templates'));
    template = page.list[0].id;
    source = (await create(teacher, { title: 'Hostile source', definition: oneQuestion() })).id;
    retired = data<{ id: number }>(await teacher('POST', `/v1/questionnaires/${source}/save-as-template`, { nameHk: '退役', nameEn: 'Retired' }), 201).id;
    data(await admin('POST', `/v1/questionnaire-templates/${retired}/retire`));
  });
  afterAll(async () => t?.close());

  /** Hostile bodies of new from template, each with the status it must be refused with. */
  const useCases = (): [unknown, number][] => [
    [{ audienceKind: 'PARENTS' }, 422],
    [{ audienceKind: 'everyone' }, 422],
    [{ audienceKind: "EVERYONE' OR 1=1 --" }, 422],
    [{ audienceKind: '' }, 422],
    [{ audienceKind: null }, 422],
    [{ audienceKind: ['PARENTS'] }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE' }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: null }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: '   ' }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S'.repeat(10_000) }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: "S1' OR '1'='1" }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S1; DROP TABLE grades; --' }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: '%' }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S\u00011' }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S1\u202e' }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 's1' }, 422],
    // a class's code, not a grade's
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: '1A' }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 1 }, 422],
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: { code: 'S1' } }, 422],
    // NUL: refused before validation (the trim plugin), alike on both databases
    [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S1\u0000' }, 400],
    [{ type: 'SECRET' }, 422],
    [{ type: 1 }, 422],
    [{ everyone: true }, 422],
    [{ inChargeId: 1 }, 422],
    [{ schoolYearId: 1 }, 422],
    [{ targets: [{ kind: 'ALL_STUDENTS' }] }, 422],
    [{ __proto__: { audienceKind: 'EVERYONE' }, extra: 1 }, 422],
    // a __proto__ key: refused by the body parser (406)
    [new Raw('{"__proto__":{"audienceKind":"EVERYONE"}}'), 400],
    [[], 422],
    ['EVERYONE', 422],
    [1, 422],
  ];

  it('refuses hostile bodies, ids and templates of new from template, and makes no questionnaire', async () => {
    const before = await counts();
    for (const [body, status] of useCases()) {
      const res = await send('teacher', 'POST', `/v1/questionnaire-templates/${template}/use`, body);
      expect(res.statusCode, `${toJson(body).slice(0, 120)}: ${res.body.slice(0, 300)}`).toBe(status);
      expect(res.json().code).toBe(status === 400 ? 406 : 422);
    }
    // ids that are no template's: beyond int4, negative, not numbers, another kind of record's
    const questionnaireOnly = (await t.db.selectFrom('questionnaires').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id + 10_000;
    for (const [id, status] of [['2147483648', 422], ['9223372036854775808', 422], ['-1', 422], ['0', 422], ['1.5', 422], ['1e3', 404], ['abc', 422], [String(questionnaireOnly), 404], ['2147483647', 404]] as const) {
      const res = await send('teacher', 'POST', `/v1/questionnaire-templates/${id}/use`, {});
      expect(res.statusCode, `${id}: ${res.body}`).toBe(status);
    }
    // the questionnaire it was saved from is not a template: its id names none unless a template has it
    expect(await counts()).toEqual(before);
    const notATemplate = Math.max(...(await templateRows()).map((r) => r.id)) + 1;
    while ((await t.db.selectFrom('questionnaires').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id < notATemplate) await create(teacher, { title: 'Not a template', definition: oneQuestion() });
    const made = await counts();
    expectError(await teacher('POST', `/v1/questionnaire-templates/${notATemplate}/use`, {}), 'RECORD_NOT_FOUND');
    // a retired template: 709, whatever the body
    expectError(await teacher('POST', `/v1/questionnaire-templates/${retired}/use`, {}), 'TEMPLATE_RETIRED');
    expectError(await teacher('POST', `/v1/questionnaire-templates/${retired}/use`, { audienceKind: 'EVERYONE' }), 'TEMPLATE_RETIRED');
    expectError(await (await as(t, 'teacher01', 'zh-hk'))('POST', `/v1/questionnaire-templates/${retired}/use`, {}), 'TEMPLATE_RETIRED', 'zh-hk');
    // a student may not use one at all
    expectError(await (await as(t, 'student001'))('POST', `/v1/questionnaire-templates/${template}/use`, {}), 'PERMISSION_DENIED');
    expect(made.templates).toBe(before.templates);
    expect(await counts()).toEqual(made);
  });

  it('a seeded run of hostile values in each field of new from template: refused or a questionnaire of a kind the rules name, never a 5xx', async () => {
    const r = prng(SEED);
    const before = await counts();
    let made = 0;
    for (let i = 0; i < CASES; i++) {
      const field = r.pick(['type', 'audienceKind', 'gradeCode'] as const);
      const body: Record<string, unknown> = r.chance(0.5) ? { audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S1' } : {};
      body[field] = hostileJsonValue(r);
      const res = await send('teacher', 'POST', `/v1/questionnaire-templates/${template}/use`, body);
      const label = `seed ${SEED} case ${i}: ${toJson(body).slice(0, 160)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
      expect(res.statusCode, label).toBeLessThan(500);
      expect([200, 400, 413, 422], label).toContain(res.statusCode);
      if (res.statusCode === 200) {
        // only a body the schema allows: a valid type, a kind of the list, a grade that exists
        const used = res.json().data;
        expect(['NAMED', 'ANONYMOUS']).toContain(used.questionnaire.type);
        expect(['NONE', 'ALL_STUDENTS', 'STUDENTS_OF_GRADE', 'ALL_TEACHERS', 'EVERYONE']).toContain(used.audience.kind);
        if (used.audience.kind === 'STUDENTS_OF_GRADE') expect(used.audience).toMatchObject({ gradeCode: 'S1', found: true });
        made++;
      }
    }
    expect((await counts()).questionnaires).toBe(before.questionnaires + made);
    expect((await counts()).templates).toBe(before.templates);
  });

  it('refuses hostile bodies of save as template and of a change, and makes or changes no template', async () => {
    const before = await counts();
    const rows = await templateRows();
    const names = { nameHk: '名', nameEn: 'Name' };
    const bodies: [unknown, number][] = [
      [{}, 422],
      [{ nameHk: '名' }, 422],
      [{ ...names, nameEn: '' }, 422],
      [{ ...names, nameEn: 'x'.repeat(201) }, 422],
      [{ ...names, descriptionEn: 'x'.repeat(2001) }, 422],
      [{ ...names, audienceKind: 'PARENTS' }, 422],
      [{ ...names, audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S'.repeat(10_000) }, 422],
      [{ ...names, audienceKind: 'STUDENTS_OF_GRADE', gradeCode: "S1' OR '1'='1" }, 422],
      [{ ...names, audienceKind: 'STUDENTS_OF_GRADE', gradeCode: '1A' }, 422],
      [{ ...names, audienceKind: 'STUDENTS_OF_GRADE' }, 422],
      [{ ...names, starter: true }, 422],
      [{ ...names, definition: oneQuestion() }, 422],
      [{ ...names, nameEn: ['a', 'b'] }, 422],
      [{ ...names, nameHk: 'a\u0000' }, 400],
    ];
    for (const [body, status] of bodies) {
      const res = await send('teacher', 'POST', `/v1/questionnaires/${source}/save-as-template`, body);
      expect(res.statusCode, `${toJson(body).slice(0, 120)}: ${res.body.slice(0, 300)}`).toBe(status);
    }
    expect((await send('teacher', 'POST', '/v1/questionnaires/2147483648/save-as-template', names)).statusCode).toBe(422);
    expect((await send('teacher', 'POST', '/v1/questionnaires/2147483647/save-as-template', names)).statusCode).toBe(404);

    const changes: [unknown, number][] = [
      [{ audienceKind: 'PARENTS' }, 422],
      [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S'.repeat(10_000) }, 422],
      [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S9' }, 422],
      [{ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: null }, 422],
      [{ type: 'SECRET' }, 422],
      [{ retired: false }, 422],
      [{ starter: false }, 422],
      [{ createdBy: 1 }, 422],
      [{ definition: 'x' }, 422],
      [{ definition: { version: 1, sections: [{ id: 's1', questions: [] }] } }, 409],
      [{ definition: { version: 1, sections: [{ id: 's1', questions: [{ id: 'q1', type: 'NOT_A_TYPE', title: 'x' }] }] } }, 422],
      [{ nameEn: null }, 422],
    ];
    for (const [body, status] of changes) {
      const res = await send('admin', 'PUT', `/v1/questionnaire-templates/${template}`, body);
      expect(res.statusCode, `${toJson(body).slice(0, 120)}: ${res.body.slice(0, 300)}`).toBe(status);
    }
    expect((await send('admin', 'PUT', '/v1/questionnaire-templates/2147483648', { nameEn: 'x' })).statusCode).toBe(422);
    expect((await send('admin', 'PUT', '/v1/questionnaire-templates/2147483647', { nameEn: 'x' })).statusCode).toBe(404);
    expect(await counts()).toEqual(before);
    expect(await templateRows()).toEqual(rows);
  });
});
