import type { DB } from '../db/connect.js';
import type { AuthUser } from '../plugins/guard.js';
import { mayChange, reachesAll } from '../questionnaires/scope.js';
import { storedLanguages } from '../questionnaires/service.js';
import type { StatisticsService } from '../statistics/service.js';
import type { Dashboard, DashboardImport, DashboardQuestionnaire, RunningQuestionnaire } from '../../shared/calls/dashboard.js';
import type { QuestionnaireType } from '../../shared/questionnaire/types.js';

/** Rows a card lists at most; its total says how many there are. */
export const LISTED = 10;
/** The caller's imports the school card lists. */
export const IMPORTS_LISTED = 5;

/** Soonest end first, those without an end last; then the newest questionnaire first. */
const bySoonestEnd = (a: { endDate: string | null; id: number }, b: { endDate: string | null; id: number }) =>
  a.endDate === b.endDate ? b.id - a.id : a.endDate === null ? 1 : b.endDate === null ? -1 : a.endDate < b.endDate ? -1 : 1;

/** What I still have to answer: questionnaires open now whose feedback record of mine is not submitted. */
export async function toAnswer(db: DB, userId: number, now: string): Promise<{ total: number; list: DashboardQuestionnaire[] }> {
  const rows = await db
    .selectFrom('feedback as f')
    .innerJoin('questionnaires as q', 'q.id', 'f.questionnaire_id')
    .select(['q.id', 'q.title', 'q.title_translation', 'q.languages', 'q.type', 'q.end_date'])
    .where('f.user_id', '=', userId)
    .where('f.status', '=', 'NOT_SUBMITTED')
    .where('q.status', '=', 'PROCESSING')
    .where((eb) => eb.or([eb('q.open_date', 'is', null), eb('q.open_date', '<=', now)]))
    .where((eb) => eb.or([eb('q.end_date', 'is', null), eb('q.end_date', '>', now)]))
    .execute();
  const list = rows.map((r) => ({ id: r.id, title: r.title, titleTranslation: r.title_translation, languages: storedLanguages(r.languages), type: r.type as QuestionnaireType, endDate: r.end_date ?? null })).sort(bySoonestEnd);
  return { total: list.length, list: list.slice(0, LISTED) };
}

/**
 * The running questionnaires whose results the caller reads (their own and those they assist;
 * everyone's for whoever reads all results), with the statistics list's counts — an anonymous
 * questionnaire's submissions as released, in batches, never the live count (filling/mixing.ts).
 */
export async function running(db: DB, statistics: StatisticsService, user: AuthUser): Promise<{ total: number; list: RunningQuestionnaire[]; all: RunningQuestionnaire[] }> {
  const { list: rows } = await statistics.list(user, { status: 'PROCESSING', size: 100_000 });
  const ids = rows.map((r) => r.id);
  const assisted = new Set(
    ids.length ? (await db.selectFrom('questionnaire_assistants').select('questionnaire_id').where('user_id', '=', user.id).where('questionnaire_id', 'in', ids).execute()).map((a) => a.questionnaire_id) : [],
  );
  // as the questionnaire's own screen decides it may be edited (questionnaires/service.ts), which the reminder asks
  const mayRemind = (r: (typeof rows)[number]) => mayChange(user, { inChargeId: r.principal.id, assistantIds: assisted.has(r.id) ? [user.id] : [] });
  const all = rows
    .map((r) => ({ id: r.id, title: r.title, titleTranslation: r.titleTranslation, languages: r.languages, type: r.type, endDate: r.endDate, respondents: r.respondentNum, submitted: r.submittedNum, mayRemind: mayRemind(r) }))
    .sort(bySoonestEnd);
  return { total: all.length, list: all.slice(0, LISTED), all };
}

/** The caller's latest imports: only the one who imported sees a job (master/import-jobs.ts). */
export async function latestImports(db: DB, userId: number): Promise<DashboardImport[]> {
  const jobs = await db
    .selectFrom('import_jobs')
    .select(['id', 'resource', 'status', 'rows', 'added', 'updated', 'skipped', 'created_at', 'finished_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(IMPORTS_LISTED)
    .execute();
  const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
  return jobs.map((j) => ({ id: j.id, resource: j.resource, status: j.status, rows: j.rows, added: j.added, updated: j.updated, skipped: j.skipped, createdAt: iso(j.created_at)!, finishedAt: iso(j.finished_at) }));
}

/** The home screen's one call: each card for those whose permissions it serves, null for the others. */
export async function dashboardOf(db: DB, statistics: StatisticsService, user: AuthUser, now = new Date().toISOString()): Promise<Dashboard> {
  const [mine, theirs] = await Promise.all([
    user.permissions.has('form-input.view') ? toAnswer(db, user.id, now) : null,
    user.permissions.has('data-statistics.view') ? running(db, statistics, user) : null,
  ]);
  let school: Dashboard['school'] = null;
  if (theirs && reachesAll(user, 'results')) {
    school = {
      openQuestionnaires: theirs.total,
      respondents: theirs.all.reduce((sum, q) => sum + q.respondents, 0),
      submitted: theirs.all.reduce((sum, q) => sum + q.submitted, 0),
      imports: await latestImports(db, user.id),
    };
  }
  return { toAnswer: mine, running: theirs && { total: theirs.total, list: theirs.list }, school };
}
