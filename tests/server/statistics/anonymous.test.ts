import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RespondentPage, StatisticsDetail, TextPage } from '../../../src/shared/statistics/types.js';
import { isWithheld } from '../../../src/server/statistics/withholding.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, userId, type Caller } from '../questionnaires/helpers.js';
import { opened } from '../filling/helpers.js';
import { submitAs, variedAnswers } from './helpers.js';

describe('statistics of an anonymous questionnaire', () => {
  let t: TestApp;
  let teacher: Caller;
  let id: number;
  let students: number[];
  let teachers: number[];

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    teachers = [await userId(t.db, 'teacher07'), await userId(t.db, 'teacher08'), await userId(t.db, 'teacher09')];
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4A')] }, { kind: 'USERS', ids: teachers }], { type: 'ANONYMOUS', title: 'Anonymous moods' });
    id = q.id;
    students = await classStudents(t.db, '4A');
    // every student but one, and two of the three teachers
    await submitAs(t, id, [...students.slice(1), ...teachers.slice(0, 2)], (i) => variedAnswers(100 + i));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
  });
  afterAll(async () => t?.close());

  it('shows everything without a filter, counted after the replies were mixed', async () => {
    const detail = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}`));
    expect(detail).toMatchObject({ replyCount: students.length - 1 + 2, withheld: null });
    const house = detail.questions.find((q) => q.id === 'house')!;
    expect(house.answered).toBe(detail.replyCount);
    expect(house.summary).not.toBeNull();
  });

  it('withholds a group smaller than the minimum, and the rest of a group when only a few are left outside it', async () => {
    // 2 teachers replied: too few to show
    const teachersOnly = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}?role=TEACHER`));
    expect(teachersOnly.withheld).toEqual({ minGroupSize: 5, reason: 'group' });
    expect(teachersOnly.questions.every((q) => q.summary === null && q.answered === 0)).toBe(true);
    // the students are many, but everyone minus the students would show the 2 teachers' answers
    const studentsOnly = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}?role=STUDENT`));
    expect(studentsOnly.withheld).toEqual({ minGroupSize: 5, reason: 'group' });
    // texts and reply numbers of such a group are withheld too
    const texts = data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=name&role=TEACHER`));
    expect(texts).toEqual({ list: [], total: 0, withheld: { minGroupSize: 5, reason: 'group' }, mayMark: true });
    const numbers = data<RespondentPage>(await teacher('GET', `/v1/statistics/${id}/respondents?role=TEACHER`));
    expect(numbers).toMatchObject({ anonymous: true, list: [], total: 0, withheld: { minGroupSize: 5, reason: 'group' } });
  });

  it('decides from group counts: small groups, and what the shown groups of a level would leave to subtract', () => {
    const groups = [
      { respondent_role: 'STUDENT', grade_id: 1, class_id: 11, n: 20 },
      { respondent_role: 'STUDENT', grade_id: 1, class_id: 12, n: 3 },
      { respondent_role: 'TEACHER', grade_id: null, class_id: null, n: 8 },
    ];
    expect(isWithheld(groups, {}, 5)).toBe(false);
    expect(isWithheld(groups, { role: 'TEACHER' }, 5)).toBe(false);
    expect(isWithheld(groups, { classId: 12 }, 5)).toBe(true);
    // grade 1 minus class 11 is class 12's 3 replies
    expect(isWithheld(groups, { gradeId: 1, classId: 11 }, 5)).toBe(true);
    expect(isWithheld(groups, { role: 'STUDENT' }, 5)).toBe(false);
    expect(isWithheld(groups, { classId: 12 }, 3)).toBe(false);
    // nobody in the group: nothing to single out
    expect(isWithheld(groups, { classId: 99 }, 5)).toBe(false);
    // grades 1 and 3 shown would give away grade 2 (the students minus both): the smaller is withheld with it
    const grades = [
      { respondent_role: 'STUDENT', grade_id: 1, class_id: 11, n: 12 },
      { respondent_role: 'STUDENT', grade_id: 2, class_id: 21, n: 3 },
      { respondent_role: 'STUDENT', grade_id: 3, class_id: 31, n: 20 },
      { respondent_role: 'TEACHER', grade_id: null, class_id: null, n: 9 },
    ];
    expect(isWithheld(grades, { gradeId: 2 }, 5)).toBe(true);
    expect(isWithheld(grades, { gradeId: 1 }, 5)).toBe(true);
    expect(isWithheld(grades, { gradeId: 3 }, 5)).toBe(false);
    expect(isWithheld(grades, { role: 'STUDENT' }, 5)).toBe(false);
    // a withheld grade withholds its classes, however big
    expect(isWithheld(grades, { classId: 11 }, 5)).toBe(true);
    expect(isWithheld(grades, { classId: 31 }, 5)).toBe(false);
  });

  it("numbers the replies 'anonymous N' and counts who has not submitted, naming nobody", async () => {
    const page = data<RespondentPage>(await teacher('GET', `/v1/statistics/${id}/respondents?size=200`));
    expect(page.anonymous).toBe(true);
    if (!page.anonymous) return;
    expect(page.total).toBe(students.length + 1);
    expect(page.list.map((r) => r.number)).toEqual(page.list.map((_, i) => i + 1));
    expect(page.notSubmittedNum).toBe(2);
    expect(JSON.stringify(page)).not.toMatch(/name|userNo|feedbackId/);
    const one = data<{ number: number; answers: Record<string, unknown> }>(await teacher('GET', `/v1/statistics/${id}/replies/${page.list[4].replyId}`));
    expect(one.number).toBe(5);
    expect(Object.keys(one.answers).length).toBeGreaterThan(3);
  });

  it("exports numbered replies with no names, and withholds a small group's sheet", async () => {
    const res = await teacher('GET', `/v1/statistics/${id}/export`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const answers = workbook.getWorksheet('Answers')!;
    expect(answers.rowCount - 1).toBe(students.length + 1);
    expect(answers.getRow(2).getCell(1).value).toBe('Anonymous 1');
    const names = (await t.db.selectFrom('users').select(['name_en', 'name_hk', 'username']).where('id', 'in', [...students, ...teachers]).execute()).flatMap((u) => [u.name_en, u.name_hk, u.username]);
    const cells: string[] = [];
    workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value)))));
    for (const name of names) expect(cells, name).not.toContain(name);

    const small = await teacher('GET', `/v1/statistics/${id}/export?role=TEACHER`);
    const smallBook = new ExcelJS.Workbook();
    await smallBook.xlsx.load(small.rawPayload as unknown as ArrayBuffer);
    const smallAnswers = smallBook.getWorksheet('Answers')!;
    expect(smallAnswers.rowCount).toBe(2);
    expect(String(smallAnswers.getRow(2).getCell(1).value)).toContain('fewer than 5 replies');
  });
});
