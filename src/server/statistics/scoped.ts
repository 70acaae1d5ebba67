import type { DB } from '../db/connect.js';
import type { AuthUser } from '../plugins/guard.js';
import { BusinessError } from '../plugins/errors.js';
import { contains } from '../questionnaires/service.js';
import { reachable } from '../questionnaires/scope.js';
import { audienceYear } from '../questionnaires/audience.js';
import { storedLanguages } from '../questionnaires/service.js';
import { parseDefinition } from '../questionnaires/definitions.js';
import type { Definition } from '../../shared/questionnaire/definition.js';
import type { QuestionnaireStatus, QuestionnaireType } from '../../shared/questionnaire/types.js';
import { percent } from '../../shared/statistics/types.js';
import type { StatisticsListQuery, StatisticsPage, StatisticsRow } from '../../shared/calls/statistics.js';
import { releasedCounts } from '../filling/released.js';
import { countPendingNow } from './counting.js';
import { readAside } from '../db/read-aside.js';

/** A questionnaire whose results the caller may read. */
export interface Scoped {
  row: StatisticsRow;
  definition: Definition;
  yearId: number | null;
  /** who was asked, by group and state (the row's counts are made of them, and the detail's groups) */
  cells: RespondentCell[];
}

/** How many respondents of one group (role, grade, class) are in one state. */
export interface RespondentCell {
  role: string;
  gradeId: number | null;
  classId: number | null;
  submitted: boolean;
  n: number;
}

const SORTS: Record<string, string> = { title: 'q.title', status: 'q.status', openDate: 'q.open_date', endDate: 'q.end_date', createDate: 'q.create_date' };
/** Statuses with results: a questionnaire has respondents once it opened. */
const OPENED = ['PROCESSING', 'FINISHED'];

/** The opened questionnaires whose results the user may read: the one scope every statistics call starts from. */
function readable(db: DB, user: AuthUser) {
  return db
    .selectFrom('questionnaires as q')
    .innerJoin('users as u', 'u.id', 'q.in_charge_id')
    .leftJoin('school_years as y', 'y.id', 'q.school_year_id')
    .where('q.status', 'in', OPENED)
    .where(reachable(user, 'results'));
}

const ROW_COLUMNS = ['q.id', 'q.title', 'q.title_translation', 'q.languages', 'q.status', 'q.type', 'q.create_date', 'q.open_date', 'q.end_date', 'q.school_year_id', 'q.in_charge_id', 'u.name_hk', 'u.name_en', 'y.name as year_name'] as const;

/** The rows of the list; `known`: the feedback counts of a questionnaire already read (one questionnaire's cells). */
async function statisticsRows(db: DB, raw: Record<string, unknown>[], known?: { questionnaire_id: number; total: number; submitted: number }): Promise<StatisticsRow[]> {
  if (!raw.length) return [];
  const ids = raw.map((r) => r.id as number);
  const counts = known
    ? [known]
    : await db
        .selectFrom('feedback')
        .select((eb) => ['questionnaire_id', eb.fn.countAll().as('total'), eb.fn.sum(eb.case().when('status', '=', 'SUBMITTED').then(1).else(0).end()).as('submitted')])
        .where('questionnaire_id', 'in', ids)
        .groupBy('questionnaire_id')
        .execute();
  const released = await releasedCounts(db, raw.filter((r) => r.type === 'ANONYMOUS').map((r) => r.id as number));
  return raw.map((r) => {
    const c = counts.find((x) => x.questionnaire_id === r.id);
    const respondentNum = Number(c?.total ?? 0);
    // anonymous: who has submitted shows only as replies are released, in batches (filling/mixing.ts)
    const submittedNum = r.type === 'ANONYMOUS' ? (released.get(r.id as number) ?? 0) : Number(c?.submitted ?? 0);
    return {
      id: r.id as number,
      title: r.title as string,
      titleTranslation: (r.title_translation as string | null) ?? null,
      languages: storedLanguages(r.languages as string),
      schoolYear: r.school_year_id ? { id: r.school_year_id as number, name: r.year_name as string } : null,
      principal: { id: r.in_charge_id as number, nameHk: r.name_hk as string, nameEn: r.name_en as string },
      status: r.status as QuestionnaireStatus,
      type: r.type as QuestionnaireType,
      createDate: r.create_date as string,
      openDate: (r.open_date as string | null) ?? null,
      endDate: (r.end_date as string | null) ?? null,
      submittedNum,
      respondentNum,
      responseRate: respondentNum ? percent(submittedNum, respondentNum) : null,
    };
  });
}

/** The questionnaires with results the user may read, with their response rates; searched, sorted, paged. */
export async function statisticsList(db: DB, user: AuthUser, query: StatisticsListQuery): Promise<StatisticsPage> {
  const where = () => {
    let q = readable(db, user);
    if (query.status) q = q.where('q.status', '=', query.status);
    if (query.schoolYearId) q = q.where('q.school_year_id', '=', query.schoolYearId);
    if (query.q) q = q.where(contains('q.title', query.q));
    return q;
  };
  const size = query.size ?? 20;
  const sort = SORTS[query.sort ?? 'createDate'] ?? 'q.create_date';
  const order = (query.order ?? (query.sort ? 'asc' : 'desc')).toLowerCase() === 'asc' ? 'asc' : 'desc';
  const raw = await where()
    .select(ROW_COLUMNS)
    .orderBy(sort as 'q.id', order)
    .orderBy('q.id', 'desc')
    .limit(size)
    .offset(((query.page ?? 1) - 1) * size)
    .execute();
  const count = await where().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  return { list: await statisticsRows(db, raw), total: Number(count?.n ?? 0) };
}

/**
 * Who was asked, by group and state: one grouped read of the feedback records' covering index
 * (migration 0016) that the groups and the filter's counts are all made of.
 */
async function respondentCells(db: DB, id: number): Promise<RespondentCell[]> {
  // aside: it reads a row per respondent (2 ms of SQLite at 26,000), and every statistics call runs it
  const rows = await readAside(
    db,
    db
      .selectFrom('feedback')
      .select((eb) => ['respondent_role', 'grade_id', 'class_id', 'status', eb.fn.countAll<number>().as('n')])
      .where('questionnaire_id', '=', id)
      .groupBy(['respondent_role', 'grade_id', 'class_id', 'status']),
  );
  return rows.map((r) => ({ role: r.respondent_role, gradeId: r.grade_id ?? null, classId: r.class_id ?? null, submitted: r.status === 'SUBMITTED', n: Number(r.n) }));
}

/** Those of `ids` whose results the caller may read, with their definitions, in one read (a series). */
export async function readableAmong(db: DB, user: AuthUser, ids: number[]) {
  const raw = await readable(db, user).select(['q.id', 'q.title', 'q.title_translation', 'q.languages', 'q.status', 'q.type', 'q.open_date', 'q.end_date', 'q.school_year_id', 'y.name as year_name', 'y.begin_date', 'q.definition']).where('q.id', 'in', ids).execute();
  return raw.map((r) => ({
    id: r.id,
    title: r.title,
    titleTranslation: r.title_translation ?? null,
    languages: storedLanguages(r.languages),
    schoolYear: r.school_year_id ? { id: r.school_year_id, name: r.year_name as string } : null,
    status: r.status as QuestionnaireStatus,
    type: r.type as QuestionnaireType,
    openDate: r.open_date ?? null,
    endDate: r.end_date ?? null,
    beginDate: (r.begin_date as string | null) ?? null,
    definition: parseDefinition(r.definition),
  }));
}

/** One questionnaire whose results the caller may read, or 404. */
export async function scopedQuestionnaire(db: DB, user: AuthUser, id: number): Promise<Scoped> {
  // at once, each on a connection of its own on PostgreSQL: the reads a call waits for add up
  // otherwise (what is read for a questionnaire the caller may not see is never answered)
  const [raw, cells] = await Promise.all([
    readable(db, user).select(ROW_COLUMNS).select('q.definition').where('q.id', '=', id).executeTakeFirst(),
    respondentCells(db, id),
    countPendingNow(db, id),
  ]);
  if (!raw) throw new BusinessError('RECORD_NOT_FOUND');
  const total = cells.reduce((sum, c) => sum + c.n, 0);
  const submitted = cells.filter((c) => c.submitted).reduce((sum, c) => sum + c.n, 0);
  const [row] = await statisticsRows(db, [raw], { questionnaire_id: id, total, submitted });
  return { row, definition: parseDefinition(raw.definition), yearId: await audienceYear(db, raw.school_year_id), cells };
}
