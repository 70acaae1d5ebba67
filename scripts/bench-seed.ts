/**
 * The seeding of the statistics bench, shared with the backup bench: respondent accounts, and
 * FINISHED questionnaires of 40 questions with random valid replies (seeded, so every run seeds
 * the same answers), written straight into the database in transactions of a few thousand
 * replies, with their reply_answers rows as the submission writes them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DB } from '../src/server/db/connect.js';
import type { NewUser } from '../src/server/db/schema.js';
import { DEMO_PASSWORD } from '../src/server/demo/seed.js';
import { demoName } from '../src/server/demo/names.js';
import { hashPassword } from '../src/server/auth/passwords.js';
import { answerRows, insertAnswerRows, type ReplyAnswerRow } from '../src/server/statistics/answerRows.js';
import type { Definition, Question, QuestionType } from '../src/shared/questionnaire/definition.js';
import { replyProblems, type Answers } from '../src/shared/questionnaire/answers.js';
import { logger } from './bench-support.js';
import { seededRandom } from '../tests/support/random.js';
import { sampleAnswers } from '../src/shared/questionnaire/sample-answers.js';

/** Respondents who were asked but did not submit, as a share of those who did. */
export const NOT_SUBMITTED_SHARE = 0.05;
/** Replies a transaction of the seed holds. */
const BATCH = 2000;

const log = logger('bench-seed');


/** The mix of a school survey: mostly choices, scales and grids; a few texts, one date, one time. */
const MIX: [QuestionType, number][] = [
  ['GRID_RADIO', 6],
  ['GRID_CHECKBOX', 3],
  ['RADIO', 8],
  ['CHECKBOX', 5],
  ['DROPDOWN', 4],
  ['LINEAR_SCALE', 8],
  ['SHORT_TEXT', 2],
  ['PARAGRAPH', 2],
  ['DATE', 1],
  ['TIME', 1],
];

/** 40 questions over the ten types, interleaved, in four sections; the texts optional. */
export function surveyDefinition(): Definition {
  const choices = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, label: `${prefix.toUpperCase()} ${i + 1}` }));
  const left = MIX.map(([type, n]) => [type, n] as [QuestionType, number]);
  const types: QuestionType[] = [];
  while (left.some(([, n]) => n > 0)) for (const entry of left) if (entry[1]-- > 0) types.push(entry[0]);
  const seen: Partial<Record<QuestionType, number>> = {};
  const questions = types.map((type, i): Question => {
    const k = (seen[type] = (seen[type] ?? 0) + 1);
    const q: Question = { id: `q${i + 1}`, type, title: `Question ${i + 1} (${type})`, required: true };
    if (type === 'RADIO') Object.assign(q, { options: choices('o', 4 + (k % 2)), other: k % 3 === 0 });
    if (type === 'DROPDOWN') q.options = choices('o', 8 + 2 * (k % 3));
    if (type === 'CHECKBOX') Object.assign(q, { options: choices('o', 6), other: k % 2 === 1, choiceRule: { kind: 'atMost', count: 3 } });
    if (type === 'GRID_RADIO') Object.assign(q, { rows: choices('r', 5), columns: choices('c', 5) });
    if (type === 'GRID_CHECKBOX') Object.assign(q, { rows: choices('r', 4), columns: choices('c', 5), choiceRule: { kind: 'atMost', count: 3 } });
    if (type === 'LINEAR_SCALE') q.scale = k % 4 === 0 ? { min: 0, max: 10, minLabel: 'Not at all', maxLabel: 'Completely' } : { min: 1, max: 5, minLabel: 'Disagree', maxLabel: 'Agree' };
    if (type === 'SHORT_TEXT') Object.assign(q, { required: false, textRule: { kind: 'length', min: 2, max: 50 } });
    if (type === 'PARAGRAPH') q.required = false;
    if (type === 'DATE' || type === 'TIME') q.required = k % 2 === 0;
    return q;
  });
  return { version: 1, sections: [0, 1, 2, 3].map((s) => ({ id: `s${s + 1}`, title: `Part ${s + 1}`, questions: questions.slice(s * 10, s * 10 + 10) })) };
}

/** A random reply that passes every rule of `surveyDefinition`: few optional questions answered, "other" now and then. */
const randomAnswers = (definition: Definition, next: () => number): Answers => sampleAnswers(definition, next, { optional: 0.4, other: 0.05 });

export interface Place {
  classId: number;
  gradeId: number;
}

/** Fragments a pupil's suggestion is made of: a few hundred words and phrases in all, Chinese, Cantonese and English. */
const FRAGMENTS = [
  '希望圖書館開放時間更長', '小食部可以多些健康選擇', '多啲課外活動', '希望有更多戶外學習', '操場的設施需要維修', '功課太多', '冇時間溫習',
  '老師好有耐性', '課室冷氣太凍', '洗手間唔夠乾淨', '午飯時間太短', '希望增設自修室', '電腦室部機好慢', '校車經常遲到', '學校旅行好開心',
  '運動會可以改喺十一月', '同學之間好友善', '測驗太密', '希望多啲分組討論', '英文堂好有趣', '數學堂進度太快', '中文科閱讀報告太多',
  '音樂室樂器不足', '校服質料太熱', '家長日時間唔方便', '禮堂音響唔清楚', '籃球場燈光不足', '希望設立學生會信箱', 'more sports clubs please',
  'the library needs more English books', 'homework is too much', 'lunch break is too short', 'the canteen food is expensive', 'teachers are helpful',
];
/** One required paragraph and one short text, every reply answering both: the texts' words and phrases at full size. */
export function textsDefinition(): Definition {
  return {
    version: 1,
    sections: [{ id: 's1', title: 'Suggestions', questions: [{ id: 'idea', type: 'PARAGRAPH', title: 'What would make school better?', required: true }, { id: 'word', type: 'SHORT_TEXT', title: 'One word for your class', required: true }] }],
  };
}
/** A reply of textsDefinition: one to four fragments, and one word. */
export function textsAnswers(_definition: Definition, next: () => number): Answers {
  const n = 1 + Math.floor(next() * 4);
  const idea = Array.from({ length: n }, () => FRAGMENTS[Math.floor(next() * FRAGMENTS.length)]).join('，');
  return { idea, word: ['團結', '開心', '努力', '熱鬧', '友善', '有趣', 'friendly', 'noisy'][Math.floor(next() * 8)] };
}

/** Respondent accounts enough for the largest questionnaire: one in twelve a teacher, the rest students. */
export async function seedRespondents(db: DB, count: number): Promise<{ id: number; teacher: boolean }[]> {
  const hash = await hashPassword(DEMO_PASSWORD);
  const now = new Date().toISOString();
  const out: { id: number; teacher: boolean }[] = [];
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 500) {
      const users: NewUser[] = [];
      for (let i = start; i < Math.min(start + 500, count); i++) {
        const n = demoName(20_000 + i);
        const teacher = i % 12 === 11;
        const no = String(i + 1).padStart(6, '0');
        users.push({
          username: `stat${no}`,
          password_hash: hash,
          user_type: teacher ? 'TEACHER' : 'STUDENT',
          user_no: `${teacher ? 'T' : 'S'}7${no}`,
          name_hk: n.nameHk,
          name_en: n.nameEn,
          gender: i % 2 ? 'M' : 'F',
          active: 1,
          status: '1',
          seq: 100_000 + i,
          created_at: now,
          updated_at: now,
        });
      }
      const ids = await trx.insertInto('users').values(users).returning(['id', 'user_type']).execute();
      out.push(...ids.map((u) => ({ id: u.id, teacher: u.user_type === 'TEACHER' })));
    }
  });
  return out;
}

/** One FINISHED questionnaire with `size` replies (and 5 % more respondents who did not submit). */
export async function seedQuestionnaire(
  db: DB,
  size: number,
  definition: Definition,
  respondents: { id: number; teacher: boolean }[],
  places: Place[],
  inChargeId: number,
  yearId: number,
  /** each reply's answers; a random valid reply of the definition by default */
  answersOf: (definition: Definition, next: () => number) => Answers = randomAnswers,
): Promise<{ id: number; rows: number; ms: number }> {
  const t0 = performance.now();
  const now = new Date();
  const day = (d: number) => new Date(now.getTime() + d * 86_400_000).toISOString();
  const { id } = await db
    .insertInto('questionnaires')
    .values({
      title: `Bench: school survey, ${size.toLocaleString('en')} replies`,
      school_year_id: yearId,
      in_charge_id: inChargeId,
      type: 'NAMED',
      status: 'FINISHED',
      open_date: day(-30),
      end_date: day(-2),
      create_date: day(-40),
      last_notice_time: null,
      targets: JSON.stringify([{ kind: 'ALL_STUDENTS' }, { kind: 'ALL_TEACHERS' }]),
      definition: JSON.stringify(definition),
      updated_at: day(-2),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const total = size + Math.round(size * NOT_SUBMITTED_SHARE);
  if (respondents.length < total) throw new Error(`${respondents.length} respondent accounts for ${total} respondents`);
  const r = seededRandom(size);
  let rows = 0;
  let checked = 0;
  for (let start = 0; start < total; start += BATCH) {
    await db.transaction().execute(async (trx) => {
      const batch = respondents.slice(start, Math.min(start + BATCH, total)).map((u, k) => {
        const i = start + k;
        const place = u.teacher ? null : places[i % places.length];
        const submitted = i < size;
        const at = day(-30 + ((i * 28) / total));
        return { u, place, submitted, at };
      });
      const feedbackIds: number[] = [];
      for (let i = 0; i < batch.length; i += 500) {
        const values = batch.slice(i, i + 500).map(({ u, place, submitted, at }) => ({
          questionnaire_id: id,
          user_id: u.id,
          respondent_role: u.teacher ? 'TEACHER' : 'STUDENT',
          designated_code: randomBytes(6).toString('base64url').toUpperCase(),
          status: submitted ? 'SUBMITTED' : 'NOT_SUBMITTED',
          submitted_at: submitted ? at : null,
          notified_at: null,
          submission_key: submitted ? randomUUID() : null,
          grade_id: place?.gradeId ?? null,
          class_id: place?.classId ?? null,
        }));
        feedbackIds.push(...(await trx.insertInto('feedback').values(values).returning('id').execute()).map((f) => f.id));
      }
      const replies = [];
      const answerRowsOfBatch: ReplyAnswerRow[] = [];
      for (const [k, { u, place, submitted, at }] of batch.entries()) {
        if (!submitted) continue;
        const answers = answersOf(definition, r.next);
        if (checked < 200) {
          const problems = replyProblems(definition, answers);
          if (Object.keys(problems).length) throw new Error(`a seeded reply is not valid: ${JSON.stringify(problems)} in ${JSON.stringify(answers)}`);
          checked++;
        }
        const reply = { id: randomUUID(), questionnaire_id: id, respondent_role: u.teacher ? 'TEACHER' : 'STUDENT', grade_id: place?.gradeId ?? null, class_id: place?.classId ?? null };
        replies.push({ ...reply, feedback_id: feedbackIds[k], submitted_on: at.slice(0, 10), answers: JSON.stringify(answers) });
        answerRowsOfBatch.push(...answerRows(definition, reply, answers));
      }
      for (let i = 0; i < replies.length; i += 500) await trx.insertInto('replies').values(replies.slice(i, i + 500)).execute();
      await insertAnswerRows(trx, answerRowsOfBatch);
      rows += answerRowsOfBatch.length;
    });
  }
  const ms = Math.round(performance.now() - t0);
  log(`questionnaire ${id}: ${size} replies (${total} respondents), ${rows} answer rows seeded in ${ms} ms`);
  return { id, rows, ms };
}

