import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatisticsComparison } from '../../../src/shared/calls/statistics.js';
import type { TemplateDetail, TemplatePage, TemplateUse } from '../../../src/shared/calls/templates.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import type { Questionnaire } from '../../../src/shared/questionnaire/types.js';
import type { RolloverPreview } from '../../../src/server/school/rollover.js';
import { seedDemoQuestionnaires } from '../../../src/server/demo/questionnaires.js';
import { sampleAnswers } from '../../../src/shared/questionnaire/sample-answers.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, create, data, gradeId, inMinutes, type Caller } from '../questionnaires/helpers.js';
import { random, submitAs } from '../statistics/helpers.js';

/**
 * New from template after a roll-over of the demo school (1A → 2A …): a grade's template asks this
 * year's pupils of the grade; a grade gone leaves the audience empty and says so; two
 * questionnaires made from one template are one series, compared question by question.
 */
describe('new from template', () => {
  let t: TestApp;
  let teacher: Caller;
  let admin: Caller;
  let s2Template: number;
  let lastYear: number;
  let thisYear: number;

  const currentYear = async () => (await t.db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow()).id;
  const starter = async (nameEn: string) => data<TemplatePage>(await teacher('GET', `/v1/questionnaire-templates?q=${encodeURIComponent(nameEn)}`)).list.find((x) => x.nameEn === nameEn)!;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    admin = await as(t, 'admin');
    lastYear = await currentYear();
    const lesson = data<TemplateDetail>(await teacher('GET', `/v1/questionnaire-templates/${(await starter('Lesson feedback')).id}`));
    const q = await create(teacher, { title: 'S2 reading', targets: [{ kind: 'GRADE', ids: [await gradeId(t.db, 'S2')] }], definition: lesson.definition as Definition });
    s2Template = data<TemplateDetail>(await teacher('POST', `/v1/questionnaires/${q.id}/save-as-template`, { nameHk: '中二閱讀', nameEn: 'S2 reading' }), 201).id;
    data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover', { switchDate: null }), 201);
    thisYear = await currentYear();
  });
  afterAll(async () => t?.close());

  it('makes a questionnaire in PREPARING of this year, the caller in charge, no dates, the grade meaning this year’s pupils', async () => {
    expect(thisYear).not.toBe(lastYear);
    const { questionnaire, audience } = data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${s2Template}/use`, {}), 201);
    const me = (await t.db.selectFrom('users').select('id').where('username', '=', 'teacher01').executeTakeFirstOrThrow()).id;
    expect(questionnaire).toMatchObject({ status: 'PREPARING', schoolYearId: thisYear, inChargeId: me, openDate: null, endDate: null, type: 'NAMED', title: '中二閱讀', titleTranslation: 'S2 reading', languages: ['zh-hk', 'en'], assistantIds: [] });
    expect(audience).toEqual({ kind: 'STUDENTS_OF_GRADE', gradeCode: 'S2', found: true });
    expect(questionnaire.targets).toEqual([{ kind: 'GRADE', ids: [await gradeId(t.db, 'S2')] }]);
    // this year's S2: last year's S1, moved up by the roll-over
    const s2Now = (await classStudents(t.db, '2A')).length + (await classStudents(t.db, '2B')).length;
    expect(s2Now).toBeGreaterThan(0);
    expect(questionnaire.audienceCount).toBe(s2Now);
    const template = data<TemplateDetail>(await teacher('GET', `/v1/questionnaire-templates/${s2Template}`));
    expect(questionnaire.definition).toEqual(template.definition);
    // the type chosen again
    expect(data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${s2Template}/use`, { type: 'ANONYMOUS' }), 201).questionnaire.type).toBe('ANONYMOUS');
  });

  it('sets the whole-school kinds, and leaves the audience empty when the grade no longer exists', async () => {
    const staff = data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${(await starter('Staff development needs')).id}/use`, {}), 201);
    expect(staff.questionnaire.targets).toEqual([{ kind: 'ALL_TEACHERS' }]);
    expect(staff.questionnaire).toMatchObject({ type: 'NAMED', title: '教師專業發展需要', titleTranslation: 'Staff development needs' });
    expect(staff.audience.found).toBe(true);

    const { id: gone } = await t.db.insertInto('grades').values({ code: 'S7', name_hk: '中七', name_en: 'Secondary 7', seq: 7 }).returning('id').executeTakeFirstOrThrow();
    data(await admin('PUT', `/v1/questionnaire-templates/${s2Template}`, { audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S7' }));
    await t.db.deleteFrom('grades').where('id', '=', gone).execute();
    const { questionnaire, audience } = data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${s2Template}/use`, {}), 201);
    expect(audience).toEqual({ kind: 'STUDENTS_OF_GRADE', gradeCode: 'S7', found: false });
    expect(questionnaire.targets).toEqual([]);
    expect(questionnaire.audienceCount).toBe(0);
  });

  it('asks another audience kind when the caller chooses one: a grade that exists, or 422 gradeCode', async () => {
    const staff = (await starter('Staff development needs')).id;
    const { questionnaire, audience } = data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${staff}/use`, { audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S3' }), 201);
    expect(audience).toEqual({ kind: 'STUDENTS_OF_GRADE', gradeCode: 'S3', found: true });
    expect(questionnaire.targets).toEqual([{ kind: 'GRADE', ids: [await gradeId(t.db, 'S3')] }]);
    expect(data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${staff}/use`, { audienceKind: 'EVERYONE' }), 201).questionnaire.targets).toEqual([{ kind: 'ALL_STUDENTS' }, { kind: 'ALL_TEACHERS' }]);
    expect(data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${staff}/use`, { audienceKind: 'NONE' }), 201).questionnaire.targets).toEqual([]);
    const missing = await teacher('POST', `/v1/questionnaire-templates/${staff}/use`, { audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S9' });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().data)).toEqual(['gradeCode']);
    expect((await teacher('POST', `/v1/questionnaire-templates/${staff}/use`, { audienceKind: 'STUDENTS_OF_GRADE' })).statusCode).toBe(422);
  });

  it('is refused to a student, and to staff without form-template.view', async () => {
    const student = await as(t, 'student050');
    const refused = await student('POST', `/v1/questionnaire-templates/${s2Template}/use`, {});
    expect(refused.statusCode).toBe(403);
    const view = t.db.selectFrom('actions as a').innerJoin('menus as m', 'm.id', 'a.menu_id').where('m.code', '=', 'form-template').where('a.code', '=', 'view').select('a.id');
    const teacherRole = t.db.selectFrom('roles').where('role_code', '=', 'TEACHER').select('id');
    const removed = await t.db.selectFrom('role_actions').selectAll().where('action_id', 'in', view).where('role_id', 'in', teacherRole).execute();
    await t.db.deleteFrom('role_actions').where('action_id', 'in', view).where('role_id', 'in', teacherRole).execute();
    try {
      const without = await as(t, 'teacher01');
      expect((await without('POST', `/v1/questionnaire-templates/${s2Template}/use`, {})).statusCode).toBe(403);
      expect((await without('GET', '/v1/questionnaire-templates')).statusCode).toBe(403);
    } finally {
      await t.db.insertInto('role_actions').values(removed).execute();
    }
  });

  it('puts two questionnaires made from one template in one comparison series, their questions matched by id', async () => {
    const template = data<TemplateDetail>(await teacher('GET', `/v1/questionnaire-templates/${(await starter('School life survey')).id}`));
    const definition = template.definition as Definition;
    const ids = definition.sections.flatMap((s) => s.questions.map((q) => q.id));
    const made: Questionnaire[] = [];
    for (const cls of ['2A', '3A']) {
      const { questionnaire } = data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${template.id}/use`, { type: 'NAMED' }), 201);
      expect(questionnaire.definition.sections.flatMap((s) => s.questions.map((q) => q.id))).toEqual(ids);
      data(await teacher('PUT', `/v1/questionnaires/${questionnaire.id}`, { targets: [{ kind: 'CLASS', ids: [await classId(t.db, cls)] }], openDate: inMinutes(-1), endDate: inMinutes(60) }));
      expect(data(await teacher('POST', `/v1/questionnaires/${questionnaire.id}/ready`)).status).toBe('PROCESSING');
      await submitAs(t, questionnaire.id, (await classStudents(t.db, cls)).slice(0, 5), (i) => sampleAnswers(definition, random(i + 7).next));
      made.push(questionnaire);
    }
    for (const from of made) {
      const c = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${from.id}/comparison`));
      expect(c.series.map((s) => s.questionnaire.id).sort((a, b) => a - b)).toEqual(made.map((m) => m.id));
      expect(c.series.map((s) => s.replyCount)).toEqual([5, 5]);
      expect(c.questions.map((q) => q.id)).toEqual(ids);
      for (const q of c.questions) expect(q.years.every((y) => y !== null), q.id).toBe(true);
    }
    // a questionnaire of another template, or of none, is not in the series
    const other = data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${(await starter('Activity review')).id}/use`, { type: 'NAMED' }), 201).questionnaire;
    data(await teacher('PUT', `/v1/questionnaires/${other.id}`, { targets: [{ kind: 'CLASS', ids: [await classId(t.db, '4A')] }], openDate: inMinutes(-1), endDate: inMinutes(60) }));
    expect(data(await teacher('POST', `/v1/questionnaires/${other.id}/ready`)).status).toBe('PROCESSING');
    const own = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${other.id}/comparison`));
    expect(own.series.map((s) => s.questionnaire.id)).toEqual([other.id]);
  });
});

describe('the demo’s templates', () => {
  it('has the starter set and the school’s own S1 survey template, which a new S1 survey is compared with', async () => {
    const t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    try {
      await seedDemoQuestionnaires(t.db);
      const teacher = await as(t, 'teacher01');
      const page = data<TemplatePage>(await teacher('GET', '/v1/questionnaire-templates'));
      expect(page.total).toBe(5);
      const own = page.list.find((x) => !x.starter)!;
      expect(own).toMatchObject({ nameEn: 'S1 student survey', audienceKind: 'STUDENTS_OF_GRADE', gradeCode: 'S1', languages: ['zh-hk', 'en'] });
      const { questionnaire } = data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${own.id}/use`, {}), 201);
      expect(questionnaire.audienceCount).toBe((await classStudents(t.db, '1A')).length + (await classStudents(t.db, '1B')).length);
      data(await teacher('PUT', `/v1/questionnaires/${questionnaire.id}`, { openDate: inMinutes(-1), endDate: inMinutes(60) }));
      expect(data(await teacher('POST', `/v1/questionnaires/${questionnaire.id}/ready`)).status).toBe('PROCESSING');
      await submitAs(t, questionnaire.id, (await classStudents(t.db, '1B')).slice(0, 3), (i) => sampleAnswers(questionnaire.definition as Definition, random(i + 3).next));
      const c = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${questionnaire.id}/comparison`));
      // the demo's finished S1 survey, saved as the template, first
      expect(c.series).toHaveLength(2);
      expect(c.series[0].questionnaire.id).not.toBe(questionnaire.id);
      expect(c.series[1]).toMatchObject({ questionnaire: { id: questionnaire.id }, replyCount: 3 });
      expect(c.questions.every((q) => q.years.every((y) => y !== null))).toBe(true);
    } finally {
      await t.close();
    }
  });
});
