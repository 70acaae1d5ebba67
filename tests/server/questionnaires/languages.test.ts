import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import type { MyQuestionnaireDetail } from '../../../src/shared/calls/filling.js';
import type { StatisticsDetail } from '../../../src/shared/statistics/types.js';
import { testApp, type TestApp } from '../harness.js';
import { caller } from '../master/helpers.js';
import { newKey } from '../filling/helpers.js';
import { as, classStudents, create, data, inMinutes, type Caller } from './helpers.js';

/** A questionnaire written in Chinese, its English texts by id (docs/questionnaire-languages.md). */
const chinese = (): Definition => ({
  version: 1,
  languages: ['zh-hk', 'en'],
  closingMessage: '多謝你的意見',
  sections: [
    {
      id: 's1',
      title: '午膳',
      questions: [
        { id: 'taste', type: 'RADIO', title: '飯菜味道如何？', required: true, options: [{ id: 'good', label: '好' }, { id: 'bad', label: '不好' }], other: true, otherLabel: '其他意見' },
        { id: 'mood', type: 'LINEAR_SCALE', title: '滿意程度', required: true, scale: { min: 1, max: 5, minLabel: '很差', maxLabel: '很好' } },
        { id: 'days', type: 'GRID_RADIO', title: '每日評分', required: false, rows: [{ id: 'mon', label: '星期一' }, { id: 'tue', label: '星期二' }], columns: [{ id: 'ok', label: '可以' }, { id: 'no', label: '不可以' }] },
        { id: 'room', type: 'SHORT_TEXT', title: '課室', required: false, textRule: { kind: 'pattern', pattern: '[1-6][A-D]', message: '例如 3A' } },
      ],
    },
  ],
});

const english = {
  closingMessage: 'Thank you for your views',
  sections: { s1: { title: 'Lunch' } },
  questions: {
    taste: { title: 'How does the food taste?', options: { good: 'Good', bad: 'Bad' }, otherLabel: 'Something else' },
    mood: { title: 'How satisfied are you', minLabel: 'Very poor', maxLabel: 'Very good' },
    days: { title: 'Each day', rows: { mon: 'Monday', tue: 'Tuesday' }, columns: { ok: 'Fine', no: 'Not fine' } },
    room: { title: 'Classroom', message: 'Like 3A' },
    // a question no longer there: dropped on save
    gone: { title: 'Removed' },
  },
};

/** The summaries without their texts: what must be the same whatever the reader's language. */
const figures = (d: StatisticsDetail) =>
  d.questions.map((q) => {
    const s = q.summary!;
    if (s.kind === 'choices') return { id: q.id, answered: q.answered, counts: s.choices.map((c) => [c.id, c.count, c.percent]) };
    if (s.kind === 'grid') return { id: q.id, answered: q.answered, counts: s.rows.map((r) => [r.id, r.cells.map((c) => [c.id, c.count])]) };
    if (s.kind === 'scale') return { id: q.id, answered: q.answered, counts: s.points.map((p) => [p.value, p.count]) };
    return { id: q.id, answered: q.answered };
  });

const labels = (d: StatisticsDetail) =>
  d.questions.map((q) => {
    const s = q.summary!;
    return [q.title, q.sectionTitle, ...(s.kind === 'choices' ? s.choices.map((c) => c.label) : s.kind === 'grid' ? [...s.rows.map((r) => r.label), ...s.columns.map((c) => c.label)] : [])];
  });

// One questionnaire in two languages: one structure and one set of answers, read in either.
describe('a questionnaire in two languages', () => {
  let t: TestApp;
  let teacher: Caller;
  let pupils: number[];
  let id: number;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    pupils = (await classStudents(t.db, '4A')).slice(0, 6);
  });
  afterAll(async () => t?.close());

  it('is not design complete until every text has its English, each missing one named by its place', async () => {
    const q = await create(teacher, { title: '午膳意見調查', definition: chinese(), targets: [{ kind: 'USERS', ids: pupils }], openDate: inMinutes(-1), endDate: inMinutes(600) });
    id = q.id;
    expect(q).toMatchObject({ title: '午膳意見調查', titleTranslation: null, languages: ['zh-hk', 'en'] });
    const refused = await teacher('POST', `/v1/questionnaires/${id}/ready`);
    expect(refused.statusCode).toBe(422);
    const fields = refused.json().data as Record<string, string>;
    expect(Object.keys(fields).sort()).toEqual(
      [
        'titleTranslation',
        'definition.closingMessage',
        'definition.sections.0.title',
        'definition.sections.0.questions.0.title',
        'definition.sections.0.questions.0.options.0.label',
        'definition.sections.0.questions.0.options.1.label',
        'definition.sections.0.questions.0.otherLabel',
        'definition.sections.0.questions.1.title',
        'definition.sections.0.questions.1.scale.minLabel',
        'definition.sections.0.questions.1.scale.maxLabel',
        'definition.sections.0.questions.2.title',
        'definition.sections.0.questions.2.rows.0.label',
        'definition.sections.0.questions.2.rows.1.label',
        'definition.sections.0.questions.2.columns.0.label',
        'definition.sections.0.questions.2.columns.1.label',
        'definition.sections.0.questions.3.title',
        'definition.sections.0.questions.3.textRule.message',
      ].sort(),
    );
    expect(fields.titleTranslation).toBe('No English text yet');
    const zh = await as(t, 'teacher01', 'zh-hk');
    expect((await zh('POST', `/v1/questionnaires/${id}/ready`)).json().data['definition.sections.0.title']).toBe('未有英文文字');
    expect(data(await teacher('GET', `/v1/questionnaires/${id}`)).status).toBe('PREPARING');
  });

  it('takes the translations, drops those of what it does not have, and opens', async () => {
    const saved = data(await teacher('PUT', `/v1/questionnaires/${id}`, { titleTranslation: 'Lunch survey', definition: { ...chinese(), translations: { en: english } } }));
    expect(saved.titleTranslation).toBe('Lunch survey');
    expect(saved.definition!.translations!.en!.questions).not.toHaveProperty('gone');
    expect(saved.definition!.translations!.en!.questions!.taste).toEqual(english.questions.taste);
    expect(data(await teacher('POST', `/v1/questionnaires/${id}/ready`)).status).toBe('PROCESSING');
    // found by either title
    for (const q of ['lunch SURVEY', '午膳意見']) {
      const page = data<{ list: { id: number }[] }>(await teacher('GET', `/v1/questionnaires?q=${encodeURIComponent(q)}`));
      expect(page.list.map((r) => r.id)).toContain(id);
    }
  });

  it('refuses a translation into a language it is not written in, and a translation longer than the text may be', async () => {
    const other = await create(teacher, { title: '只有中文', definition: { ...chinese(), languages: ['zh-hk'] } });
    const wrong = await teacher('PUT', `/v1/questionnaires/${other.id}`, { definition: { ...chinese(), languages: ['zh-hk'], translations: { en: english } } });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().data).toHaveProperty('definition.translations.en');
    const long = await teacher('PUT', `/v1/questionnaires/${other.id}`, { definition: { ...chinese(), translations: { en: { questions: { taste: { title: 'x'.repeat(1001) } } } } } });
    expect(long.json().data).toHaveProperty('definition.translations.en.questions.taste');
    const badLanguages = await teacher('PUT', `/v1/questionnaires/${other.id}`, { definition: { ...chinese(), languages: ['en', 'en'] } });
    expect(badLanguages.json().data).toHaveProperty('definition.languages');
  });

  it('saves the largest definition in two languages, every text translated, without holding the server', async () => {
    // 300 questions of 100 options: what dropping orphan translations walks on every save
    const questions = Array.from({ length: 300 }, (_, i) => ({ id: `q${i}`, type: 'RADIO' as const, title: `題${i}`, required: false, options: Array.from({ length: 100 }, (_, j) => ({ id: `o${j}`, label: `選${j}` })) }));
    const translations = { en: { questions: Object.fromEntries(questions.map((q) => [q.id, { title: `Q${q.id}`, options: Object.fromEntries(q.options.map((o) => [o.id, `O${o.id}`])) }])) } };
    const big: Definition = { version: 1, languages: ['zh-hk', 'en'], sections: Array.from({ length: 50 }, (_, i) => ({ id: `s${i}`, questions: questions.slice(i * 6, i * 6 + 6) })), translations };
    const q = await create(teacher, { title: '大問卷' });
    const saved = data(await teacher('PUT', `/v1/questionnaires/${q.id}`, { definition: big }));
    expect(Object.keys(saved.definition!.translations!.en!.questions!)).toHaveLength(300);
    expect(saved.definition!.translations!.en!.questions!.q299.options!.o99).toBe('Oo99');
  });

  it('answers each pupil the one questionnaire with both languages; pupils answering in either give the same counts read in either', async () => {
    // half read it in English, half in Chinese: the same answers whatever the language
    const answersOf = (i: number) => ({
      taste: i % 3 === 2 ? { choice: '__other__', otherText: i % 2 ? 'Too salty' : '太鹹' } : { choice: i % 3 ? 'bad' : 'good' },
      mood: (i % 5) + 1,
      days: { mon: i % 2 ? 'ok' : 'no', tue: 'ok' },
    });
    for (const [i, pupil] of pupils.entries()) {
      const lang = i % 2 ? 'en' : 'zh-hk';
      const call = caller(t.app, await openSession(t.db, t.config, pupil), lang);
      const mine = data<{ list: { id: number; title: string; titleTranslation: string | null; languages: string[] }[] }>(await call('GET', '/v1/my/questionnaires'));
      expect(mine.list.find((q) => q.id === id)).toMatchObject({ title: '午膳意見調查', titleTranslation: 'Lunch survey', languages: ['zh-hk', 'en'] });
      const detail = data<MyQuestionnaireDetail>(await call('GET', `/v1/my/questionnaires/${id}`));
      expect(detail.definition.translations?.en?.questions?.taste?.title).toBe('How does the food taste?');
      data(await call('POST', `/v1/my/questionnaires/${id}/replies`, { submissionKey: newKey(), answers: answersOf(i) }));
    }

    const en = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}`));
    const zhTeacher = await as(t, 'teacher01', 'zh-hk');
    const zh = data<StatisticsDetail>(await zhTeacher('GET', `/v1/statistics/${id}`));
    expect(figures(en)).toEqual(figures(zh));
    expect(en.replyCount).toBe(pupils.length);
    expect(figures(en).find((f) => f.id === 'taste')!.counts).toEqual([
      ['good', 2, 33.3],
      ['bad', 2, 33.3],
      ['__other__', 2, 33.3],
    ]);
    expect(labels(en)[0]).toEqual(['How does the food taste?', 'Lunch', 'Good', 'Bad', 'Something else']);
    expect(labels(zh)[0]).toEqual(['飯菜味道如何？', '午膳', '好', '不好', '其他意見']);
    expect(labels(en)[2]).toEqual(['Each day', 'Lunch', 'Monday', 'Tuesday', 'Fine', 'Not fine']);
    // "export in" the other language: a Chinese reader asks for English
    const asked = data<StatisticsDetail>(await zhTeacher('GET', `/v1/statistics/${id}?language=en`));
    expect(labels(asked)).toEqual(labels(en));
    expect(asked.questionnaire).toMatchObject({ title: '午膳意見調查', titleTranslation: 'Lunch survey', languages: ['zh-hk', 'en'] });
  });

  it('exports the xlsx in the language asked for, with the same figures', async () => {
    const read = async (lang: 'en' | 'zh-hk') => {
      const zhTeacher = await as(t, 'teacher01', 'zh-hk');
      const res = await zhTeacher('GET', `/v1/statistics/${id}/export?language=${lang}`);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const cells: string[] = [];
      for (const sheet of workbook.worksheets) sheet.eachRow((row) => row.eachCell((c) => cells.push(String(c.value))));
      return { names: workbook.worksheets.map((s) => s.name), cells, disposition: String(res.headers['content-disposition']) };
    };
    const en = await read('en');
    const zh = await read('zh-hk');
    expect(en.names).toEqual(['Summary', 'Answers']);
    expect(en.cells).toEqual(expect.arrayContaining(['Lunch survey', '1. How does the food taste?', 'Something else', 'Monday']));
    expect(en.cells).not.toContain('飯菜味道如何？');
    expect(en.disposition).toContain(encodeURIComponent('Lunch survey'));
    expect(zh.cells).toEqual(expect.arrayContaining(['午膳意見調查', '1. 飯菜味道如何？', '其他意見', '星期一']));
    // the counts beside the labels are the same: every number of one is in the other, in the same order
    const numbers = (cells: string[]) => cells.filter((c) => /^\d+(\.\d+)?$/.test(c));
    expect(numbers(en.cells)).toEqual(numbers(zh.cells));
  });
});
