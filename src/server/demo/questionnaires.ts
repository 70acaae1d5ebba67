import { randomUUID } from 'node:crypto';
import type { DB } from '../db/connect.js';
import { finishQuestionnaire, openQuestionnaire } from '../questionnaires/lifecycle.js';
import { schoolClock } from '../school/clock.js';
import { schoolDate } from '../../shared/school-clock.js';
import { mixAnonymousReplies } from '../filling/mixing.js';
import { answerRows, insertAnswerRows } from '../statistics/answerRows.js';
import { definitionErrors, type Definition } from '../../shared/questionnaire/definition.js';
import { replyProblems, type Answers } from '../../shared/questionnaire/answers.js';
import { sampleAnswers, SAMPLE_TEXTS } from '../../shared/questionnaire/sample-answers.js';
import type { Target } from '../../shared/questionnaire/types.js';
import { languagesOf, missingTranslations } from '../../shared/questionnaire/languages.js';
import { seedStarterTemplates } from '../templates/starters.js';

const choices = (...labels: string[]) => labels.map((label, i) => ({ id: `o${i + 1}`, label }));

/** A term survey of S1 students, finished, as a school would run it: in Chinese and English (docs/questionnaire-languages.md). */
const studentSurvey: Definition = {
  version: 1,
  languages: ['zh-hk', 'en'],
  closingMessage: '多謝你的寶貴意見！',
  translations: {
    en: {
      closingMessage: 'Thank you for your views!',
      sections: { s1: { title: 'School life' } },
      questions: {
        q1: { title: 'How satisfied are you with your learning this term?', options: { o1: 'Very satisfied', o2: 'Satisfied', o3: 'Neutral', o4: 'Not satisfied' } },
        q2: { title: 'Which subjects do you like best? (choose any)', options: { o1: 'Chinese', o2: 'English', o3: 'Mathematics', o4: 'Science', o5: 'Physical education', o6: 'Visual arts' }, otherLabel: 'Another subject' },
        q3: { title: 'How hard is your homework each evening?', minLabel: 'Very easy', maxLabel: 'Very hard' },
        q4: { title: 'How do you usually get to school?', options: { o1: 'On foot', o2: 'MTR', o3: 'Bus', o4: 'School bus', o5: 'Driven by parents' } },
        q5: { title: 'Rate these school facilities', rows: { o1: 'Library', o2: 'Tuck shop', o3: 'Playground' }, columns: { o1: 'Good', o2: 'Fair', o3: 'Needs improving' } },
        q6: { title: 'Describe your class in one word' },
        q7: { title: 'What would you suggest to the school?' },
      },
    },
  },
  sections: [
    {
      id: 's1',
      title: '學習生活',
      questions: [
        { id: 'q1', type: 'RADIO', title: '你對本學期的學習整體感到滿意嗎？', required: true, options: choices('非常滿意', '滿意', '一般', '不滿意') },
        { id: 'q2', type: 'CHECKBOX', title: '你最喜歡哪些科目？（可選多項）', required: true, options: choices('中文', '英文', '數學', '科學', '體育', '視覺藝術'), other: true, otherLabel: '其他科目' },
        { id: 'q3', type: 'LINEAR_SCALE', title: '你每晚做功課大約有多辛苦？', required: true, scale: { min: 1, max: 5, minLabel: '很輕鬆', maxLabel: '很辛苦' } },
        { id: 'q4', type: 'DROPDOWN', title: '你通常怎樣上學？', required: true, options: choices('步行', '港鐵', '巴士', '校車', '家長接送') },
        {
          id: 'q5',
          type: 'GRID_RADIO',
          title: '請評價以下校園設施',
          required: true,
          rows: choices('圖書館', '小食部', '操場'),
          columns: choices('好', '一般', '需改善'),
        },
        { id: 'q6', type: 'SHORT_TEXT', title: '用一個詞形容你的班別', required: false },
        { id: 'q7', type: 'PARAGRAPH', title: '你對學校有甚麼建議？', required: false },
      ],
    },
  ],
};

/** An anonymous staff survey, still open. */
const staffSurvey: Definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      title: '工作量',
      questions: [
        { id: 'q1', type: 'LINEAR_SCALE', title: '你如何評價現時的工作量？', required: true, scale: { min: 1, max: 5, minLabel: '很輕', maxLabel: '很重' } },
        { id: 'q2', type: 'GRID_CHECKBOX', title: '以下工作佔用你較多時間的日子', required: false, rows: choices('批改', '備課', '會議'), columns: choices('星期一', '星期三', '星期五') },
        { id: 'q3', type: 'TIME', title: '你通常幾點離開學校？', required: false },
        { id: 'q4', type: 'DATE', title: '你希望哪天舉行教師發展日？', required: false },
        { id: 'q5', type: 'PARAGRAPH', title: '其他意見', required: false },
      ],
    },
  ],
};

/** A respondent's reply: a small deterministic random source per respondent, Chinese texts. */
function answersFor(definition: Definition, seed: number): Answers {
  let s = seed * 2654435761 || 1;
  const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  return sampleAnswers(definition, next, { texts: SAMPLE_TEXTS['zh-hk'], optional: 0.5 });
}

async function survey(db: DB, [title, titleTranslation]: [string, string?], type: 'NAMED' | 'ANONYMOUS', definition: Definition, targets: Target[], share: number, finish: boolean): Promise<void> {
  if (definitionErrors(definition).length || missingTranslations(definition).length) throw new Error(`demo questionnaire ${title} is not valid`);
  const teacher = await db.selectFrom('users').select('id').where('username', '=', 'teacher01').executeTakeFirstOrThrow();
  const year = await db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow();
  const now = Date.now();
  const iso = (days: number) => new Date(now + days * 86_400_000).toISOString();
  const { id } = await db
    .insertInto('questionnaires')
    .values({
      title,
      school_year_id: year.id,
      in_charge_id: teacher.id,
      type,
      status: 'NOT_OPEN',
      open_date: iso(finish ? -30 : -3),
      end_date: iso(finish ? -2 : 14),
      create_date: iso(finish ? -35 : -5),
      last_notice_time: null,
      targets: JSON.stringify(targets),
      definition: JSON.stringify(definition),
      languages: languagesOf(definition).join(','),
      title_translation: titleTranslation ?? null,
      updated_at: iso(0),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await openQuestionnaire(db, id);
  const feedback = await db.selectFrom('feedback').select(['id', 'respondent_role', 'grade_id', 'class_id']).where('questionnaire_id', '=', id).orderBy('id').execute();
  const zone = await schoolClock(db).zone();
  const schoolDay = (at: Date) => schoolDate(at, zone);
  await db.transaction().execute(async (trx) => {
    for (const [i, f] of feedback.entries()) {
      if ((i * 7919) % 100 >= share * 100) continue;
      const answers = answersFor(definition, id * 1000 + i);
      if (Object.keys(replyProblems(definition, answers)).length) continue;
      const submittedAt = iso((finish ? -20 : -2) + (i % 10) / 10);
      // as a submission keeps it: an anonymous one the day only (filling/mixing.ts)
      const kept = type === 'ANONYMOUS' ? schoolDay(new Date(submittedAt)) : submittedAt;
      await trx.updateTable('feedback').set({ status: 'SUBMITTED', submitted_at: kept, submission_key: `demo-${randomUUID()}` }).where('id', '=', f.id).execute();
      const reply = { id: randomUUID(), questionnaire_id: id, respondent_role: f.respondent_role, grade_id: f.grade_id ?? null, class_id: f.class_id ?? null };
      await trx
        .insertInto('replies')
        .values({ ...reply, feedback_id: type === 'ANONYMOUS' ? null : f.id, submitted_on: schoolDay(new Date(submittedAt)), answers: JSON.stringify(answers), released: 1 })
        .execute();
      await insertAnswerRows(trx, answerRows(definition, reply, answers));
    }
  });
  if (finish) await finishQuestionnaire(db, id);
}

/**
 * The demo's templates: QE's starter set (installed at every start, here too for a database the
 * demo fills without starting QE), and one of the school's own, saved from the S1 survey for S1 of
 * any year, so "new from template" next year compares with it (docs/product-rules.md#templates).
 */
async function schoolTemplate(db: DB, title: string): Promise<void> {
  await seedStarterTemplates(db);
  const q = await db.selectFrom('questionnaires').select(['id', 'definition', 'languages', 'in_charge_id']).where('title', '=', title).executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  const { id } = await db
    .insertInto('questionnaire_templates')
    .values({
      name_hk: '中一學生意見調查',
      name_en: 'S1 student survey',
      description_hk: '每年上學期問中一學生的學習生活',
      description_en: 'S1 students on their school life, every first term',
      definition: q.definition,
      languages: q.languages,
      type: 'NAMED',
      audience_kind: 'STUDENTS_OF_GRADE',
      grade_code: 'S1',
      retired: 0,
      starter_key: null,
      created_by: q.in_charge_id,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('questionnaires').set({ template_id: id }).where('id', '=', q.id).execute();
}

/** Two questionnaires with replies, so the demo's statistics have something to show. */
export async function seedDemoQuestionnaires(db: DB, minGroup = 5): Promise<void> {
  const s1 = await db.selectFrom('grades').select('id').where('code', '=', 'S1').executeTakeFirst();
  if (s1) {
    await survey(db, ['中一級上學期學生意見調查', 'S1 first-term student survey'], 'NAMED', studentSurvey, [{ kind: 'GRADE', ids: [s1.id] }], 0.85, true);
    await schoolTemplate(db, '中一級上學期學生意見調查');
  }
  await survey(db, ['教師工作量匿名問卷'], 'ANONYMOUS', staffSurvey, [{ kind: 'ALL_TEACHERS' }], 0.75, false);
  // the demo's anonymous replies are in results already; mixed as any others are
  await mixAnonymousReplies(db, minGroup);
}
