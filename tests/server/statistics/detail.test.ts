import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatisticsDetail, QuestionStatistics, RespondentPage, StatisticsRow, TextPage } from '../../../src/shared/statistics/types.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, expectError, userId, type Caller } from '../questionnaires/helpers.js';
import { everyType, opened } from '../filling/helpers.js';
import { submitAs, variedAnswers } from './helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- stored answers of every shape, read as the test sees fit
type Stored = Record<string, any>;

/**
 * The counts, made here from the stored replies' JSON, without the code under test: for each
 * question, how many replies answered it and how many gave each item (option, scale point,
 * value, or grid `row/col`).
 */
function independentCount(definition: Definition, replies: Stored[]) {
  const out = new Map<string, { answered: number; items: Map<string, number> }>();
  for (const q of definition.sections.flatMap((s) => s.questions)) {
    const items = new Map<string, number>();
    const add = (key: string) => items.set(key, (items.get(key) ?? 0) + 1);
    let answered = 0;
    for (const r of replies) {
      const a = r[q.id];
      if (a === undefined || a === null || a === '') continue;
      answered++;
      if (q.type === 'RADIO' || q.type === 'DROPDOWN') add(a.choice);
      else if (q.type === 'CHECKBOX') for (const c of a.choices) add(c);
      else if (q.type === 'GRID_RADIO') for (const [row, col] of Object.entries(a)) add(`${row}/${col}`);
      else if (q.type === 'GRID_CHECKBOX') for (const [row, cols] of Object.entries(a)) for (const col of cols as string[]) add(`${row}/${col}`);
      else if (q.type === 'LINEAR_SCALE' || q.type === 'DATE' || q.type === 'TIME') add(String(a));
    }
    out.set(q.id, { answered, items });
  }
  return out;
}

/** The same figures read from the detail's summaries. */
function detailCount(questions: QuestionStatistics[]) {
  const out = new Map<string, { answered: number; items: Map<string, number> }>();
  for (const q of questions) {
    const items = new Map<string, number>();
    const s = q.summary!;
    if (s.kind === 'choices') for (const c of s.choices) if (c.count) items.set(c.id, c.count);
    if (s.kind === 'grid') for (const row of s.rows) for (const c of row.cells) if (c.count) items.set(`${row.id}/${c.id}`, c.count);
    if (s.kind === 'scale') for (const p of s.points) if (p.count) items.set(p.value, p.count);
    if (s.kind === 'distribution') for (const v of s.values) items.set(v.value, v.count);
    out.set(q.id, { answered: q.answered, items });
  }
  return out;
}

describe('statistics of a named questionnaire', () => {
  let t: TestApp;
  let teacher: Caller;
  let q: StatisticsRow;
  let students3A: number[];
  let students3B: number[];
  let teachers: number[];
  const definition = everyType();

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    teachers = [await userId(t.db, 'teacher05'), await userId(t.db, 'teacher06')];
    const opening = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '3A'), await classId(t.db, '3B')] }, { kind: 'USERS', ids: teachers }], {
      title: 'Sports and moods',
      assistantIds: undefined,
    } as never);
    students3A = await classStudents(t.db, '3A');
    students3B = await classStudents(t.db, '3B');
    // all of 3A but two, half of 3B, one teacher
    await submitAs(t, opening.id, [...students3A.slice(2), ...students3B.slice(0, Math.floor(students3B.length / 2)), teachers[0]], (i) => variedAnswers(i));
    q = { id: opening.id } as StatisticsRow;
  });
  afterAll(async () => t?.close());

  const stored = async (where: { role?: string; classCode?: string } = {}) => {
    let query = t.db.selectFrom('replies as r').innerJoin('feedback as f', 'f.id', 'r.feedback_id').innerJoin('users as u', 'u.id', 'f.user_id').select(['r.answers', 'u.id']).where('r.questionnaire_id', '=', q.id);
    if (where.role) query = query.where('u.user_type', '=', where.role);
    if (where.classCode) query = query.where('u.id', 'in', await classStudents(t.db, where.classCode));
    return (await query.execute()).map((r) => JSON.parse(r.answers) as Stored);
  };

  it('lists the questionnaire with its submitted and respondent numbers and the response rate', async () => {
    const list = data<{ list: StatisticsRow[]; total: number }>(await teacher('GET', '/v1/statistics'));
    const row = list.list.find((r) => r.id === q.id)!;
    const respondents = students3A.length + students3B.length + 2;
    const submitted = students3A.length - 2 + Math.floor(students3B.length / 2) + 1;
    expect(row).toMatchObject({ title: 'Sports and moods', status: 'PROCESSING', type: 'NAMED', respondentNum: respondents, submittedNum: submitted, principal: { nameEn: expect.any(String) } });
    expect(row.responseRate).toBe(Math.round((submitted * 1000) / respondents) / 10);
    expect(row.schoolYear?.name).toMatch(/^\d{4}-\d{4}$/);
    // searched by title
    expect(data<{ total: number }>(await teacher('GET', '/v1/statistics?q=moods')).total).toBe(1);
    expect(data<{ total: number }>(await teacher('GET', '/v1/statistics?q=nothing-like-it')).total).toBe(0);
  });

  it('counts every question as an independent count of the stored replies does', async () => {
    const detail = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}`));
    const replies = await stored();
    expect(detail.replyCount).toBe(replies.length);
    expect(detail.withheld).toBeNull();
    expect(detailCount(detail.questions)).toEqual(independentCount(definition, replies));
    // percentages: radio of those who answered, checkbox of respondents who answered the question
    const house = detail.questions.find((x) => x.id === 'house')!;
    expect(house.summary).toMatchObject({ kind: 'choices', base: house.answered });
    const sports = detail.questions.find((x) => x.id === 'sports')!.summary as Extract<StatisticsDetail['questions'][0]['summary'], { kind: 'choices' }>;
    const run = sports.choices.find((c) => c.id === 'run')!;
    expect(run.percent).toBe(Math.round((run.count * 1000) / sports.base) / 10);
    expect(sports.choices.reduce((s, c) => s + c.percent, 0)).toBeGreaterThan(100);
    // the scale's mean and median, computed here from the stored values
    const moods = replies.map((r) => r.mood as number).sort((a, b) => a - b);
    const scale = detail.questions.find((x) => x.id === 'mood')!.summary as Extract<StatisticsDetail['questions'][0]['summary'], { kind: 'scale' }>;
    expect(scale.mean).toBe(Math.round((moods.reduce((s, v) => s + v, 0) / moods.length) * 100) / 100);
    const mid = moods.length / 2;
    expect(scale.median).toBe(moods.length % 2 ? moods[Math.floor(mid)] : (moods[mid - 1] + moods[mid]) / 2);
    expect(scale.points.map((p) => p.value)).toEqual(['1', '2', '3', '4', '5']);
    // every question is there, numbered, with its type and text
    expect(detail.questions.map((x) => x.number)).toEqual(definition.sections.flatMap((s) => s.questions).map((_, i) => i + 1));
    expect(detail.questions[0]).toMatchObject({ id: 'name', type: 'SHORT_TEXT', title: 'Nickname', summary: { kind: 'texts', base: replies.filter((r) => r.name).length } });
  });

  it('recomputes everything for a role, a grade or a class', async () => {
    const teacherOnly = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}?role=TEACHER`));
    expect(teacherOnly.replyCount).toBe(1);
    expect(detailCount(teacherOnly.questions)).toEqual(independentCount(definition, await stored({ role: 'TEACHER' })));
    expect(teacherOnly).toMatchObject({ respondentNum: 2, submittedNum: 1, withheld: null });

    const class3B = await classId(t.db, '3B');
    const of3B = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}?classId=${class3B}`));
    expect(detailCount(of3B.questions)).toEqual(independentCount(definition, await stored({ classCode: '3B' })));
    expect(of3B).toMatchObject({ respondentNum: students3B.length, submittedNum: Math.floor(students3B.length / 2) });

    const grade = of3B.groups.classes.find((c) => c.id === class3B)!.gradeId;
    const ofGrade = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}?role=STUDENT&gradeId=${grade}`));
    expect(detailCount(ofGrade.questions)).toEqual(independentCount(definition, await stored({ role: 'STUDENT' })));
    // the groups to filter by, with their numbers
    expect(of3B.groups.roles).toEqual([
      { role: 'STUDENT', respondentNum: students3A.length + students3B.length, submittedNum: students3A.length - 2 + Math.floor(students3B.length / 2) },
      { role: 'TEACHER', respondentNum: 2, submittedNum: 1 },
    ]);
    expect(of3B.groups.classes.map((c) => c.nameEn).sort()).toEqual(['3A', '3B'].map((code) => expect.stringContaining(code)));
  });

  it('pages and searches the text answers and the "other" texts', async () => {
    const replies = await stored();
    const stories = replies.map((r) => r.story).filter(Boolean) as string[];
    const first = data<TextPage>(await teacher('GET', `/v1/statistics/${q.id}/texts?questionId=story&size=5`));
    expect(first.total).toBe(stories.length);
    expect(first.list).toHaveLength(Math.min(5, stories.length));
    const all = data<TextPage>(await teacher('GET', `/v1/statistics/${q.id}/texts?questionId=story&size=200`));
    expect(all.list.map((x) => x.text).sort()).toEqual([...stories].sort());
    const music = data<TextPage>(await teacher('GET', `/v1/statistics/${q.id}/texts?questionId=story&q=MUSIC`));
    expect(music.total).toBe(stories.filter((s) => /music/i.test(s)).length);
    expect(music.total).toBeGreaterThan(0);
    const others = data<TextPage>(await teacher('GET', `/v1/statistics/${q.id}/texts?questionId=sports&part=other&size=200`));
    expect(others.list.map((x) => x.text).sort()).toEqual(replies.filter((r) => r.sports?.otherText).map((r) => r.sports!.otherText).sort());
    expect(others.total).toBeGreaterThan(0);
    expectError(await teacher('GET', `/v1/statistics/${q.id}/texts?questionId=nope`), 'RECORD_NOT_FOUND');
  });

  it('lists who has and has not answered, with class and class number, and opens a reply', async () => {
    const notYet = data<RespondentPage>(await teacher('GET', `/v1/statistics/${q.id}/respondents?status=NOT_SUBMITTED&size=200`));
    expect(notYet.anonymous).toBe(false);
    if (notYet.anonymous) return;
    const expected = [...students3A.slice(0, 2), ...students3B.slice(Math.floor(students3B.length / 2)), teachers[1]];
    expect(notYet.total).toBe(expected.length);
    const ids = new Map((await t.db.selectFrom('feedback').select(['id', 'user_id']).where('questionnaire_id', '=', q.id).execute()).map((f) => [f.id, f.user_id]));
    expect(notYet.list.map((r) => ids.get(r.feedbackId)).sort()).toEqual(expected.sort());
    const student = notYet.list.find((r) => r.role === 'STUDENT')!;
    expect(student.class?.nameEn).toMatch(/3[AB]/);
    expect(student.classNumber).toBeGreaterThan(0);
    expect(notYet.list.find((r) => r.role === 'TEACHER')).toMatchObject({ class: null, status: 'NOT_SUBMITTED', replyId: null });

    const done = data<RespondentPage>(await teacher('GET', `/v1/statistics/${q.id}/respondents?status=SUBMITTED&role=TEACHER`));
    expect(done.total).toBe(1);
    const reply = data<{ answers: Stored; definition: Definition; number: null }>(await teacher('GET', `/v1/statistics/${q.id}/replies/${done.list[0].replyId}`));
    const storedReply = await t.db.selectFrom('replies').select('answers').where('id', '=', done.list[0].replyId!).executeTakeFirstOrThrow();
    expect(reply.answers).toEqual(JSON.parse(storedReply.answers));
    expect(reply.number).toBeNull();
  });

  it('exports an xlsx whose summary agrees with the detail and whose answers sheet has one row per reply', async () => {
    const detail = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}`));
    const res = await teacher('GET', `/v1/statistics/${q.id}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const [summary, answers] = workbook.worksheets;
    expect([summary.name, answers.name]).toEqual(['Summary', 'Answers']);
    // read the summary sheet back: each question's rows of label, count, percent
    const sheet = new Map<number, Map<string, [number, number]>>();
    let current = 0;
    summary.eachRow((row) => {
      const [first, second, third] = [row.getCell(1).value, row.getCell(2).value, row.getCell(3).value];
      const heading = typeof first === 'string' ? /^(\d+)\. /.exec(first) : null;
      if (heading) current = Number(heading[1]);
      else if (current && typeof second === 'number' && typeof third === 'number') {
        if (!sheet.has(current)) sheet.set(current, new Map());
        sheet.get(current)!.set(String(first), [second, third]);
      }
    });
    for (const question of detail.questions) {
      const s = question.summary!;
      const rows = sheet.get(question.number) ?? new Map();
      if (s.kind === 'choices') for (const c of s.choices) expect(rows.get(c.label), `${question.title} ${c.label}`).toEqual([c.count, c.percent]);
      if (s.kind === 'scale') for (const p of s.points) expect(rows.get(p.value)).toEqual([p.count, p.percent]);
      if (s.kind === 'distribution') for (const v of s.values) expect(rows.get(v.value)).toEqual([v.count, v.percent]);
    }
    expect(answers.rowCount - 1).toBe(detail.replyCount);
    // named: the respondents' names are there
    const names = new Set<string>();
    answers.eachRow((row, n) => n > 1 && names.add(String(row.getCell(2).value)));
    const teacher05 = await t.db.selectFrom('users').select('name_en').where('username', '=', 'teacher05').executeTakeFirstOrThrow();
    expect(names.has(teacher05.name_en)).toBe(true);
  });

  it('keeps the results from anybody who is not in charge, not assisting and not a manager', async () => {
    const other = await as(t, 'teacher03');
    for (const path of ['', '/texts?questionId=story', '/respondents', '/replies/x']) expectError(await other('GET', `/v1/statistics/${q.id}${path}`), 'RECORD_NOT_FOUND');
    const exported = await other('GET', `/v1/statistics/${q.id}/export`);
    expect(exported.json()).toMatchObject({ code: 719 });
    expect(exported.json().msg).toContain('Record not found');
    expect(data<{ list: StatisticsRow[] }>(await other('GET', '/v1/statistics')).list.map((r) => r.id)).not.toContain(q.id);
    // a student has no statistics at all
    const student = await as(t, 'student001');
    expectError(await student('GET', '/v1/statistics'), 'PERMISSION_DENIED');
    // an assistant may read them; an administrator sees every questionnaire
    data(await teacher('PUT', `/v1/questionnaires/${q.id}`, { assistantIds: [await userId(t.db, 'teacher03')] }));
    expect(data<StatisticsDetail>(await other('GET', `/v1/statistics/${q.id}`)).questionnaire.id).toBe(q.id);
    const admin = await as(t, 'admin');
    expect(data<{ list: StatisticsRow[] }>(await admin('GET', '/v1/statistics')).list.map((r) => r.id)).toContain(q.id);
  });
});
