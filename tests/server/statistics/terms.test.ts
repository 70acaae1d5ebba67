import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TermList, TextPage } from '../../../src/shared/calls/statistics.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';
import { recountAnswers } from '../../../src/server/statistics/answerRows.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, expectError, userId, type Caller } from '../questionnaires/helpers.js';
import { opened } from '../filling/helpers.js';
import { random, submitAs, variedAnswers } from './helpers.js';

/**
 * Text answers read: the most frequent words and phrases of a question's answers, counted as the
 * replies are stored. Each sentence below uses its words once; the count of a word is then the
 * number of replies whose text holds it, counted here from the stored replies' JSON.
 */
const SENTENCES = [
  '學校嘅圖書館太細，希望可以擴建。',
  '小食部啲嘢食好貴呀',
  '功課太多，冇時間溫習',
  '老師好有耐性，多謝老師',
  'The library is too small, we need more books.',
  '希望多啲課外活動',
  '圖書館嘅書好舊',
  'Homework is too much',
];
/** word → the sentences that use it (as the statistics must count it) */
const USES: Record<string, number[]> = {
  圖書館: [0, 6],
  小食: [1],
  功課: [2],
  課外活動: [5],
  library: [4],
  homework: [7],
  老師: [3],
  'too small': [4],
  功課太多: [2],
};
/** never counted: particles, function words, one letter, numbers */
const NEVER = ['嘅', '啲', '呀', 'the', 'is', 'we', '好', 'too'];

/** A reply's story: one to three sentences, drawn from a seeded source. */
function storyOf(i: number): string {
  const next = random(1000 + i).next;
  const n = 1 + Math.floor(next() * 3);
  const picked = new Set<number>();
  while (picked.size < n) picked.add(Math.floor(next() * SENTENCES.length));
  return [...picked].map((k) => SENTENCES[k]).join('\n');
}
const sentencesOf = (story: string) => new Set(story.split('\n').map((s) => SENTENCES.indexOf(s)));

describe('the words and phrases of text answers', () => {
  let t: TestApp;
  let teacher: Caller;
  let id: number;
  let students3A: number[];
  /** what each submitter wrote, by user id */
  let stories: Map<number, string>;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    const teachers = [await userId(t.db, 'teacher05')];
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '3A'), await classId(t.db, '3B')] }, { kind: 'USERS', ids: teachers }], { title: 'Our school' });
    id = q.id;
    students3A = await classStudents(t.db, '3A');
    const students3B = await classStudents(t.db, '3B');
    const sent = await submitAs(t, id, [...students3A, ...students3B.slice(0, 6), teachers[0]], (i) => ({ ...variedAnswers(i), story: storyOf(i) }));
    stories = new Map([...sent.entries()].map(([user, answers]) => [user, answers.story as string]));
  });
  afterAll(async () => t?.close());

  const terms = async (query = '', size = 100) => data<TermList>(await teacher('GET', `/v1/statistics/${id}/terms?questionId=story&size=${size}${query}`));
  const expected = (users: number[] | null) => {
    const out: Record<string, number> = {};
    for (const [word, uses] of Object.entries(USES)) {
      out[word] = [...stories.entries()].filter(([user, story]) => (users === null || users.includes(user)) && uses.some((k) => sentencesOf(story).has(k))).length;
    }
    return out;
  };
  const counted = (list: TermList['list']) => Object.fromEntries(Object.keys(USES).map((word) => [word, list.find((x) => x.term === word)?.n ?? 0]));

  it('counts each word and phrase once per answer, as many as the stored answers use it; leaves particles and function words out', async () => {
    const result = await terms();
    expect(result.withheld).toBeNull();
    expect(counted(result.list)).toEqual(expected(null));
    for (const word of NEVER) expect(result.list.map((x) => x.term)).not.toContain(word);
    // most frequent first, then in code-point order
    const order = [...result.list].sort((a, b) => b.n - a.n || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    expect(result.list).toEqual(order);
    // at most `size`
    expect((await terms('', 3)).list).toEqual(result.list.slice(0, 3));
  });

  it('counts for a class as its replies say', async () => {
    const result = await terms(`&classId=${await classId(t.db, '3A')}`);
    expect(counted(result.list)).toEqual(expected(students3A));
  });

  it('filters the texts to the answers that use a term: as many as its count, each holding it', async () => {
    for (const word of ['圖書館', 'library', 'LIBRARY', 'too small']) {
      const page = data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=story&size=200&term=${encodeURIComponent(word)}`));
      expect(page.total, word).toBe(expected(null)[word.toLowerCase()]);
      for (const text of page.list) expect(text.text.toLowerCase()).toContain(word.toLowerCase());
    }
    const none = data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=story&term=${encodeURIComponent('從來冇人寫過')}`));
    expect(none).toMatchObject({ list: [], total: 0 });
  });

  it('makes the same terms again from the stored texts (as a restore does)', async () => {
    const before = await terms();
    const rows = async () => (await t.db.selectFrom('text_terms').select(['question_id', 'item', 'term', 'reply_id']).where('questionnaire_id', '=', id).execute()).map((r) => Object.values(r).join('|')).sort();
    const stored = await rows();
    await recountAnswers(t.db);
    expect(await terms()).toEqual(before);
    expect(await rows()).toEqual(stored);
  });

  it('refuses a question that is not there, a term too long, and another teacher’s questionnaire', async () => {
    expectError(await teacher('GET', `/v1/statistics/${id}/terms?questionId=nope`), 'RECORD_NOT_FOUND');
    const tooLong = await teacher('GET', `/v1/statistics/${id}/texts?questionId=story&term=${'字'.repeat(41)}`);
    expect(tooLong.statusCode).toBe(422);
    const other = await as(t, 'teacher09');
    expectError(await other('GET', `/v1/statistics/${id}/terms?questionId=story`), 'RECORD_NOT_FOUND');
  });
});

describe('the words of an anonymous questionnaire', () => {
  let t: TestApp;
  let teacher: Caller;
  let id: number;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4A')] }], { type: 'ANONYMOUS', title: 'Anonymous words' });
    id = q.id;
    const students = await classStudents(t.db, '4A');
    // fewer than the minimum group first: nothing is counted, nothing shown
    await submitAs(t, id, students.slice(0, 3), (i) => ({ ...variedAnswers(200 + i), story: '圖書館太細' }));
  });
  afterAll(async () => t?.close());

  it('shows no term before a batch is released, and counts the batch once it is', async () => {
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    const early = data<TermList>(await teacher('GET', `/v1/statistics/${id}/terms?questionId=story`));
    expect(early.list).toEqual([]);
    // (none released: nothing to withhold, nothing to show)
    const students = await classStudents(t.db, '4A');
    await submitAs(t, id, students.slice(3, 6), (i) => ({ ...variedAnswers(300 + i), story: '圖書館太細' }));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    // a second round rewrites the replies among the others: the terms stay counted once
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    const shown = data<TermList>(await teacher('GET', `/v1/statistics/${id}/terms?questionId=story`));
    expect(shown.withheld).toBeNull();
    expect(shown.list.find((x) => x.term === '圖書館')?.n).toBe(6);
    const texts = data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts?questionId=story&term=${encodeURIComponent('圖書館')}`));
    expect(texts.total).toBe(6);
  });
});
