import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import type { TemplateDetail, TemplatePage } from '../../../src/shared/calls/templates.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import { definitionErrors } from '../../../src/shared/questionnaire/definition.js';
import { missingTranslations } from '../../../src/shared/questionnaire/languages.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, create, data, expectError, oneQuestion, type Caller } from '../questionnaires/helpers.js';

const STARTERS = ['School life survey', 'Lesson feedback', 'Activity review', 'Staff development needs'];

/**
 * Questionnaire templates (docs/product-rules.md#templates): the starter set a school starts
 * with, the list and its search in both languages, saving a questionnaire as a template, editing,
 * retiring and restoring, and who may do each.
 */
describe('questionnaire templates', () => {
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

  const list = async (call: Caller, query = '') => data<TemplatePage>(await call('GET', `/v1/questionnaire-templates${query}`));
  const starter = async (nameEn: string) => (await list(teacher, `?q=${encodeURIComponent(nameEn)}`)).list.find((x) => x.nameEn === nameEn)!;

  it('starts a school with the four starter templates, in both languages, each a valid questionnaire of 6 to 10 questions', async () => {
    const page = await list(teacher);
    expect(page.total).toBe(4);
    // by name in the reader's language
    expect(page.list.map((x) => x.nameEn)).toEqual([...STARTERS].sort());
    for (const summary of page.list) {
      expect(summary).toMatchObject({ starter: true, retired: false, languages: ['zh-hk', 'en'] });
      expect(summary.questionCount).toBeGreaterThanOrEqual(6);
      expect(summary.questionCount).toBeLessThanOrEqual(10);
      const one = data<TemplateDetail>(await teacher('GET', `/v1/questionnaire-templates/${summary.id}`));
      expect(definitionErrors(one.definition as Definition)).toEqual([]);
      expect(missingTranslations(one.definition as Definition)).toEqual([]);
      const types = new Set((one.definition as Definition).sections.flatMap((s) => s.questions.map((q) => q.type)));
      expect(types.size).toBeGreaterThanOrEqual(4);
    }
    expect((await starter('Staff development needs')).audienceKind).toBe('ALL_TEACHERS');
    expect((await starter('School life survey')).audienceKind).toBe('ALL_STUDENTS');
  });

  it('installs the starter set once: a second start adds none', async () => {
    const again = await buildApp(t.config, { logger: false });
    await again.app.close();
    expect((await list(teacher)).total).toBe(4);
    expect((await list(teacher, '?retired=true')).total).toBe(0);
  });

  it('searches names and descriptions in Chinese and in English, whatever the case', async () => {
    expect((await list(teacher, `?q=${encodeURIComponent('課堂')}`)).list.map((x) => x.nameEn)).toEqual(['Lesson feedback']);
    expect((await list(teacher, '?q=LESSON')).list.map((x) => x.nameHk)).toEqual(['課堂回饋']);
    // descriptions: both the activity review and the staff development needs speak of planning
    expect((await list(teacher, '?q=planning')).list.map((x) => x.nameEn)).toEqual(['Activity review', 'Staff development needs']);
    expect((await list(teacher, `?q=${encodeURIComponent('來年')}`)).list.map((x) => x.nameEn)).toEqual(['Staff development needs']);
    expect((await list(teacher, '?q=nothing-like-it')).total).toBe(0);
    // sorted by the Chinese name for a Chinese reader
    const zh = await as(t, 'teacher01', 'zh-hk');
    const names = (await list(zh)).list.map((x) => x.nameHk);
    expect(names).toEqual([...names].sort());
  });

  it('is refused to students, and its changes to teachers', async () => {
    const id = (await starter('Lesson feedback')).id;
    expectError(await student('GET', '/v1/questionnaire-templates'), 'PERMISSION_DENIED');
    expectError(await student('GET', `/v1/questionnaire-templates/${id}`), 'PERMISSION_DENIED');
    expectError(await student('POST', `/v1/questionnaire-templates/${id}/use`, {}), 'PERMISSION_DENIED');
    expectError(await teacher('PUT', `/v1/questionnaire-templates/${id}`, { nameEn: 'Mine now' }), 'PERMISSION_DENIED');
    expectError(await teacher('POST', `/v1/questionnaire-templates/${id}/retire`), 'PERMISSION_DENIED');
    expectError(await teacher('GET', '/v1/questionnaire-templates/999999'), 'RECORD_NOT_FOUND');
    expect((await starter('Lesson feedback')).nameEn).toBe('Lesson feedback');
  });

  it('saves a questionnaire the caller may read as a template: its questions with their ids, no dates, its audience kind', async () => {
    const definition: Definition = { ...oneQuestion(), languages: ['en', 'zh-hk'], translations: { 'zh-hk': { questions: { q1: { title: '你最喜歡的科目？' } } } } };
    const q = await create(teacher, { title: 'Reading habits', targets: [{ kind: 'ALL_STUDENTS' }], definition, type: 'ANONYMOUS' });
    const saved = data<TemplateDetail>(await teacher('POST', `/v1/questionnaires/${q.id}/save-as-template`, { nameHk: '閱讀習慣', nameEn: 'Reading habits', descriptionEn: 'Every spring' }), 201);
    expect(saved).toMatchObject({ nameHk: '閱讀習慣', nameEn: 'Reading habits', descriptionEn: 'Every spring', descriptionHk: null, type: 'ANONYMOUS', audienceKind: 'ALL_STUDENTS', gradeCode: null, starter: false, retired: false, languages: ['en', 'zh-hk'], questionCount: 1 });
    expect(saved.definition).toEqual(q.definition);
    expect(JSON.stringify(saved)).not.toMatch(/openDate|endDate|inCharge/);
    // a class is bound to its year: the template's audience is then chosen anew
    const classes = await create(teacher, { title: 'Class survey', targets: [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }], definition: oneQuestion() });
    expect(data<TemplateDetail>(await teacher('POST', `/v1/questionnaires/${classes.id}/save-as-template`, { nameHk: '班別', nameEn: 'Class' }), 201).audienceKind).toBe('NONE');
    // asked for: a grade by its code
    expect(data<TemplateDetail>(await teacher('POST', `/v1/questionnaires/${classes.id}/save-as-template`, { nameHk: '中二', nameEn: 'S2', audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S2' }), 201)).toMatchObject({ audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S2' });
    const unknownGrade = await teacher('POST', `/v1/questionnaires/${classes.id}/save-as-template`, { nameHk: '中七', nameEn: 'S7', audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S7' });
    expect(unknownGrade.statusCode).toBe(422);
    expect(unknownGrade.json().data).toHaveProperty('gradeCode');
    // found by either name
    expect((await list(teacher, `?q=${encodeURIComponent('閱讀')}`)).list.map((x) => x.id)).toEqual([saved.id]);

    // one the caller may not read is not found; no names, no template
    const other = await as(t, 'teacher09');
    expectError(await other('POST', `/v1/questionnaires/${q.id}/save-as-template`, { nameHk: '我的', nameEn: 'Mine' }), 'RECORD_NOT_FOUND');
    expect((await teacher('POST', `/v1/questionnaires/${q.id}/save-as-template`, { nameHk: '', nameEn: 'No Chinese name' })).statusCode).toBe(422);
    // without questions there is nothing to start from
    const empty = await create(teacher, { title: 'Empty' });
    expectError(await teacher('POST', `/v1/questionnaires/${empty.id}/save-as-template`, { nameHk: '空', nameEn: 'Empty' }), 'NO_QUESTIONS');
    expectError(await student('POST', `/v1/questionnaires/${q.id}/save-as-template`, { nameHk: '學生', nameEn: 'Student' }), 'PERMISSION_DENIED');
  });

  it('is refused to a teacher whose role lacks form-template.add', async () => {
    const q = await create(teacher, { title: 'Not to be saved', definition: oneQuestion() });
    const add = t.db.selectFrom('actions as a').innerJoin('menus as m', 'm.id', 'a.menu_id').where('m.code', '=', 'form-template').where('a.code', '=', 'add').select('a.id');
    const teacherRole = t.db.selectFrom('roles').where('role_code', '=', 'TEACHER').select('id');
    const removed = await t.db.selectFrom('role_actions').selectAll().where('action_id', 'in', add).where('role_id', 'in', teacherRole).execute();
    expect(removed).toHaveLength(1);
    await t.db.deleteFrom('role_actions').where('action_id', 'in', add).where('role_id', 'in', teacherRole).execute();
    try {
      const without = await as(t, 'teacher01');
      expectError(await without('POST', `/v1/questionnaires/${q.id}/save-as-template`, { nameHk: '不可', nameEn: 'Refused' }), 'PERMISSION_DENIED');
      // reading and using stay
      expect((await list(without)).total).toBeGreaterThan(0);
    } finally {
      await t.db.insertInto('role_actions').values(removed).execute();
    }
  });

  it('is edited by an administrator, its questions checked as a questionnaire’s', async () => {
    const id = (await starter('Activity review')).id;
    const before = data<TemplateDetail>(await admin('GET', `/v1/questionnaire-templates/${id}`));
    const definition = structuredClone(before.definition) as Definition;
    definition.sections[0].questions[0].title = '你以甚麼身份參加這個活動？';
    const changed = data<TemplateDetail>(await admin('PUT', `/v1/questionnaire-templates/${id}`, { nameEn: 'Activity review (sports)', descriptionHk: null, definition, audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S3' }));
    expect(changed).toMatchObject({ nameEn: 'Activity review (sports)', nameHk: '活動檢討', descriptionHk: null, audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S3', starter: true });
    expect((changed.definition as Definition).sections[0].questions[0]).toMatchObject({ id: 'q1', title: '你以甚麼身份參加這個活動？' });

    const bad = structuredClone(definition);
    bad.sections[0].questions[1].type = 'NO_SUCH_TYPE' as never;
    const refused = await admin('PUT', `/v1/questionnaire-templates/${id}`, { definition: bad });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().data).some((k) => k.startsWith('definition.sections.0.questions.1'))).toBe(true);
    expect((await admin('PUT', `/v1/questionnaire-templates/${id}`, { audienceKind: 'EVERYONE', gradeCode: 'S3' })).json().data).toMatchObject({ audienceKind: 'EVERYONE', gradeCode: null });
    expect((await admin('PUT', `/v1/questionnaire-templates/${id}`, { audienceKind: 'STUDENTS_OF_GRADE', gradeCode: null })).statusCode).toBe(422);
    expect((await admin('PUT', `/v1/questionnaire-templates/${id}`, { nameEn: '' })).statusCode).toBe(422);
    expect((await admin('PUT', `/v1/questionnaire-templates/${id}`, { audienceKind: 'CLASS_1A' })).statusCode).toBe(422);
    expect((await admin('PUT', `/v1/questionnaire-templates/${id}`, { nameEn: 'Activity review' })).json().data.nameEn).toBe('Activity review');
  });

  it('hides a retired template from the list and refuses to use it, until it is restored', async () => {
    const id = (await starter('Lesson feedback')).id;
    const before = (await list(teacher)).total;
    expect(data<TemplateDetail>(await admin('POST', `/v1/questionnaire-templates/${id}/retire`)).retired).toBe(true);
    expect((await list(teacher)).list.map((x) => x.id)).not.toContain(id);
    expect((await list(teacher)).total).toBe(before - 1);
    expect((await list(teacher, '?retired=true')).list.map((x) => x.id)).toEqual([id]);
    expect((await list(teacher, '?q=lesson')).total).toBe(0);
    expectError(await teacher('POST', `/v1/questionnaire-templates/${id}/use`, {}), 'TEMPLATE_RETIRED');
    const zh = await as(t, 'teacher01', 'zh-hk');
    expectError(await zh('POST', `/v1/questionnaire-templates/${id}/use`, {}), 'TEMPLATE_RETIRED', 'zh-hk');
    expect(data<TemplateDetail>(await admin('POST', `/v1/questionnaire-templates/${id}/restore`)).retired).toBe(false);
    expect((await list(teacher)).total).toBe(before);
    expect(data<{ questionnaire: { status: string } }>(await teacher('POST', `/v1/questionnaire-templates/${id}/use`, {}), 201).questionnaire.status).toBe('PREPARING');
  });
});
