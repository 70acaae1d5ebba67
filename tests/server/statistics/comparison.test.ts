import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatisticsComparison, StatisticsDetail } from '../../../src/shared/calls/statistics.js';
import type { QuestionnaireDetail, YearCopy } from '../../../src/shared/calls/questionnaires.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import type { RolloverPreview } from '../../../src/server/school/rollover.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, expectError, gradeId, inMinutes, userId, type Caller } from '../questionnaires/helpers.js';
import { everyType, opened } from '../filling/helpers.js';
import { submitAs, variedAnswers } from './helpers.js';

/**
 * Comparison across years: a survey run last year for S1 and S2, copied for this year after the
 * roll-over (by grade) with one question added; pupils answer both years. The comparison shows
 * each year as that year's own statistics show it, for everyone and for a grade as each year's
 * pupils were in it, and a question only one year asked says so (null).
 */
describe('comparison across years', () => {
  let t: TestApp;
  let teacher: Caller;
  let lastYear: number;
  let thisYear: number;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    const q = await opened(teacher, [{ kind: 'GRADE', ids: [await gradeId(t.db, 'S1'), await gradeId(t.db, 'S2')] }], { title: 'School life' });
    lastYear = q.id;
    await submitAs(t, lastYear, [...(await classStudents(t.db, '1A')).slice(0, 12), ...(await classStudents(t.db, '2B')).slice(0, 9)], (i) => variedAnswers(i));
    data(await teacher('POST', `/v1/questionnaires/${lastYear}/close`));
    const admin = await as(t, 'admin');
    data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover', { switchDate: null }), 201);

    const copy = data<YearCopy>(await teacher('POST', `/v1/questionnaires/${lastYear}/copy-for-year`, { audience: 'GRADE', type: 'NAMED' }), 201);
    thisYear = copy.questionnaire.id;
    const definition: Definition = structuredClone(copy.questionnaire.definition);
    definition.sections[0].questions.push({ id: 'newq', type: 'RADIO', title: 'New this year', required: false, options: [{ id: 'y', label: 'Yes' }, { id: 'n', label: 'No' }] } as never);
    data(await teacher('PUT', `/v1/questionnaires/${thisYear}`, { definition, openDate: inMinutes(-1), endDate: inMinutes(60) }));
    expect(data(await teacher('POST', `/v1/questionnaires/${thisYear}/ready`)).status).toBe('PROCESSING');
    // this year's S2 are last year's S1 (1A → 2A)
    await submitAs(t, thisYear, (await classStudents(t.db, '2A')).slice(0, 10), (i) => ({ ...variedAnswers(50 + i), newq: { choice: i % 3 ? 'y' : 'n' } }));
  });
  afterAll(async () => t?.close());

  const detail = async (id: number, query = '') => data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}${query}`));

  it('puts last year before this year, each as its own statistics show it, questions matched by id', async () => {
    for (const from of [lastYear, thisYear]) {
      const c = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${from}/comparison`));
      expect(c.series.map((s) => s.questionnaire.id)).toEqual([lastYear, thisYear]);
      const [then, now] = [await detail(lastYear), await detail(thisYear)];
      expect(c.series.map((s) => s.replyCount)).toEqual([then.replyCount, now.replyCount]);
      expect(c.series.map((s) => s.replyCount)).toEqual([21, 10]);
      for (const q of everyType().sections.flatMap((s) => s.questions)) {
        const row = c.questions.find((x) => x.id === q.id)!;
        expect(row.years, q.id).toEqual([then.questions.find((x) => x.id === q.id), now.questions.find((x) => x.id === q.id)]);
      }
      // asked this year only
      const added = c.questions.find((x) => x.id === 'newq')!;
      expect(added.years[0]).toBeNull();
      expect(added.years[1]).toEqual(now.questions.find((x) => x.id === 'newq'));
    }
  });

  it('filters each year by the grade as its own pupils were in it', async () => {
    const s2 = await gradeId(t.db, 'S2');
    const c = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${thisYear}/comparison?gradeId=${s2}`));
    const [then, now] = [await detail(lastYear, `?gradeId=${s2}`), await detail(thisYear, `?gradeId=${s2}`)];
    // last year's S2 were the 2B pupils; this year's the former 1A
    expect(c.series.map((s) => s.replyCount)).toEqual([9, 10]);
    expect(c.questions.find((x) => x.id === 'house')!.years).toEqual([then.questions.find((x) => x.id === 'house'), now.questions.find((x) => x.id === 'house')]);
  });

  it('counts a choice as a recount of each year’s stored replies does', async () => {
    const c = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${thisYear}/comparison`));
    const house = c.questions.find((x) => x.id === 'house')!;
    for (const [i, id] of [lastYear, thisYear].entries()) {
      const stored = (await t.db.selectFrom('replies').select('answers').where('questionnaire_id', '=', id).execute()).map((r) => JSON.parse(r.answers));
      const counts: Record<string, number> = {};
      for (const a of stored) if (a.house) counts[a.house.choice] = (counts[a.house.choice] ?? 0) + 1;
      const summary = house.years[i]!.summary as { kind: 'choices'; choices: { id: string; count: number }[] };
      expect(Object.fromEntries(summary.choices.filter((x) => x.count).map((x) => [x.id, x.count]))).toEqual(counts);
    }
  });

  it('exports to xlsx in either language: each year beside the others, a choice as its counts and percents', async () => {
    const c = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${thisYear}/comparison`));
    const house = c.questions.find((x) => x.id === 'house')!;
    const years = c.series.map((m) => m.questionnaire.schoolYear!.name);
    for (const [language, sheetName, yearHeader] of [['en', 'Years compared', 'School year'], ['zh-hk', '歷年比較', '學年']] as const) {
      const res = await teacher('GET', `/v1/statistics/${thisYear}/comparison/export?language=${language}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet(sheetName)!;
      const rows = Array.from(sheet.getSheetValues(), (r) => (Array.isArray(r) ? r.slice(1) : []));
      expect(rows).toContainEqual([yearHeader, ...years]);
      expect(rows.find((r) => r[0] === (language === 'en' ? 'Replies' : '回覆數'))).toEqual([expect.anything(), 21, 10]);
      // the question's block: its title, its header, a row per year
      const at = rows.findIndex((r) => r[0] === house.title);
      const header = rows[at + 1] as string[];
      for (const [i, year] of years.entries()) {
        const line = rows[at + 2 + i];
        expect(line[0]).toBe(year);
        expect(line[1]).toBe(house.years[i]!.answered);
        const summary = house.years[i]!.summary as { kind: 'choices'; choices: { label: string; count: number; percent: number }[] };
        for (const choice of summary.choices) {
          const col = header.findIndex((h) => typeof h === 'string' && h.startsWith(`${choice.label} · `));
          expect([line[col], line[col + 1]], choice.label).toEqual([choice.count, choice.percent]);
        }
      }
    }
    // a pupil may not export
    expect((await (await as(t, (await t.db.selectFrom('users').select('username').where('id', '=', (await classStudents(t.db, '2A'))[0]).executeTakeFirstOrThrow()).username))('GET', `/v1/statistics/${thisYear}/comparison/export`)).statusCode).toBe(403);
  });

  it('leaves out the years the caller may not read, and refuses a questionnaire they may not', async () => {
    const assistant = await userId(t.db, 'teacher03');
    data(await teacher('PUT', `/v1/questionnaires/${thisYear}`, { assistantIds: [assistant] }));
    const theirs = data<StatisticsComparison>(await (await as(t, 'teacher03'))('GET', `/v1/statistics/${thisYear}/comparison`));
    expect(theirs.series.map((s) => s.questionnaire.id)).toEqual([thisYear]);
    expect(theirs.questions.every((q) => q.years.length === 1)).toBe(true);
    expectError(await (await as(t, 'teacher03'))('GET', `/v1/statistics/${lastYear}/comparison`), 'RECORD_NOT_FOUND');
  });
});

/**
 * The minimum group holds per year: an anonymous survey whose teachers were too few to show last
 * year and enough this year is withheld for last year alone, by that year's own count.
 */
describe('comparison across years of an anonymous survey', () => {
  let t: TestApp;
  let teacher: Caller;
  let lastYear: number;
  let thisYear: number;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    const staff = await Promise.all(['teacher07', 'teacher08', 'teacher09', 'teacher10', 'teacher11', 'teacher12'].map((u) => userId(t.db, u)));
    const pupils = await classStudents(t.db, '4A');
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4A')] }, { kind: 'USERS', ids: staff }], { type: 'ANONYMOUS', title: 'Anonymous moods' });
    lastYear = q.id;
    // two teachers last year (below the minimum of 5), six this year
    await submitAs(t, lastYear, [...pupils, ...staff.slice(0, 2)], (i) => variedAnswers(i));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    const copy = data<QuestionnaireDetail>(await teacher('POST', `/v1/questionnaires/${lastYear}/copy`), 201);
    thisYear = copy.id;
    data(await teacher('PUT', `/v1/questionnaires/${thisYear}`, { openDate: inMinutes(-1), endDate: inMinutes(60) }));
    expect(data(await teacher('POST', `/v1/questionnaires/${thisYear}/ready`)).status).toBe('PROCESSING');
    await submitAs(t, thisYear, [...pupils, ...staff], (i) => variedAnswers(40 + i));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
  });
  afterAll(async () => t?.close());

  it('withholds a year whose group is below the minimum, and shows the year whose group is not', async () => {
    const c = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${thisYear}/comparison?role=TEACHER`));
    expect(c.series.map((s) => s.questionnaire.id)).toEqual([lastYear, thisYear]);
    expect(c.series.map((s) => s.withheld)).toEqual([{ minGroupSize: 5, reason: 'group' }, null]);
    expect(c.series[1].replyCount).toBe(6);
    const house = c.questions.find((q) => q.id === 'house')!;
    expect(house.years[0]).toMatchObject({ answered: 0, summary: null });
    expect(house.years[1]!.summary).not.toBeNull();
    // each year as its own detail shows it
    for (const [i, id] of [lastYear, thisYear].entries()) {
      const detail = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}?role=TEACHER`));
      expect(c.series[i].withheld).toEqual(detail.withheld);
      expect(house.years[i]).toEqual(detail.questions.find((q) => q.id === 'house'));
    }
  });
});
