import { randomInt } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import type { DB } from '../db/connect.js';
import type { RepliesTable, TextAnswerMarksTable, WaitingRepliesTable } from '../db/schema.js';
import { isPostgres } from '../db/connect.js';
import { scrubRewrittenRows } from '../db/scrub.js';
import { answerRows, countAnswerRows, storeAnswerRows, type ReplyAnswerRow } from '../statistics/answerRows.js';
import { parseDefinition } from '../questionnaires/definitions.js';

/**
 * Anonymous means unlinkable, for a reader of the database files and for a reader of the API
 * (docs/security.md#anonymous-means-unlinkable). A submission must be stored in one transaction — the reply together with the
 * respondent's feedback turning SUBMITTED — or an acknowledged reply could be lost or doubled.
 * That transaction pairs them physically: the same transaction id (PostgreSQL xmin), pages side
 * by side in SQLite's write-ahead log, neighbouring places in the tables. And a new reply that
 * appears in results as one respondent turns "submitted" pairs them through the API.
 *
 * So a new anonymous reply waits apart, in `waiting_replies` (migration 0028), until its batch is
 * released, and a round runs every mixing period (at most 60 s, never off) and, for every
 * anonymous questionnaire with new replies, in one transaction:
 * - rewrites the waiting replies in random order, and every submitted feedback record of the
 *   questionnaire in random order: afterwards all of them carry the round's transaction id and
 *   places that say nothing of who came when (the feedback keeps the day of a submission only);
 * - releases the waiting replies into results — moved into `replies` in random order, their
 *   countable rows written then — once at
 *   least `minGroup` of them have arrived since the last release, or the questionnaire has
 *   finished: so results, reply lists and per-group counts only ever change by a batch of at
 *   least `minGroup` replies, and no polling pairs a reply with a submitter.
 * Then the earlier versions are scrubbed from the files (db/scrub.ts).
 */
function shuffle<T>(rows: T[]): T[] {
  for (let i = rows.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return rows;
}

/** What a round did. */
export interface MixingRound {
  /** replies rewritten */
  mixed: number;
  /** replies released into results */
  released: number;
  /** false when the files could not be scrubbed yet (another reader held SQLite's log): the next round tries again */
  clean: boolean;
}

const CHUNK = 500;
const chunks = <T>(rows: T[]) => Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, i) => rows.slice(i * CHUNK, (i + 1) * CHUNK));

/** What a round found for one questionnaire, and what it will do. */
interface Plan {
  id: number;
  /** gone meanwhile: its waiting replies go as its other replies did */
  questionnaire: { status: string; end_date: string | null; definition: string } | undefined;
  /** its replies waiting for their release */
  waiting: Selectable<WaitingRepliesTable>[];
  /** replies stored in `replies` unmixed before there was a table to wait in (the demo's, released) */
  unmixed: string[];
  release: boolean;
  /** something came, is released or is left unmixed: the questionnaire's replies and feedback are rewritten */
  changed: boolean;
}

/** Reads one questionnaire's part of a round (in the round's transaction) and decides it. */
async function plan(trx: DB, id: number, minGroup: number, now: string): Promise<Plan> {
  let lock = trx.selectFrom('questionnaires').select(['status', 'end_date', 'definition']).where('id', '=', id);
  // several instances on one PostgreSQL: one of them mixes a questionnaire at a time (a
  // no-key lock, so submissions, whose reply's foreign key takes a key-share lock, go on)
  if (isPostgres(trx)) lock = lock.forNoKeyUpdate();
  const questionnaire = await lock.executeTakeFirst();
  const waiting = await trx.selectFrom('waiting_replies').selectAll().where('questionnaire_id', '=', id).execute();
  const unmixed = (await trx.selectFrom('replies').select('id').where('questionnaire_id', '=', id).where('feedback_id', 'is', null).where('mixed', '=', 0).execute()).map((r) => r.id);
  const finished = questionnaire !== undefined && (questionnaire.status === 'FINISHED' || (questionnaire.end_date !== null && questionnaire.end_date <= now));
  const release = questionnaire !== undefined && waiting.length > 0 && (waiting.length >= minGroup || finished);
  const changed = questionnaire === undefined || release || unmixed.length > 0 || waiting.some((r) => r.mixed === 0);
  return { id, questionnaire, waiting, unmixed, release, changed };
}

/** Writes one changed questionnaire's part of a round: its released replies, the unmixed ones, its feedback. What still waits is the caller's. */
async function rewrite(trx: DB, p: Plan & { questionnaire: NonNullable<Plan['questionnaire']> }): Promise<void> {
  // the stored text rows of replies already released carry the submission's transaction id too:
  // rewritten with them (their counters stay as they are)
  const texts: ReplyAnswerRow[] = [];
  const replies: Insertable<RepliesTable>[] = [];
  // staff's shown/hidden marks of their texts would go with the replies (cascade): kept, written back after them
  const marks: Insertable<TextAnswerMarksTable>[] = [];
  for (const part of chunks(p.unmixed)) {
    marks.push(...(await trx.deleteFrom('text_answer_marks').where('reply_id', 'in', part).returningAll().execute()));
    // their terms are written again with their texts (storeAnswerRows)
    await trx.deleteFrom('text_terms').where('reply_id', 'in', part).execute();
    texts.push(...(await trx.deleteFrom('reply_answers').where('reply_id', 'in', part).returningAll().execute()));
    replies.push(...(await trx.deleteFrom('replies').where('id', 'in', part).returningAll().execute()));
  }
  // the rows of the replies released now: counted, and their texts stored
  const fresh: ReplyAnswerRow[] = [];
  if (p.release) {
    const definition = parseDefinition(p.questionnaire.definition);
    for (const r of p.waiting) {
      fresh.push(...answerRows(definition, { id: r.id, questionnaire_id: p.id, respondent_role: r.respondent_role, grade_id: r.grade_id, class_id: r.class_id }, JSON.parse(r.answers)));
      replies.push({ ...r, feedback_id: null, mixed: 1, released: 1, counted: 1 });
    }
  }
  const rewritten = shuffle(replies).map((r) => ({ ...r, mixed: 1 }));
  for (const part of chunks(rewritten)) await trx.insertInto('replies').values(part).execute();
  for (const part of chunks(shuffle(marks))) await trx.insertInto('text_answer_marks').values(part).execute();
  await storeAnswerRows(trx, shuffle([...texts, ...fresh]));
  await countAnswerRows(trx, fresh, 1);

  // the respondents' side: who has submitted, rewritten in random order, so that no place nor
  // transaction id tells who submitted in this round (no reply refers to these records)
  const feedback = shuffle(await trx.deleteFrom('feedback').where('questionnaire_id', '=', p.id).where('status', '=', 'SUBMITTED').returningAll().execute());
  for (const part of chunks(feedback)) await trx.insertInto('feedback').values(part).execute();
}

/**
 * One round over every anonymous questionnaire with replies waiting or left unmixed, in one
 * transaction; then the files are scrubbed — when something was rewritten, or when `scrub` asks
 * (a round before could not).
 *
 * When anything changed, every waiting reply is taken out of `waiting_replies` and those still
 * waiting are written back, marked mixed, in random order. On SQLite the table is cleared whole
 * (`delete` without a condition, which SQLite carries out by freeing every page of the table, and
 * a freed page is zeroed under secure_delete): the bytes a balance left in those pages — replies as
 * they arrived, or where an earlier round put them — go with them. Nothing else writes while the
 * round's transaction does, so the rows cleared are the rows read. On PostgreSQL, where
 * submissions of other connections go on meanwhile, the round takes the rows it read, by id, and
 * VACUUM removes their earlier versions (db/scrub.ts).
 */
export async function mixAnonymousReplies(db: DB, minGroup: number, scrub = false): Promise<MixingRound> {
  const now = new Date().toISOString();
  const round: MixingRound = { mixed: 0, released: 0, clean: true };
  let rewrote = false;
  await db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('waiting_replies')
      .select('questionnaire_id')
      .union(trx.selectFrom('replies').select('questionnaire_id').where('feedback_id', 'is', null).where('mixed', '=', 0))
      .execute();
    // in the order of their ids, so instances sharing a PostgreSQL lock them in the same order
    const plans: Plan[] = [];
    for (const id of [...new Set(due.map((d) => d.questionnaire_id))].sort((a, b) => a - b)) plans.push(await plan(trx, id, minGroup, now));
    if (!plans.some((p) => p.changed)) return;
    rewrote = true;

    const read = plans.flatMap((p) => p.waiting);
    if (isPostgres(trx)) for (const part of chunks(read.map((r) => r.id))) await trx.deleteFrom('waiting_replies').where('id', 'in', part).execute();
    else await trx.deleteFrom('waiting_replies').execute();
    for (const p of plans) {
      if (!p.questionnaire || !p.changed) continue;
      await rewrite(trx, { ...p, questionnaire: p.questionnaire });
      round.mixed += p.unmixed.length + p.waiting.length;
      if (p.release) round.released += p.waiting.length;
    }
    const still = shuffle(plans.filter((p) => p.questionnaire && !p.release).flatMap((p) => p.waiting.map((r) => ({ ...r, mixed: 1 }))));
    for (const part of chunks(still)) await trx.insertInto('waiting_replies').values(part).execute();
  });
  if (rewrote || scrub) round.clean = await scrubRewrittenRows(db);
  return round;
}

/**
 * Mixes at once (replies left from before a stop) and then every `seconds` until stopped.
 * There is no setting that turns it off: the period is 1 to 60 seconds (config.ts).
 */
export function startMixing(db: DB, seconds: number, minGroup: number, log: { error: (o: object, m: string) => void }): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  // the first round scrubs whatever the files hold (a stop may have come between a rewrite and
  // its scrub); after that, a scrub that could not finish is tried again every round
  let scrubDue = true;
  const round = () => {
    if (running) return;
    running = mixAnonymousReplies(db, minGroup, scrubDue)
      .then((done) => (scrubDue = !done.clean))
      .catch((err) => log.error({ err }, 'mixing anonymous replies failed'))
      .finally(() => (running = null));
  };
  const first = setTimeout(round, 0);
  const timer = setInterval(round, Math.min(60, Math.max(1, seconds)) * 1000);
  first.unref();
  timer.unref();
  // stopping waits for a round under way: the database closes after this (a child plugin's onClose runs first)
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
