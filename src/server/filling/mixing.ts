import { randomInt } from 'node:crypto';
import type { DB } from '../db/connect.js';
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
 * So a round runs every mixing period (at most 60 s, never off) and, per anonymous
 * questionnaire with new replies, in one transaction:
 * - rewrites the new replies in random order, and every submitted feedback record of the
 *   questionnaire in random order: afterwards all of them carry the round's transaction id and
 *   places that say nothing of who came when (the feedback keeps the day of a submission only);
 * - releases the waiting replies into results — their countable rows written then — once at
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

/** One questionnaire's round, in one transaction. */
async function mixQuestionnaire(db: DB, id: number, minGroup: number, now: string): Promise<Omit<MixingRound, 'clean'>> {
  return db.transaction().execute(async (trx): Promise<Omit<MixingRound, 'clean'>> => {
    let lock = trx.selectFrom('questionnaires').select(['type', 'status', 'end_date', 'definition']).where('id', '=', id);
    // several instances on one PostgreSQL: one of them mixes a questionnaire at a time (a
    // no-key lock, so submissions, whose reply's foreign key takes a key-share lock, go on)
    if (isPostgres(trx)) lock = lock.forNoKeyUpdate();
    const q = await lock.executeTakeFirst();
    if (!q || q.type !== 'ANONYMOUS') return { mixed: 0, released: 0 };
    const waiting = await trx
      .selectFrom('replies')
      .select(['id', 'mixed', 'released'])
      .where('questionnaire_id', '=', id)
      .where('feedback_id', 'is', null)
      .where((eb) => eb.or([eb('mixed', '=', 0), eb('released', '=', 0)]))
      .execute();
    const held = waiting.filter((r) => r.released === 0).length;
    const finished = q.status === 'FINISHED' || (q.end_date !== null && q.end_date <= now);
    const release = held > 0 && (held >= minGroup || finished);
    if (!release && !waiting.some((r) => r.mixed === 0)) return { mixed: 0, released: 0 };

    const ids = waiting.map((r) => r.id);
    // the stored text rows of replies already released carry the submission's transaction id too:
    // rewritten with them (their counters stay as they are)
    const texts: ReplyAnswerRow[] = [];
    const replies = [];
    for (const part of chunks(ids)) {
      texts.push(...(await trx.deleteFrom('reply_answers').where('reply_id', 'in', part).returningAll().execute()));
      replies.push(...(await trx.deleteFrom('replies').where('id', 'in', part).returningAll().execute()));
    }
    const definition = parseDefinition(q.definition);
    // the rows of the replies released now: counted, and their texts stored
    const fresh: ReplyAnswerRow[] = [];
    const rewritten = shuffle(replies).map((r) => {
      if (r.released === 0 && release) fresh.push(...answerRows(definition, { id: r.id, questionnaire_id: id, respondent_role: r.respondent_role ?? null, grade_id: r.grade_id ?? null, class_id: r.class_id ?? null }, JSON.parse(r.answers)));
      return { ...r, mixed: 1, released: r.released === 1 || release ? 1 : 0 };
    });
    const released = release ? held : 0;
    for (const part of chunks(rewritten)) await trx.insertInto('replies').values(part).execute();
    await storeAnswerRows(trx, shuffle([...texts, ...fresh]));
    await countAnswerRows(trx, fresh, 1);

    // the respondents' side: who has submitted, rewritten in random order, so that no place nor
    // transaction id tells who submitted in this round (no reply refers to these records)
    const feedback = shuffle(await trx.deleteFrom('feedback').where('questionnaire_id', '=', id).where('status', '=', 'SUBMITTED').returningAll().execute());
    for (const part of chunks(feedback)) await trx.insertInto('feedback').values(part).execute();
    return { mixed: rewritten.length, released };
  });
}

/**
 * One round over every anonymous questionnaire with replies to mix or release; then the files
 * are scrubbed — when something was rewritten, or when `scrub` asks (a round before could not).
 */
export async function mixAnonymousReplies(db: DB, minGroup: number, scrub = false): Promise<MixingRound> {
  const now = new Date().toISOString();
  const due = await db
    .selectFrom('replies')
    .select('questionnaire_id')
    .where('feedback_id', 'is', null)
    .where((eb) => eb.or([eb('mixed', '=', 0), eb('released', '=', 0)]))
    .groupBy('questionnaire_id')
    .execute();
  const round: MixingRound = { mixed: 0, released: 0, clean: true };
  for (const { questionnaire_id } of due) {
    const done = await mixQuestionnaire(db, questionnaire_id, minGroup, now);
    round.mixed += done.mixed;
    round.released += done.released;
  }
  if (round.mixed || scrub) round.clean = await scrubRewrittenRows(db);
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
