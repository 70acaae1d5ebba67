import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import { isPostgres } from '../../../src/server/db/connect.js';
import type { RepliesTable } from '../../../src/server/db/schema.js';
import { testApp, type TestApp } from '../harness.js';
import { caller } from '../master/helpers.js';
import { as, classId, classStudents, data, type Caller } from '../questionnaires/helpers.js';
import { goodAnswers, newKey, opened } from './helpers.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';

type Row = Record<string, unknown>;

// docs/security.md#anonymous-means-unlinkable: the stored answers of an anonymous questionnaire
// carry nothing that joins them back to a person — proved by reading the database itself.
describe('anonymous replies', () => {
  let t: TestApp;
  let teacher: Caller;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => t?.close());

  const pg = () => isPostgres(t.db);
  /** Every table of the database. */
  async function tables(): Promise<string[]> {
    const rows = pg()
      ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.db)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(t.db)).rows;
    return rows.map((r) => r.name);
  }
  /** A table's columns with their declared types, as the database describes them. */
  async function columns(table: string): Promise<{ name: string; type: string }[]> {
    if (pg()) {
      const { rows } = await sql<{ name: string; type: string }>`select column_name as name, data_type as type from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(t.db);
      return rows;
    }
    const { rows } = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${table})`.execute(t.db);
    return rows.map((r) => ({ name: r.name, type: r.type.toLowerCase() }));
  }
  /** The foreign keys of every table: from table.column to table.column. */
  async function foreignKeys(): Promise<{ from: string; column: string; to: string; toColumn: string }[]> {
    if (pg()) {
      const { rows } = await sql<{ from: string; column: string; to: string; toColumn: string }>`
        select kcu.table_name as "from", kcu.column_name as "column", ccu.table_name as "to", ccu.column_name as "toColumn"
        from information_schema.table_constraints tc
        join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.constraint_schema = tc.constraint_schema
        join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.constraint_schema = tc.constraint_schema
        where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(t.db);
      return rows;
    }
    const out: { from: string; column: string; to: string; toColumn: string }[] = [];
    for (const table of await tables()) {
      const { rows } = await sql<{ table: string; from: string; to: string | null }>`select "table", "from", "to" from pragma_foreign_key_list(${table})`.execute(t.db);
      for (const r of rows) out.push({ from: table, column: r.from, to: r.table, toColumn: r.to ?? 'id' });
    }
    return out;
  }
  /** Every row of a table, as stored. */
  const everything = async (table: string) => (await sql<Row>`select * from ${sql.table(table)}`.execute(t.db)).rows;

  async function submitAll(questionnaireId: number, students: number[]): Promise<string[]> {
    const times: string[] = [];
    for (const [i, student] of students.entries()) {
      const call = caller(t.app, await openSession(t.db, t.config, student));
      const answer = data<{ submittedAt: string }>(await call('POST', `/v1/my/questionnaires/${questionnaireId}/replies`, { submissionKey: newKey(), answers: { ...goodAnswers(), story: `reply ${i}` } }));
      times.push(answer.submittedAt);
    }
    return times;
  }

  it('stores the answers with no key, time or order that leads back to the respondent', async () => {
    const classmates = await classStudents(t.db, '3A');
    expect(classmates.length).toBeGreaterThan(10);
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '3A')] }], { type: 'ANONYMOUS' });
    // all but two submit, one after the other
    const submitters = classmates.slice(2);
    const times = await submitAll(q.id, submitters);

    // the replies table: its columns, nothing more
    // (role, grade and class are groups, kept for statistics, where a group smaller than the minimum is withheld)
    expect((await columns('replies')).map((c) => c.name).sort()).toEqual(['answers', 'class_id', 'counted', 'feedback_id', 'grade_id', 'id', 'mixed', 'questionnaire_id', 'released', 'respondent_role', 'submitted_on']);
    expect((await columns('reply_answers')).map((c) => c.name).sort()).toEqual(['class_id', 'col', 'grade_id', 'item', 'question_id', 'questionnaire_id', 'reply_id', 'respondent_role', 'value_number', 'value_text']);
    expect((await columns('replies')).find((c) => c.name === 'submitted_on')?.type).toBe('text');

    let submissionXids: string[] = [];
    if (pg()) {
      // before mixing, PostgreSQL's hidden transaction ids would pair each waiting reply with its feedback update
      const paired = await sql<{ xmin: string }>`select f.xmin::text as xmin from waiting_replies r join feedback f on f.xmin = r.xmin where r.questionnaire_id = ${q.id}`.execute(t.db);
      submissionXids = paired.rows.map((r) => r.xmin);
      expect(submissionXids).toHaveLength(submitters.length);
    }
    // the countable rows wait for the batch to be released
    expect(await t.db.selectFrom('reply_answers').select('reply_id').where('questionnaire_id', '=', q.id).execute()).toEqual([]);
    expect(await mixAnonymousReplies(t.db, t.config.anonymousMinGroup)).toEqual({ mixed: submitters.length, released: submitters.length, clean: true });
    if (pg()) {
      // after it, no hidden column pairs them: one transaction rewrote them all, in random physical order,
      // and no row carries a submission's transaction id any more
      for (const table of ['replies', 'waiting_replies', 'reply_answers', 'feedback'] as const) {
        const left = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where questionnaire_id = ${q.id} and xmin::text = any(${submissionXids}::text[])`.execute(t.db);
        expect(left.rows[0].n, table).toBe(0);
      }
      const writers = await sql<{ n: number }>`select count(distinct xmin::text)::int as n from replies where questionnaire_id = ${q.id}`.execute(t.db);
      expect(writers.rows[0].n).toBe(1);
      // and the respondents' records were rewritten by that same transaction: no order among them either
      const feedbackWriters = await sql<{ n: number }>`select count(distinct xmin::text)::int as n from feedback where questionnaire_id = ${q.id} and status = 'SUBMITTED'`.execute(t.db);
      expect(feedbackWriters.rows[0].n).toBe(1);
      const physical = await sql<{ answers: string }>`select answers from replies where questionnaire_id = ${q.id} order by ctid`.execute(t.db);
      expect(physical.rows.map((r) => Number(/\d+$/.exec(JSON.parse(r.answers).story)![0]))).not.toEqual(submitters.map((_, i) => i));
    }

    const replies = (await t.db.selectFrom('replies').selectAll().where('questionnaire_id', '=', q.id).execute()) as unknown as RepliesTable[];
    expect(replies).toHaveLength(submitters.length);
    const feedback = await t.db.selectFrom('feedback').selectAll().where('questionnaire_id', '=', q.id).execute();
    const users = await t.db.selectFrom('users').select(['id', 'username', 'user_no', 'email']).execute();
    const sessions = await t.db.selectFrom('sessions').select('id').execute();
    // whatever could name a person or their feedback record
    const personal = new Set<string>([
      ...users.flatMap((u) => [String(u.id), u.username, u.user_no, u.email].filter((v): v is string => Boolean(v))),
      // (the day of a submission is not personal: it is all an anonymous reply and its feedback keep of the time)
      ...feedback.flatMap((f) => [String(f.id), f.designated_code, f.submission_key].filter((v): v is string => Boolean(v))),
      ...sessions.map((s) => s.id),
    ]);
    const texts = [...personal].filter((v) => v.length >= 6);
    for (const reply of replies) {
      expect(reply.feedback_id).toBeNull();
      expect(reply.questionnaire_id).toBe(q.id);
      // counted (a named reply's rows still to write) is the same for every anonymous reply: it tells nothing
      expect(reply.counted).toBe(1);
      for (const [column, value] of Object.entries(reply)) {
        if (['questionnaire_id', 'mixed', 'released', 'counted', 'respondent_role', 'grade_id', 'class_id'].includes(column) || value === null) continue;
        expect(personal.has(String(value)), `replies.${column} = ${String(value)}`).toBe(false);
      }
      // nor anywhere inside the answers
      for (const text of texts) expect(reply.answers.includes(text), `the answers hold ${text}`).toBe(false);
      // the day only, never the time
      expect(reply.submitted_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(times.map((time) => time.slice(0, 10))).toContain(reply.submitted_on);
      // a random id (UUID v4), not a counter
      expect(reply.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }

    // no order gives the submitters away: sorted by id, the replies are not in the order they came in
    const story = (r: RepliesTable) => Number(/\d+$/.exec(JSON.parse(r.answers).story)![0]);
    const submitted = submitters.map((_, i) => i);
    expect([...replies].sort((a, b) => (a.id < b.id ? -1 : 1)).map(story)).not.toEqual(submitted);
    if (!pg()) {
      // SQLite keeps the table WITHOUT ROWID, in id order: no hidden row number counts the arrivals
      for (const table of ['replies', 'reply_answers', 'text_terms', 'term_counts', 'term_totals', 'text_answer_marks']) {
        const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = ${table}`.execute(t.db);
        expect(rows[0].sql.toLowerCase(), table).toContain('without rowid');
      }
      const natural = (await everything('replies')).filter((r) => r.questionnaire_id === q.id) as unknown as RepliesTable[];
      expect(natural.map(story)).not.toEqual(submitted);
    }

    // no table joins replies to feedback or respondents: only a reply's own countable answers, the words of its texts and staff's
    // marks of its texts refer to it (a mark names the member of staff who marked it, never who replied), and
    // replies refer only to their questionnaire and (for a named one) a feedback record, which is empty here
    const keys = await foreignKeys();
    expect(keys.filter((k) => k.to === 'replies').map((k) => `${k.from}.${k.column}`).sort()).toEqual(['reply_answers.reply_id', 'text_answer_marks.reply_id', 'text_terms.reply_id']);
    expect(keys.filter((k) => k.from === 'replies').map((k) => `${k.column}->${k.to}.${k.toColumn}`).sort()).toEqual(['feedback_id->feedback.id', 'questionnaire_id->questionnaires.id']);
    // and no reply id is written anywhere else in the database
    const ids = new Set(replies.map((r) => r.id));
    const answerRows = (await everything('reply_answers')).filter((r) => ids.has(String(r.reply_id)));
    expect(answerRows.length).toBeGreaterThan(submitters.length);
    // the answers as countable rows: what the respondent gave, nothing of who they are
    for (const row of answerRows) {
      expect(Object.keys(row).sort()).toEqual(['class_id', 'col', 'grade_id', 'item', 'question_id', 'questionnaire_id', 'reply_id', 'respondent_role', 'value_number', 'value_text']);
      for (const text of texts) expect(`${String(row.item)} ${String(row.col)} ${String(row.value_text)}`.includes(text), `reply_answers hold ${text}`).toBe(false);
    }
    // the words of its texts (statistics/terms.ts): the reply id, and a word of what it wrote, nothing else
    for (const row of (await everything('text_terms')).filter((r) => ids.has(String(r.reply_id)))) {
      expect(Object.keys(row).sort()).toEqual(['item', 'question_id', 'questionnaire_id', 'reply_id', 'term']);
    }
    for (const table of await tables()) {
      if (table === 'replies' || table === 'reply_answers' || table === 'text_terms') continue;
      for (const row of await everything(table)) {
        for (const [column, value] of Object.entries(row)) expect(ids.has(String(value)), `${table}.${column}`).toBe(false);
      }
    }

    // who has submitted is still known, apart, with the day only (a time would order them)
    const byUser = new Map(feedback.map((f) => [f.user_id, f]));
    for (const [i, student] of submitters.entries()) {
      expect(times[i]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(byUser.get(student)).toMatchObject({ status: 'SUBMITTED', submitted_at: times[i] });
    }
    for (const student of classmates.slice(0, 2)) expect(byUser.get(student)).toMatchObject({ status: 'NOT_SUBMITTED', submitted_at: null });
  });

  it('keeps the feedback id on each reply of a named questionnaire', async () => {
    const classmates = await classStudents(t.db, '3B');
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '3B')] }], { type: 'NAMED' });
    const submitters = classmates.slice(1);
    await submitAll(q.id, submitters);
    const feedback = await t.db.selectFrom('feedback').select(['id', 'user_id']).where('questionnaire_id', '=', q.id).execute();
    const replies = await t.db.selectFrom('replies').selectAll().where('questionnaire_id', '=', q.id).execute();
    expect(replies).toHaveLength(submitters.length);
    const feedbackOf = new Map(feedback.map((f) => [f.user_id, f.id]));
    for (const [i, student] of submitters.entries()) {
      const reply = replies.find((r) => JSON.parse(r.answers).story === `reply ${i}`);
      expect(reply?.feedback_id, `student ${student}`).toBe(feedbackOf.get(student));
    }
  });
});
