import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankQuestion } from '../../../src/shared/calls/question-bank.js';
import type { StatisticsComparison, StatisticsDetail } from '../../../src/shared/calls/statistics.js';
import type { QuestionnaireDetail, YearCopy } from '../../../src/shared/calls/questionnaires.js';
import { matchKeys } from '../../../src/server/statistics/series.js';
import type { RolloverPreview } from '../../../src/server/school/rollover.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import { insertionOf } from '../../../src/shared/questionnaire/bank.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classStudents, create, data, gradeId, inMinutes, type Caller } from '../questionnaires/helpers.js';
import { submitAs } from '../statistics/helpers.js';

/** A questionnaire of one bank question, inserted under `id`, in Chinese and English. */
function withBankQuestion(bank: BankQuestion, id: string, extra = false): Definition {
  const { question, translations } = insertionOf(bank.definition as Definition, bank.id, ['zh-hk', 'en'], id);
  const questions = [question];
  const texts = { [id]: translations.en! };
  if (extra) {
    questions.push({ id: 'own', type: 'PARAGRAPH', title: '其他意見', required: false });
    Object.assign(texts, { own: { title: 'Anything else' } });
  }
  return { version: 1, languages: ['zh-hk', 'en'], sections: [{ id: 's1', questions }], translations: { en: { questions: texts } } };
}

/**
 * The comparison across years matches a question by its bank origin: a bank question inserted
 * last year under one id and this year, into the copy, again under another lines up as one
 * question, each year counted as its stored replies are.
 */
describe('comparison across years of a bank question', () => {
  let t: TestApp;
  let teacher: Caller;
  let bank: BankQuestion;
  let lastYear: number;
  let thisYear: number;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    const source = await create(teacher, {
      title: 'Lunch',
      definition: {
        version: 1,
        languages: ['zh-hk', 'en'],
        sections: [{ id: 's1', questions: [{ id: 'lunch', type: 'RADIO', title: '午餐好吃嗎？', required: true, options: [{ id: 'y', label: '好吃' }, { id: 'n', label: '不好吃' }] }] }],
        translations: { en: { questions: { lunch: { title: 'Is lunch good?', options: { y: 'Good', n: 'Not good' } } } } },
      },
    });
    bank = data<BankQuestion>(await teacher('POST', '/v1/question-bank', { questionnaireId: source.id, questionId: 'lunch', tags: ['午餐'] }), 201);

    const grades = [{ kind: 'GRADE' as const, ids: [await gradeId(t.db, 'S1'), await gradeId(t.db, 'S2')] }];
    lastYear = (await create(teacher, { title: '午餐調查', titleTranslation: 'Lunch survey', targets: grades, type: 'NAMED', definition: withBankQuestion(bank, 'lunch-2025'), openDate: inMinutes(-1), endDate: inMinutes(60) } as never)).id;
    expect(data(await teacher('POST', `/v1/questionnaires/${lastYear}/ready`)).status).toBe('PROCESSING');
    await submitAs(t, lastYear, (await classStudents(t.db, '1A')).slice(0, 7), (i) => ({ 'lunch-2025': { choice: i % 3 ? 'y' : 'n' } }));
    data(await teacher('POST', `/v1/questionnaires/${lastYear}/close`));
    const admin = await as(t, 'admin');
    data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover', { switchDate: null }), 201);

    // this year's copy, its bank question taken out and inserted again from the bank under a new id
    const copy = data<YearCopy>(await teacher('POST', `/v1/questionnaires/${lastYear}/copy-for-year`, { audience: 'GRADE', type: 'NAMED' }), 201);
    thisYear = copy.questionnaire.id;
    data(await teacher('PUT', `/v1/questionnaires/${thisYear}`, { definition: withBankQuestion(bank, 'lunch-2026', true), openDate: inMinutes(-1), endDate: inMinutes(60) }));
    expect(data(await teacher('POST', `/v1/questionnaires/${thisYear}/ready`)).status).toBe('PROCESSING');
    await submitAs(t, thisYear, (await classStudents(t.db, '2A')).slice(0, 5), (i) => ({ 'lunch-2026': { choice: i % 2 ? 'y' : 'n' } }));
  });
  afterAll(async () => t?.close());

  it('lines the bank question up across the years under both ids, each year as its own statistics show it', async () => {
    const [then, now] = [data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${lastYear}`)), data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${thisYear}`))];
    for (const from of [lastYear, thisYear]) {
      const c = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${from}/comparison`));
      expect(c.series.map((s) => s.questionnaire.id)).toEqual([lastYear, thisYear]);
      const rows = c.questions.filter((q) => q.years.some((y) => y?.id.startsWith('lunch')));
      expect(rows).toHaveLength(1);
      // named by the chosen questionnaire's id for it
      expect(rows[0].id).toBe(from === lastYear ? 'lunch-2025' : 'lunch-2026');
      expect(rows[0].years).toEqual([then.questions.find((q) => q.id === 'lunch-2025'), now.questions.find((q) => q.id === 'lunch-2026')]);
      // this year's own question stands alone
      expect(c.questions.find((q) => q.id === 'own')!.years[0]).toBeNull();
    }
  });

  it('counts each year’s choices as a recount of its stored replies does', async () => {
    const c = data<StatisticsComparison>(await teacher('GET', `/v1/statistics/${thisYear}/comparison`));
    const row = c.questions.find((q) => q.id === 'lunch-2026')!;
    for (const [i, [id, qid]] of ([[lastYear, 'lunch-2025'], [thisYear, 'lunch-2026']] as const).entries()) {
      const stored = (await t.db.selectFrom('replies').select('answers').where('questionnaire_id', '=', id).execute()).map((r) => JSON.parse(r.answers));
      const counts: Record<string, number> = {};
      for (const a of stored) if (a[qid]) counts[a[qid].choice] = (counts[a[qid].choice] ?? 0) + 1;
      const summary = row.years[i]!.summary as { kind: 'choices'; choices: { id: string; count: number }[] };
      expect(Object.fromEntries(summary.choices.filter((x) => x.count).map((x) => [x.id, x.count]))).toEqual(counts);
    }
    expect(row.years.map((y) => y!.answered)).toEqual([7, 5]);
  });

  it('lines up the question the bank question was saved from with one inserted from it', async () => {
    // last year's questionnaire asked its own question, then saved it to the bank; this year's copy inserts it again from the bank
    const mine = await create(teacher, { title: 'Sport', definition: { version: 1, sections: [{ id: 's1', questions: [{ id: 'sport', type: 'RADIO', title: '運動', required: true, options: [{ id: 'a', label: '甲' }, { id: 'b', label: '乙' }] }] }] } });
    const saved = data<BankQuestion>(await teacher('POST', '/v1/question-bank', { questionnaireId: mine.id, questionId: 'sport' }), 201);
    const copy = data<{ id: number }>(await teacher('POST', `/v1/questionnaires/${mine.id}/copy`), 201);
    const { question } = insertionOf(saved.definition as Definition, saved.id, ['zh-hk'], 'sport-again');
    data(await teacher('PUT', `/v1/questionnaires/${copy.id}`, { definition: { version: 1, sections: [{ id: 's1', questions: [question] }] } }));
    const definitions = await Promise.all([mine.id, copy.id].map(async (id) => ({ id, definition: data<QuestionnaireDetail>(await teacher('GET', `/v1/questionnaires/${id}`)).definition as Definition })));
    const [before, after] = await matchKeys(t.db, definitions);
    expect(before.get('sport')).toBe(after.get('sport-again'));
    // and the copy made before the bank knew it still lines up with both
    const older = data<{ id: number }>(await teacher('POST', `/v1/questionnaires/${mine.id}/copy`), 201);
    const keys = await matchKeys(t.db, [...definitions, { id: older.id, definition: definitions[0].definition }]);
    expect(new Set([keys[0].get('sport'), keys[1].get('sport-again'), keys[2].get('sport')]).size).toBe(1);
  });
});
