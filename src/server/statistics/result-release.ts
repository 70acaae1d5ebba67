import type { DB } from '../db/connect.js';
import type { AuthUser } from '../plugins/guard.js';
import { BusinessError } from '../plugins/errors.js';
import type { Lang } from '../../shared/errors.js';
import type { ResultReleaseBody, ResultReleaseState, ResultSummary, ResultSummaryItem, ResultSummaryList, SummaryQuestion } from '../../shared/calls/result-releases.js';
import { storedLanguages } from '../questionnaires/service.js';
import { parseDefinition } from '../questionnaires/definitions.js';
import type { QuestionnaireType } from '../../shared/questionnaire/types.js';
import { mayMark } from './marks.js';
import { resultsOf } from './detail.js';
import { withheldResults } from './withholding.js';
import type { Scoped } from './scoped.js';

/**
 * Results released (docs/product-rules.md#results-released): a finished questionnaire's summary —
 * its choice, scale and grid figures as the statistics detail shows them without a filter
 * (resultsOf, detail.ts), and only the text answers staff marked shown (marks.ts) — released by
 * its person in charge to its respondents and/or chosen members of staff. Not the anonymous
 * replies "released" into the results in batches (filling/released.ts): this is the results
 * reaching readers, and it is called a result release throughout.
 */

/** The question types whose figures a summary shows as a chart. */
const CHARTED = new Set(['choices', 'grid', 'scale']);
/** The question types whose marked answers a summary shows. */
const TEXT_TYPES = new Set(['SHORT_TEXT', 'PARAGRAPH']);
/** At most this many marked answers of one question reach a summary (a page a phone still reads). */
export const MAX_SUMMARY_TEXTS = 500;

const now = () => new Date().toISOString();

/** Who may release and withdraw: whoever may mark the texts it shows — the person in charge, or a results manager. */
export const mayRelease = mayMark;

/**
 * The release of a questionnaire as it stands, and what releasing it would show. Its row and its
 * staff are read in one statement: read apart, on PostgreSQL a release made between the two reads
 * (another connection's) would show one release's respondents with another's staff.
 */
export async function releaseState(db: DB, minGroupSize: number, user: AuthUser, scoped: Scoped): Promise<ResultReleaseState> {
  const id = scoped.row.id;
  const [rows, shown, withheld] = await Promise.all([
    db
      .selectFrom('result_releases as rr')
      .leftJoin('users as u', 'u.id', 'rr.released_by')
      .leftJoin('result_release_staff as s', 's.questionnaire_id', 'rr.questionnaire_id')
      .leftJoin('users as su', 'su.id', 's.user_id')
      .select(['rr.to_respondents', 'rr.released_at', 'rr.withdrawn_at', 'rr.released_by', 'u.name_hk', 'u.name_en', 'su.id as staff_id', 'su.name_hk as staff_name_hk', 'su.name_en as staff_name_en'])
      .where('rr.questionnaire_id', '=', id)
      .orderBy('su.name_en')
      .orderBy('su.id')
      .execute(),
    shownTextCount(db, id),
    withheldResults(db, scoped.row, {}, minGroupSize),
  ]);
  const row = rows[0];
  const staff = rows.filter((s) => s.staff_id !== null).map((s) => ({ id: s.staff_id!, nameHk: s.staff_name_hk ?? '', nameEn: s.staff_name_en ?? '' }));
  return {
    status: scoped.row.status,
    mayRelease: mayRelease(user, scoped),
    shownTexts: shown,
    withheld,
    release: row
      ? {
          respondents: row.to_respondents === 1,
          staff,
          releasedBy: row.released_by !== null && row.name_hk !== null ? { id: row.released_by, nameHk: row.name_hk, nameEn: row.name_en ?? '' } : null,
          releasedAt: row.released_at,
          withdrawnAt: row.withdrawn_at,
        }
      : null,
  };
}

/** The answers of the questionnaire's text questions marked shown, of replies in the results. */
function shownTexts(db: DB, id: number) {
  return db
    .selectFrom('text_answer_marks as m')
    .innerJoin('reply_answers as ra', (join) => join.onRef('ra.reply_id', '=', 'm.reply_id').onRef('ra.question_id', '=', 'm.question_id').on('ra.item', '=', ''))
    .innerJoin('replies as r', 'r.id', 'm.reply_id')
    .where('m.questionnaire_id', '=', id)
    .where('m.shown', '=', 1)
    .where('r.released', '=', 1)
    .where('ra.value_text', 'is not', null)
    .where('ra.value_text', '!=', '');
}

async function shownTextCount(db: DB, id: number): Promise<number> {
  const row = await shownTexts(db, id).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Releases (or releases again, to other readers) a finished questionnaire's summary. Refused:
 * not the person in charge nor a results manager (747), not finished (745), nobody to read it
 * (739), an anonymous questionnaire with fewer replies than its minimum group (746), an id that
 * is not a member of staff (748, nothing released).
 */
export async function release(db: DB, minGroupSize: number, user: AuthUser, scoped: Scoped, body: ResultReleaseBody): Promise<ResultReleaseState> {
  if (!mayRelease(user, scoped)) throw new BusinessError('RESULT_RELEASE_NOT_YOURS');
  if (scoped.row.status !== 'FINISHED') throw new BusinessError('RESULT_RELEASE_NOT_FINISHED');
  const staffIds = [...new Set(body.staff)].sort((a, b) => a - b);
  if (!body.respondents && !staffIds.length) throw new BusinessError('RESULT_RELEASE_NO_READERS');
  const withheld = await withheldResults(db, scoped.row, {}, minGroupSize);
  if (withheld) throw new BusinessError('RESULT_RELEASE_WITHHELD', { min: withheld.minGroupSize });
  if (staffIds.length) {
    const staff = await db.selectFrom('users').select('id').where('id', 'in', staffIds).where('user_type', '!=', 'STUDENT').execute();
    if (staff.length !== staffIds.length) throw new BusinessError('RESULT_RELEASE_NOT_STAFF', { count: staffIds.length - staff.length });
  }
  const id = scoped.row.id;
  await db.transaction().execute(async (trx) => {
    // the questionnaire still finished as it is written (nothing re-opens one today; if anything did, it would not be released)
    const still = await trx.selectFrom('questionnaires').select('status').where('id', '=', id).executeTakeFirst();
    if (still?.status !== 'FINISHED') throw new BusinessError('RESULT_RELEASE_NOT_FINISHED');
    const row = { to_respondents: body.respondents ? 1 : 0, released_by: user.id, released_at: now(), withdrawn_at: null };
    await trx
      .insertInto('result_releases')
      .values({ questionnaire_id: id, ...row })
      .onConflict((oc) => oc.column('questionnaire_id').doUpdateSet(row))
      .execute();
    await trx.deleteFrom('result_release_staff').where('questionnaire_id', '=', id).execute();
    if (staffIds.length) await trx.insertInto('result_release_staff').values(staffIds.map((user_id) => ({ questionnaire_id: id, user_id }))).execute();
  });
  return releaseState(db, minGroupSize, user, scoped);
}

/** Withdraws a standing release: its readers no longer find nor read it (749 when none stands). */
export async function withdraw(db: DB, minGroupSize: number, user: AuthUser, scoped: Scoped): Promise<ResultReleaseState> {
  if (!mayRelease(user, scoped)) throw new BusinessError('RESULT_RELEASE_NOT_YOURS');
  const r = await db.updateTable('result_releases').set({ withdrawn_at: now() }).where('questionnaire_id', '=', scoped.row.id).where('withdrawn_at', 'is', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new BusinessError('RESULT_RELEASE_NONE');
  return releaseState(db, minGroupSize, user, scoped);
}

/**
 * The summaries the user reads: standing releases of finished questionnaires, where the user is
 * the person in charge, a chosen member of staff, or — released to respondents — one who
 * submitted a reply.
 */
function releasedTo(db: DB, user: AuthUser) {
  return db
    .selectFrom('result_releases as rr')
    .innerJoin('questionnaires as q', 'q.id', 'rr.questionnaire_id')
    .innerJoin('users as u', 'u.id', 'q.in_charge_id')
    .where('rr.withdrawn_at', 'is', null)
    .where('q.status', '=', 'FINISHED')
    .where((eb) =>
      eb.or([
        eb('q.in_charge_id', '=', user.id),
        eb.exists(eb.selectFrom('result_release_staff as s').select('s.user_id').whereRef('s.questionnaire_id', '=', 'rr.questionnaire_id').where('s.user_id', '=', user.id)),
        eb.and([
          eb('rr.to_respondents', '=', 1),
          eb.exists(eb.selectFrom('feedback as f').select('f.id').whereRef('f.questionnaire_id', '=', 'rr.questionnaire_id').where('f.user_id', '=', user.id).where('f.status', '=', 'SUBMITTED')),
        ]),
      ]),
    )
    .select(['q.id', 'q.title', 'q.title_translation', 'q.languages', 'q.type', 'q.open_date', 'q.end_date', 'u.name_hk', 'u.name_en', 'rr.released_at']);
}

type Row = { id: number; title: string; title_translation: string | null; languages: string; type: string; open_date: string | null; end_date: string | null; name_hk: string; name_en: string; released_at: string };

const item = (r: Row): ResultSummaryItem => ({
  id: r.id,
  title: r.title,
  titleTranslation: r.title_translation ?? null,
  languages: storedLanguages(r.languages),
  type: r.type as QuestionnaireType,
  openDate: r.open_date ?? null,
  endDate: r.end_date ?? null,
  inCharge: { nameHk: r.name_hk, nameEn: r.name_en },
  releasedAt: r.released_at,
});

/** GET /v1/my/result-summaries: the latest release first. */
export async function summariesReleasedTo(db: DB, user: AuthUser): Promise<ResultSummaryList> {
  const rows = (await releasedTo(db, user).orderBy('rr.released_at', 'desc').orderBy('q.id', 'desc').limit(200).execute()) as Row[];
  return { list: rows.map(item), total: rows.length };
}

/** One summary released to the user, in the reader's language; 738 when it is not (never released, withdrawn, not theirs, not finished). */
export async function summaryFor(db: DB, minGroupSize: number, user: AuthUser, id: number, lang: Lang): Promise<ResultSummary> {
  const row = (await releasedTo(db, user).select('q.definition').where('q.id', '=', id).executeTakeFirst()) as (Row & { definition: string }) | undefined;
  if (!row) throw new BusinessError('RESULT_SUMMARY_NOT_RELEASED');
  const results = await resultsOf(db, minGroupSize, { id: row.id, type: row.type }, parseDefinition(row.definition), {}, lang);
  // fewer replies than the minimum group since it was released (replies removed): nothing shows
  if (results.withheld) throw new BusinessError('RESULT_SUMMARY_NOT_RELEASED');
  const textQuestions = results.questions.filter((q) => TEXT_TYPES.has(q.type)).map((q) => q.id);
  const texts = new Map<string, string[]>(textQuestions.map((q) => [q, []]));
  if (textQuestions.length) {
    const rows = await shownTexts(db, id).select(['m.question_id', 'ra.value_text']).where('m.question_id', 'in', textQuestions).orderBy('m.question_id').orderBy('m.reply_id').execute();
    for (const r of rows) {
      const list = texts.get(r.question_id)!;
      if (list.length < MAX_SUMMARY_TEXTS) list.push(r.value_text ?? '');
    }
  }
  const questions: SummaryQuestion[] = [];
  for (const q of results.questions) {
    const charted = q.summary && CHARTED.has(q.summary.kind) ? q.summary : null;
    const shown = texts.get(q.id) ?? null;
    if (!charted && !shown) continue; // a date or time question: neither a chart nor texts
    questions.push({ id: q.id, number: q.number, sectionTitle: q.sectionTitle, type: q.type, title: q.title, answered: q.answered, summary: charted as SummaryQuestion['summary'], texts: shown });
  }
  return { questionnaire: item(row), replyCount: results.replyCount, questions };
}
