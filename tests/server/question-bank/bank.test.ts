import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankPage, BankQuestion, BankTags } from '../../../src/shared/calls/question-bank.js';
import type { QuestionnaireDetail, YearCopy } from '../../../src/shared/calls/questionnaires.js';
import type { TemplateDetail, TemplateUse } from '../../../src/shared/calls/templates.js';
import { definitionErrors, type Definition, type Question } from '../../../src/shared/questionnaire/definition.js';
import { insertionOf } from '../../../src/shared/questionnaire/bank.js';
import { testApp, type TestApp } from '../harness.js';
import { as, create, data, expectError, type Caller } from '../questionnaires/helpers.js';

/** A questionnaire in Chinese and English: a choice question that branches, and a scale. */
const bilingual = (): Definition => ({
  version: 1,
  languages: ['zh-hk', 'en'],
  sections: [
    {
      id: 's1',
      questions: [
        {
          id: 'fav',
          type: 'RADIO',
          title: '你最喜歡的科目是甚麼？',
          required: true,
          options: [
            { id: 'math', label: '數學', goTo: 's2' },
            { id: 'sci', label: '科學' },
          ],
          other: true,
          otherLabel: '其他科目',
        },
      ],
    },
    { id: 's2', questions: [{ id: 'like', type: 'LINEAR_SCALE', title: '你喜歡學校嗎？', required: false, scale: { min: 1, max: 5, minLabel: '不喜歡', maxLabel: '很喜歡' } }] },
  ],
  translations: {
    en: {
      questions: {
        fav: { title: 'What is your favourite subject?', options: { math: 'Mathematics', sci: 'Science' }, otherLabel: 'Something else' },
        like: { title: 'Do you like school?', minLabel: 'Not at all', maxLabel: 'Very much' },
      },
    },
  },
});

/**
 * The question bank (docs/product-rules.md#question-bank): a question saved from a questionnaire
 * as the questionnaire is stored, with both languages and tags; the search over both languages'
 * texts and the tags; what is refused; retiring; and the origin an inserted question keeps
 * through a copy, a copy for this year and a template.
 */
describe('question bank', () => {
  let t: TestApp;
  let teacher: Caller;
  let admin: Caller;
  let student: Caller;
  let source: QuestionnaireDetail;
  let fav: BankQuestion;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    admin = await as(t, 'admin');
    student = await as(t, 'student001');
    source = (await create(teacher, { title: 'Subjects', definition: bilingual() })) as unknown as QuestionnaireDetail;
  });
  afterAll(async () => t?.close());

  const search = async (query: string, call: Caller = teacher) => data<BankPage>(await call('GET', `/v1/question-bank${query}`));

  it('saves a question as the questionnaire stores it, with both languages and its tags, and without go-to targets', async () => {
    fav = data<BankQuestion>(await teacher('POST', '/v1/question-bank', { questionnaireId: source.id, questionId: 'fav', tags: [' Subjects ', '科目', 'subjects', 'Junior  forms'] }), 201);
    expect(fav).toMatchObject({ type: 'RADIO', titleHk: '你最喜歡的科目是甚麼？', titleEn: 'What is your favourite subject?', languages: ['zh-hk', 'en'], tags: ['Subjects', '科目', 'Junior forms'], retired: false });
    const d = fav.definition as Definition;
    expect(definitionErrors(d)).toEqual([]);
    expect(d.sections).toHaveLength(1);
    const q = d.sections[0].questions[0];
    expect(q).toMatchObject({ id: 'fav', other: true, options: [{ id: 'math', label: '數學' }, { id: 'sci', label: '科學' }] });
    expect(q.options![0].goTo).toBeUndefined();
    expect(d.translations?.en?.questions?.fav).toEqual({ title: 'What is your favourite subject?', options: { math: 'Mathematics', sci: 'Science' }, otherLabel: 'Something else' });
    // the other question's texts stay behind
    expect(JSON.stringify(d)).not.toContain('Do you like school');
    expect(data<BankQuestion>(await teacher('GET', `/v1/question-bank/${fav.id}`))).toEqual(fav);
  });

  it('searches every text in Chinese and in English and the tags, whatever the case, and filters by tag', async () => {
    const scale = data<BankQuestion>(await teacher('POST', '/v1/question-bank', { questionnaireId: source.id, questionId: 'like', tags: ['Wellbeing'] }), 201);
    expect(scale.titleEn).toBe('Do you like school?');
    const ids = async (query: string) => (await search(query)).list.map((x) => x.id);
    expect(await ids(`?q=${encodeURIComponent('科目')}`)).toEqual([fav.id]);
    expect(await ids(`?q=${encodeURIComponent('數學')}`)).toEqual([fav.id]);
    expect(await ids('?q=MATHEMATICS')).toEqual([fav.id]);
    expect(await ids('?q=very%20much')).toEqual([scale.id]);
    expect(await ids(`?q=${encodeURIComponent('很喜歡')}`)).toEqual([scale.id]);
    expect(await ids('?q=wellbeing')).toEqual([scale.id]);
    expect(await ids('?tag=subjects')).toEqual([fav.id]);
    expect(await ids(`?tag=${encodeURIComponent('科目')}`)).toEqual([fav.id]);
    // a tag is a whole tag, not a part of one
    expect(await ids('?tag=subject')).toEqual([]);
    expect(await ids('?q=%25')).toEqual([]);
    expect(await ids('?type=LINEAR_SCALE')).toEqual([scale.id]);
    const page = await search('?size=1&page=2');
    expect(page.total).toBe(2);
    expect(page.list.map((x) => x.id)).toEqual([fav.id]);
    const tags = data<BankTags>(await teacher('GET', '/v1/question-bank/tags'));
    expect(tags.map((x) => x.tag).sort()).toEqual(['Junior forms', 'Subjects', 'Wellbeing', '科目'].sort());
  });

  it('reads the question from the stored questionnaire: a question only the caller claims is 742, in both languages', async () => {
    expectError(await teacher('POST', '/v1/question-bank', { questionnaireId: source.id, questionId: 'not-there', tags: [] }), 'BANK_QUESTION_MISSING');
    const zh = await as(t, 'teacher01', 'zh-hk');
    expectError(await zh('POST', '/v1/question-bank', { questionnaireId: source.id, questionId: 'not-there' }), 'BANK_QUESTION_MISSING', 'zh-hk');
    // a definition sent along is not a field of the call
    const forged = await teacher('POST', '/v1/question-bank', { questionnaireId: source.id, questionId: 'fav', definition: bilingual() });
    expect(forged.statusCode).toBe(422);
  });

  it('refuses a questionnaire the caller may not read as one that does not exist', async () => {
    const others = await create(admin, { title: 'The office’s own', definition: bilingual() });
    expectError(await teacher('POST', '/v1/question-bank', { questionnaireId: others.id, questionId: 'fav' }), 'RECORD_NOT_FOUND');
    expectError(await teacher('POST', '/v1/question-bank', { questionnaireId: 2_000_000_000, questionId: 'fav' }), 'RECORD_NOT_FOUND');
    expect(await t.db.selectFrom('question_bank').select('id').where('source_questionnaire_id', '=', others.id).execute()).toEqual([]);
  });

  it('refuses hostile input before it reads anything: huge tags, too many tags, bad ids', async () => {
    const refused = async (body: unknown) => {
      const res = await teacher('POST', '/v1/question-bank', body);
      expect(res.statusCode, res.body).toBe(422);
    };
    await refused({ questionnaireId: source.id, questionId: 'fav', tags: ['x'.repeat(41)] });
    await refused({ questionnaireId: source.id, questionId: 'fav', tags: ['x'.repeat(100_000)] });
    await refused({ questionnaireId: source.id, questionId: 'fav', tags: Array.from({ length: 200 }, (_, i) => `tag${i}`) });
    await refused({ questionnaireId: source.id, questionId: 'fav', tags: ['a|b'] });
    await refused({ questionnaireId: source.id, questionId: 'fav', tags: ['  '] });
    await refused({ questionnaireId: source.id, questionId: 'fav', tags: ['line\nbreak'] });
    await refused({ questionnaireId: -1, questionId: 'fav' });
    await refused({ questionnaireId: 'abc', questionId: 'fav' });
    await refused({ questionnaireId: 99_999_999_999, questionId: 'fav' });
    await refused({ questionnaireId: source.id, questionId: 'x'.repeat(101) });
    await refused({ questionnaireId: source.id, questionId: '' });
    for (const bad of ['abc', '0', '-3', '1.5', '99999999999']) {
      const res = await teacher('GET', `/v1/question-bank/${bad}`);
      expect(res.statusCode, bad).toBe(422);
    }
    expectError(await teacher('GET', '/v1/question-bank/2000000000'), 'RECORD_NOT_FOUND');
    expect((await teacher('GET', `/v1/question-bank?tag=${'x'.repeat(41)}`)).statusCode).toBe(422);
    expect((await teacher('GET', `/v1/question-bank?q=${'x'.repeat(101)}`)).statusCode).toBe(422);
    expect((await teacher('GET', '/v1/question-bank?size=51')).statusCode).toBe(422);
    expect((await search('')).total).toBe(2);
  });

  it('lets a teacher search and save, but only an administrator reword, retire and restore; a student none', async () => {
    expect((await student('GET', '/v1/question-bank')).json().code).toBe(405);
    expect((await student('POST', '/v1/question-bank', { questionnaireId: source.id, questionId: 'fav' })).json().code).toBe(405);
    expect((await teacher('PUT', `/v1/question-bank/${fav.id}`, { tags: ['x'] })).json().code).toBe(405);
    expect((await teacher('POST', `/v1/question-bank/${fav.id}/retire`)).json().code).toBe(405);
  });

  it('changes the tags and the wording, but nothing more (744)', async () => {
    const d = structuredClone(fav.definition) as Definition;
    d.sections[0].questions[0].title = '你最喜愛哪一科？';
    d.translations!.en!.questions!.fav.title = 'Which subject do you like best?';
    const changed = data<BankQuestion>(await admin('PUT', `/v1/question-bank/${fav.id}`, { definition: d, tags: ['Subjects'] }));
    expect(changed).toMatchObject({ titleHk: '你最喜愛哪一科？', titleEn: 'Which subject do you like best?', tags: ['Subjects'] });
    expect((await search('?q=like%20best')).list.map((x) => x.id)).toEqual([fav.id]);
    expect((await search(`?tag=${encodeURIComponent('科目')}`)).total).toBe(0);

    const moreOptions = structuredClone(d);
    moreOptions.sections[0].questions[0].options!.push({ id: 'art', label: '視藝' });
    expectError(await admin('PUT', `/v1/question-bank/${fav.id}`, { definition: moreOptions }), 'BANK_WORDING_ONLY');
    const otherType = structuredClone(d);
    otherType.sections[0].questions[0].type = 'DROPDOWN';
    delete otherType.sections[0].questions[0].other;
    expectError(await admin('PUT', `/v1/question-bank/${fav.id}`, { definition: otherType }), 'BANK_WORDING_ONLY');
    const branching = structuredClone(d);
    branching.sections[0].questions[0].options![0].goTo = 'END';
    expectError(await admin('PUT', `/v1/question-bank/${fav.id}`, { definition: branching }), 'BANK_WORDING_ONLY');
    const twoQuestions = structuredClone(d);
    twoQuestions.sections[0].questions.push({ id: 'x', type: 'PARAGRAPH', title: 'More', required: false });
    expect((await admin('PUT', `/v1/question-bank/${fav.id}`, { definition: twoQuestions })).statusCode).toBe(422);
    const untitled = structuredClone(d);
    untitled.sections[0].questions[0].title = '';
    expect((await admin('PUT', `/v1/question-bank/${fav.id}`, { definition: untitled })).statusCode).toBe(422);
    fav = data<BankQuestion>(await admin('GET', `/v1/question-bank/${fav.id}`));
    expect(fav.titleHk).toBe('你最喜愛哪一科？');
  });

  it('hides a retired question from the search and refuses to change it until restored', async () => {
    data(await admin('POST', `/v1/question-bank/${fav.id}/retire`));
    expect((await search('?q=like%20best')).total).toBe(0);
    expect((await search('?retired=true')).list.map((x) => x.id)).toEqual([fav.id]);
    expect(data<BankTags>(await teacher('GET', '/v1/question-bank/tags')).map((x) => x.tag)).not.toContain('Subjects');
    expectError(await admin('PUT', `/v1/question-bank/${fav.id}`, { tags: ['again'] }), 'BANK_QUESTION_RETIRED');
    data(await admin('POST', `/v1/question-bank/${fav.id}/restore`));
    expect((await search('?q=like%20best')).list.map((x) => x.id)).toEqual([fav.id]);
  });

  it('keeps an inserted question’s origin through a save, a copy, a copy for this year and a template', async () => {
    const inserted = insertionOf(fav.definition as Definition, fav.id, ['en', 'zh-hk'], 'from-bank');
    expect(inserted.question).toMatchObject({ id: 'from-bank', bankId: fav.id, title: 'Which subject do you like best?', options: [{ id: 'math', label: 'Mathematics' }, { id: 'sci', label: 'Science' }] });
    expect(inserted.translations['zh-hk']).toMatchObject({ title: '你最喜愛哪一科？', options: { math: '數學', sci: '科學' } });
    const definition: Definition = { version: 1, languages: ['en', 'zh-hk'], sections: [{ id: 'a', questions: [inserted.question] }], translations: { 'zh-hk': { questions: { 'from-bank': inserted.translations['zh-hk']! } } } };
    const q = (await create(teacher, { title: 'With a bank question', definition })) as unknown as QuestionnaireDetail;
    const origin = (d: Definition) => d.sections.flatMap((s) => s.questions).find((x: Question) => x.id === 'from-bank')?.bankId;
    expect(origin(data<QuestionnaireDetail>(await teacher('GET', `/v1/questionnaires/${q.id}`)).definition as Definition)).toBe(fav.id);
    const copy = data<QuestionnaireDetail>(await teacher('POST', `/v1/questionnaires/${q.id}/copy`), 201);
    expect(origin(copy.definition as Definition)).toBe(fav.id);
    const yearCopy = data<YearCopy>(await teacher('POST', `/v1/questionnaires/${q.id}/copy-for-year`, { audience: 'PEOPLE', type: 'NAMED' }), 201);
    expect(origin(yearCopy.questionnaire.definition as Definition)).toBe(fav.id);
    const template = data<TemplateDetail>(await teacher('POST', `/v1/questionnaires/${q.id}/save-as-template`, { nameHk: '題庫範本', nameEn: 'Bank template' }), 201);
    expect(origin(template.definition as Definition)).toBe(fav.id);
    const used = data<TemplateUse>(await teacher('POST', `/v1/questionnaire-templates/${template.id}/use`, {}), 201);
    expect(origin(used.questionnaire.definition as Definition)).toBe(fav.id);
    // an origin that is not an id is refused as any other fault of a definition
    const bad = structuredClone(definition);
    (bad.sections[0].questions[0] as { bankId: unknown }).bankId = 'x';
    const res = await teacher('PUT', `/v1/questionnaires/${q.id}`, { definition: bad });
    expect(res.statusCode).toBe(422);
    expect(res.json().data).toHaveProperty(['definition.sections.0.questions.0.bankId']);
  });
});
