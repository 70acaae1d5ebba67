import { sql, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../db/connect.js';
import type { AuthUser } from '../plugins/guard.js';
import { BusinessError } from '../plugins/errors.js';
import { contains, type ListQuery } from '../questionnaires/service.js';
import { audienceYear } from '../questionnaires/audience.js';
import type { Lang } from '../../shared/errors.js';
import type { Definition } from '../../shared/questionnaire/definition.js';
import type { QuestionnaireStatus, QuestionnaireType } from '../../shared/questionnaire/types.js';
import type {
  AnonymousRespondent,
  NamedRespondent,
  RespondentPage,
  RespondentRole,
  StatisticsDetail,
  StatisticsFilter,
  StatisticsReply,
  StatisticsRow,
  TextPage,
  Withheld,
} from '../../shared/statistics/types.js';
import { percent } from '../../shared/statistics/types.js';
import { summarise, type Counts } from './summaries.js';
import { releasedCounts } from '../filling/released.js';
import { countPendingReplies, hasPendingReplies } from './counting.js';
import { REPLY_QUESTION_ID } from './answerRows.js';
import { parseDefinition } from '../questionnaires/definitions.js';

/** A questionnaire whose results the caller may read. */
export interface Scoped {
  row: StatisticsRow;
  definition: Definition;
  yearId: number | null;
  /** who was asked, by group and state (the row's counts are made of them, and the detail's groups) */
  cells: RespondentCell[];
}

/** The questionnaire list's query, without its scope: statistics are always of what the caller may read. */
export type StatisticsListQuery = Omit<ListQuery, 'scope'>;

export interface Paging {
  page?: number;
  size?: number;
}

const SORTS: Record<string, string> = { title: 'q.title', status: 'q.status', openDate: 'q.open_date', endDate: 'q.end_date', createDate: 'q.create_date' };
/** Statuses with results: a questionnaire has respondents once it opened. */
const OPENED = ['PROCESSING', 'FINISHED'];

/** Sees every questionnaire's results; others see those they are in charge of or assist with. */
export const seesAll = (user: AuthUser) => user.permissions.has('data-statistics.management');

type GroupRow = { respondent_role: string | null; grade_id: number | null; class_id: number | null; n: number };
const FILTER_KEYS = [
  ['role', 'respondent_role'],
  ['gradeId', 'grade_id'],
  ['classId', 'class_id'],
] as const;

/** How many respondents of one group (role, grade, class) are in one state. */
export interface RespondentCell {
  role: string;
  gradeId: number | null;
  classId: number | null;
  submitted: boolean;
  n: number;
}

/** Adds the filter to a query over replies (as r) or feedback (as f): both carry respondent_role, grade_id and class_id. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- builders over different joins share only those three columns
export function filtered<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, alias: 'r' | 'f', filter: StatisticsFilter): QB {
  let q = qb;
  for (const [key, column] of FILTER_KEYS) {
    const value = filter[key];
    if (value !== undefined) q = q.where(`${alias}.${column}`, '=', value) as QB;
  }
  return q;
}

/**
 * Whether an anonymous questionnaire's results for `filter` must be withheld, so that no
 * filter, nor any difference of filters, shows the answers of fewer than `min` replies.
 * Groups nest: roles in everyone, grades in the students, classes in a grade. At each level
 * a group with 1 to min-1 replies is withheld; when the withheld groups of a level hold
 * fewer than min replies together, the smallest of the others is withheld too (else the
 * parent minus the shown ones would be them); and a withheld group withholds what it holds.
 */
export function isWithheld(groups: GroupRow[], filter: StatisticsFilter, min: number): boolean {
  const keys = FILTER_KEYS.filter(([key]) => filter[key] !== undefined);
  if (!keys.length) return false;
  const matches = (g: GroupRow) => keys.every(([key, column]) => g[column] === filter[key]);
  const rows = groups.filter(matches);
  if (!rows.reduce((sum, g) => sum + Number(g.n), 0)) return false;
  // the path from everyone down to the filter's group: a grade or class means students, a class its grade
  const gradeId = filter.gradeId ?? rows[0].grade_id;
  const role = filter.gradeId !== undefined || filter.classId !== undefined ? 'STUDENT' : filter.role;
  const levels: { within: (g: GroupRow) => boolean; key: (g: GroupRow) => string; target: string }[] = [];
  if (role !== undefined) levels.push({ within: () => true, key: (g) => String(g.respondent_role), target: role });
  if (filter.gradeId !== undefined || filter.classId !== undefined) levels.push({ within: (g) => g.respondent_role === 'STUDENT', key: (g) => String(g.grade_id), target: String(gradeId) });
  if (filter.classId !== undefined) levels.push({ within: (g) => g.respondent_role === 'STUDENT' && g.grade_id === gradeId, key: (g) => String(g.class_id), target: String(filter.classId) });
  for (const level of levels) {
    const counts = new Map<string, number>();
    for (const g of groups) if (level.within(g)) counts.set(level.key(g), (counts.get(level.key(g)) ?? 0) + Number(g.n));
    const small = [...counts].filter(([, n]) => n > 0 && n < min);
    const withheld = new Set(small.map(([k]) => k));
    const smallTotal = small.reduce((sum, [, n]) => sum + n, 0);
    if (smallTotal > 0 && smallTotal < min) {
      const next = [...counts].filter(([k, n]) => n >= min && !withheld.has(k)).sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))[0];
      if (next) withheld.add(next[0]);
    }
    if (withheld.has(level.target)) return true;
  }
  return false;
}

/** The results of questionnaires, summed from the answer counters; the texts paged from reply_answers. */
export class StatisticsService {
  constructor(
    private readonly db: DB,
    private readonly minGroupSize: number,
  ) {}

  private base(user: AuthUser) {
    let q = this.db
      .selectFrom('questionnaires as q')
      .innerJoin('users as u', 'u.id', 'q.in_charge_id')
      .leftJoin('school_years as y', 'y.id', 'q.school_year_id')
      .where('q.status', 'in', OPENED);
    if (!seesAll(user)) {
      q = q.where((eb) =>
        eb.or([eb('q.in_charge_id', '=', user.id), eb('q.id', 'in', eb.selectFrom('questionnaire_assistants').select('questionnaire_id').where('user_id', '=', user.id))]),
      );
    }
    return q;
  }

  private columns() {
    return [
      'q.id',
      'q.title',
      'q.status',
      'q.type',
      'q.create_date',
      'q.open_date',
      'q.end_date',
      'q.school_year_id',
      'q.in_charge_id',
      'u.name_hk',
      'u.name_en',
      'y.name as year_name',
    ] as const;
  }

  /** The rows of the list; `known`: the feedback counts of a questionnaire already read (one questionnaire's cells). */
  private async rows(raw: Record<string, unknown>[], known?: { questionnaire_id: number; total: number; submitted: number }): Promise<StatisticsRow[]> {
    if (!raw.length) return [];
    const ids = raw.map((r) => r.id as number);
    const counts = known
      ? [known]
      : await this.db
          .selectFrom('feedback')
          .select((eb) => ['questionnaire_id', eb.fn.countAll().as('total'), eb.fn.sum(eb.case().when('status', '=', 'SUBMITTED').then(1).else(0).end()).as('submitted')])
          .where('questionnaire_id', 'in', ids)
          .groupBy('questionnaire_id')
          .execute();
    const released = await releasedCounts(this.db, raw.filter((r) => r.type === 'ANONYMOUS').map((r) => r.id as number));
    return raw.map((r) => {
      const c = counts.find((x) => x.questionnaire_id === r.id);
      const respondentNum = Number(c?.total ?? 0);
      // anonymous: who has submitted shows only as replies are released, in batches (filling/mixing.ts)
      const submittedNum = r.type === 'ANONYMOUS' ? (released.get(r.id as number) ?? 0) : Number(c?.submitted ?? 0);
      return {
        id: r.id as number,
        title: r.title as string,
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

  async list(user: AuthUser, query: StatisticsListQuery): Promise<{ list: StatisticsRow[]; total: number }> {
    const where = () => {
      let q = this.base(user);
      if (query.status) q = q.where('q.status', '=', query.status);
      if (query.schoolYearId) q = q.where('q.school_year_id', '=', query.schoolYearId);
      if (query.q) q = q.where(contains('q.title', query.q));
      return q;
    };
    const size = query.size ?? 20;
    const sort = SORTS[query.sort ?? 'createDate'] ?? 'q.create_date';
    const order = (query.order ?? (query.sort ? 'asc' : 'desc')).toLowerCase() === 'asc' ? 'asc' : 'desc';
    const raw = await where()
      .select(this.columns())
      .orderBy(sort as 'q.id', order)
      .orderBy('q.id', 'desc')
      .limit(size)
      .offset(((query.page ?? 1) - 1) * size)
      .execute();
    const count = await where().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return { list: await this.rows(raw), total: Number(count?.n ?? 0) };
  }

  /** One questionnaire whose results the caller may read, or 404. */
  async scoped(user: AuthUser, id: number): Promise<Scoped> {
    // at once, each on a connection of its own on PostgreSQL: the reads a call waits for add up
    // otherwise (what is read for a questionnaire the caller may not see is never answered)
    const [raw, cells] = await Promise.all([
      this.base(user).select(this.columns()).select('q.definition').where('q.id', '=', id).executeTakeFirst(),
      this.respondentCells(id),
      // results never lag behind the replies stored: what the background counting has not reached yet is counted now
      hasPendingReplies(this.db, id).then((pending) => (pending ? countPendingReplies(this.db, id) : 0)),
    ]);
    if (!raw) throw new BusinessError('RECORD_NOT_FOUND');
    const total = cells.reduce((sum, c) => sum + c.n, 0);
    const submitted = cells.filter((c) => c.submitted).reduce((sum, c) => sum + c.n, 0);
    const [row] = await this.rows([raw], { questionnaire_id: id, total, submitted });
    return { row, definition: parseDefinition(raw.definition), yearId: await audienceYear(this.db, raw.school_year_id), cells };
  }

  private async replyGroups(id: number): Promise<GroupRow[]> {
    const rows = await this.db
      .selectFrom('replies')
      .select((eb) => ['respondent_role', 'grade_id', 'class_id', eb.fn.countAll<number>().as('n')])
      .where('questionnaire_id', '=', id)
      .where('released', '=', 1)
      .groupBy(['respondent_role', 'grade_id', 'class_id'])
      .execute();
    return rows.map((r) => ({ ...r, respondent_role: r.respondent_role ?? null, grade_id: r.grade_id ?? null, class_id: r.class_id ?? null, n: Number(r.n) }));
  }

  /**
   * Whether results for the filter are withheld (anonymous questionnaires only): a group too
   * small to show, and any view of a questionnaire that has fewer replies than the minimum in all.
   */
  async withheld(scoped: Scoped, filter: StatisticsFilter): Promise<Withheld | null> {
    if (scoped.row.type !== 'ANONYMOUS') return null;
    const groups = await this.replyGroups(scoped.row.id);
    const total = groups.reduce((sum, g) => sum + g.n, 0);
    if (total > 0 && total < this.minGroupSize) return { minGroupSize: this.minGroupSize, reason: 'total' };
    return isWithheld(groups, filter, this.minGroupSize) ? { minGroupSize: this.minGroupSize, reason: 'group' } : null;
  }

  /**
   * The filter as the group columns say it (reply_answers and answer_counts have the same): a
   * grade or class means students, and a class its grade — said outright, so that what the filter
   * leaves out is plain to the planner. `none`: no reply can match (a teacher in a class).
   */
  private async groupOf(filter: StatisticsFilter): Promise<{ role?: string; gradeId?: number; classId?: number; none: boolean } | null> {
    if (!FILTER_KEYS.some(([key]) => filter[key] !== undefined)) return null;
    let gradeId = filter.gradeId;
    if (filter.classId !== undefined && gradeId === undefined) {
      gradeId = (await this.db.selectFrom('classes').select('grade_id').where('id', '=', filter.classId).executeTakeFirst())?.grade_id ?? -1;
    }
    const role = gradeId !== undefined ? 'STUDENT' : filter.role;
    return { role, gradeId, classId: filter.classId, none: filter.role !== undefined && role !== filter.role };
  }

  /** The stored text rows (reply_answers) of the questionnaire, of the filter's replies only (index: migration 0020). */
  private async answers(id: number, filter: StatisticsFilter) {
    let q = this.db.selectFrom('reply_answers as ra').where('ra.questionnaire_id', '=', id);
    const group = await this.groupOf(filter);
    if (!group) return q;
    if (group.none) q = q.where(sql<boolean>`1 = 0`);
    if (group.role !== undefined) q = q.where('ra.respondent_role', '=', group.role);
    if (group.gradeId !== undefined) q = q.where('ra.grade_id', '=', group.gradeId);
    if (group.classId !== undefined) q = q.where('ra.class_id', '=', group.classId);
    return q;
  }

  /**
   * The one grouped count every summary is made of (see answerRows.ts for the rows it counts):
   * the counters of the filter's groups summed (answer_counts, kept as rows are written), or for
   * everyone their totals (answer_totals), so its cost follows the questionnaire's size, not its
   * number of replies.
   */
  async counts(id: number, filter: StatisticsFilter): Promise<Counts> {
    const group = await this.groupOf(filter);
    let rows: { question_id: string; item: string; col: string; n: number | string }[];
    if (!group) {
      // everyone: the counters' totals (migration 0022), one row per counted thing
      rows = await this.db.selectFrom('answer_totals').select(['question_id', 'item', 'col', 'n']).where('questionnaire_id', '=', id).execute();
    } else {
      let q = this.db.selectFrom('answer_counts as ac').where('ac.questionnaire_id', '=', id);
      if (group.none) q = q.where(sql<boolean>`1 = 0`);
      if (group.role !== undefined) q = q.where('ac.respondent_role', '=', group.role);
      if (group.gradeId !== undefined) q = q.where('ac.grade_id', '=', group.gradeId);
      if (group.classId !== undefined) q = q.where('ac.class_id', '=', group.classId);
      rows = await q
        .select((eb) => ['ac.question_id', 'ac.item', 'ac.col', eb.fn.sum<number>('ac.n').as('n')])
        .groupBy(['ac.question_id', 'ac.item', 'ac.col'])
        .execute();
    }
    const counts: Counts = { cells: [], answered: new Map(), rowBases: new Map() };
    for (const r of rows) {
      const n = Number(r.n);
      if (n === 0) continue;
      if (r.item === '' && r.col === '') counts.answered.set(r.question_id, n);
      else if (r.col === '') {
        counts.rowBases.set(`${r.question_id}\u0000${r.item}`, n);
        counts.cells.push({ questionId: r.question_id, item: r.item, col: r.col, n });
      } else counts.cells.push({ questionId: r.question_id, item: r.item, col: r.col, n });
    }
    return counts;
  }

  /** The results of a questionnaire the caller may read (see `scoped`), for the filter's respondents. */
  async detail(scoped: Scoped, filter: StatisticsFilter, lang: Lang): Promise<StatisticsDetail> {
    const id = scoped.row.id;
    const withheld = await this.withheld(scoped, filter);
    const anonymous = scoped.row.type === 'ANONYMOUS';
    const cells = scoped.cells;
    const [groups, counts] = await Promise.all([this.groups(id, anonymous, cells), withheld ? null : this.counts(id, filter)]);
    const asked = cells.filter((c) => (filter.role === undefined || c.role === filter.role) && (filter.gradeId === undefined || c.gradeId === filter.gradeId) && (filter.classId === undefined || c.classId === filter.classId));
    const people = { total: asked.reduce((sum, c) => sum + c.n, 0), submitted: asked.filter((c) => c.submitted).reduce((sum, c) => sum + c.n, 0) };
    // the replies' own counter (answerRows.ts), read with the others; counted when the results are withheld
    const replyCount = counts
      ? (counts.answered.get(REPLY_QUESTION_ID) ?? 0)
      : Number((await this.releasedReplies(id, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    return {
      questionnaire: scoped.row,
      filter,
      groups,
      replyCount,
      respondentNum: Number(people?.total ?? 0),
      // anonymous: the released replies, never the live count of who has submitted
      submittedNum: anonymous ? replyCount : Number(people?.submitted ?? 0),
      releaseBatch: anonymous ? this.minGroupSize : null,
      withheld,
      questions: summarise(scoped.definition, counts, lang),
    };
  }

  /** The replies in results (released ones), of the filter's group. */
  private releasedReplies(id: number, filter: StatisticsFilter) {
    return filtered(this.db.selectFrom('replies as r').where('r.questionnaire_id', '=', id).where('r.released', '=', 1), 'r', filter);
  }

  /**
   * Who was asked, by group and state: one grouped read of the feedback records' covering index
   * (migration 0016) that the groups and the filter's counts are all made of.
   */
  private async respondentCells(id: number): Promise<RespondentCell[]> {
    const rows = await this.db
      .selectFrom('feedback')
      .select((eb) => ['respondent_role', 'grade_id', 'class_id', 'status', eb.fn.countAll<number>().as('n')])
      .where('questionnaire_id', '=', id)
      .groupBy(['respondent_role', 'grade_id', 'class_id', 'status'])
      .execute();
    return rows.map((r) => ({ role: r.respondent_role, gradeId: r.grade_id ?? null, classId: r.class_id ?? null, submitted: r.status === 'SUBMITTED', n: Number(r.n) }));
  }

  /**
   * Roles, grades and classes with respondents, and how many of each submitted: from the
   * feedback records, or for an anonymous questionnaire from its released replies.
   */
  private async groups(id: number, anonymous: boolean, cells: RespondentCell[]): Promise<StatisticsDetail['groups']> {
    const tally = <K>(key: (c: RespondentCell) => K | null) => {
      const out = new Map<K, { respondentNum: number; submittedNum: number }>();
      for (const c of cells) {
        const k = key(c);
        if (k === null) continue;
        const t = out.get(k) ?? { respondentNum: 0, submittedNum: 0 };
        t.respondentNum += c.n;
        if (c.submitted) t.submittedNum += c.n;
        out.set(k, t);
      }
      return out;
    };
    const byRole = tally((c) => c.role);
    const byGrade = tally((c) => c.gradeId);
    const byClass = tally((c) => c.classId);
    const grades = byGrade.size
      ? await this.db.selectFrom('grades').select(['id', 'name_hk', 'name_en']).where('id', 'in', [...byGrade.keys()]).orderBy('seq').orderBy('id').execute()
      : [];
    const classes = byClass.size
      ? await this.db.selectFrom('classes').select(['id', 'grade_id', 'name_hk', 'name_en']).where('id', 'in', [...byClass.keys()]).orderBy('seq').orderBy('id').execute()
      : [];
    let submittedIn = {
      role: (role: string) => byRole.get(role)?.submittedNum ?? 0,
      grade: (gradeId: number) => byGrade.get(gradeId)?.submittedNum ?? 0,
      class: (classId: number) => byClass.get(classId)?.submittedNum ?? 0,
    };
    if (anonymous) {
      const released = await this.replyGroups(id);
      const sum = (match: (g: GroupRow) => boolean) => released.filter(match).reduce((total, g) => total + g.n, 0);
      submittedIn = {
        role: (role) => sum((g) => g.respondent_role === role),
        grade: (gradeId) => sum((g) => g.respondent_role === 'STUDENT' && g.grade_id === gradeId),
        class: (classId) => sum((g) => g.respondent_role === 'STUDENT' && g.class_id === classId),
      };
    }
    return {
      roles: [...byRole.keys()].sort().map((role) => ({ role: role as RespondentRole, respondentNum: byRole.get(role)!.respondentNum, submittedNum: submittedIn.role(role) })),
      grades: grades.map((g) => ({ id: g.id, nameHk: g.name_hk, nameEn: g.name_en, respondentNum: byGrade.get(g.id)!.respondentNum, submittedNum: submittedIn.grade(g.id) })),
      classes: classes.map((c) => ({ id: c.id, gradeId: c.grade_id, nameHk: c.name_hk, nameEn: c.name_en, respondentNum: byClass.get(c.id)!.respondentNum, submittedNum: submittedIn.class(c.id) })),
    };
  }


  /** The texts of a text question, or the 'other' texts of a choice question; searched and paged. */
  async texts(user: AuthUser, id: number, query: StatisticsFilter & Paging & { questionId: string; part?: 'answer' | 'other'; q?: string }): Promise<TextPage> {
    const scoped = await this.scoped(user, id);
    const question = scoped.definition.sections.flatMap((s) => s.questions).find((q) => q.id === query.questionId);
    if (!question) throw new BusinessError('RECORD_NOT_FOUND');
    const withheld = await this.withheld(scoped, query);
    if (withheld) return { list: [], total: 0, withheld };
    const answers = await this.answers(id, query);
    const where = () => {
      let q = answers
        .where('ra.question_id', '=', query.questionId)
        .where('ra.item', '=', query.part === 'other' ? '__other__' : '')
        .where('ra.value_text', 'is not', null)
        .where('ra.value_text', '!=', '');
      if (query.q) q = q.where(contains('ra.value_text', query.q));
      return q;
    };
    const size = query.size ?? 20;
    const list = await where()
      .select(['ra.reply_id', 'ra.value_text'])
      .orderBy('ra.reply_id')
      .limit(size)
      .offset(((query.page ?? 1) - 1) * size)
      .execute();
    const total = await where().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { list: list.map((r) => ({ replyId: r.reply_id, text: r.value_text ?? '' })), total: Number(total?.n ?? 0), withheld: null };
  }

  /** Who was asked and who answered (named), or the numbered replies (anonymous). */
  async respondents(user: AuthUser, id: number, query: StatisticsFilter & Paging & { status?: 'SUBMITTED' | 'NOT_SUBMITTED'; q?: string }): Promise<RespondentPage> {
    const scoped = await this.scoped(user, id);
    const size = query.size ?? 20;
    const offset = ((query.page ?? 1) - 1) * size;
    if (scoped.row.type === 'ANONYMOUS') {
      // not the live count (it would show each submission as it comes): those asked minus the released replies
      const asked = await filtered(this.db.selectFrom('feedback as f').where('f.questionnaire_id', '=', id), 'f', query)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      const released = await this.releasedReplies(id, query).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const notSubmittedNum = Math.max(0, Number(asked?.n ?? 0) - Number(released?.n ?? 0));
      const withheld = await this.withheld(scoped, query);
      if (withheld) return { anonymous: true, list: [], total: 0, notSubmittedNum, withheld };
      const numbered = this.numbered(id);
      const where = () => filtered(this.db.selectFrom(numbered.as('r')), 'r', query);
      const list = await where().select(['r.id', 'r.number', 'r.submitted_on']).orderBy('r.number').limit(size).offset(offset).execute();
      const total = await where().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      return {
        anonymous: true,
        list: list.map((r): AnonymousRespondent => ({ number: Number(r.number), replyId: r.id, submittedOn: r.submitted_on })),
        total: Number(total?.n ?? 0),
        notSubmittedNum,
        withheld: null,
      };
    }
    const where = () => {
      let q = filtered(
        this.db
          .selectFrom('feedback as f')
          .innerJoin('users as u', 'u.id', 'f.user_id')
          .leftJoin('classes as c', 'c.id', 'f.class_id')
          .leftJoin('student_classes as sc', (join) => join.onRef('sc.user_id', '=', 'f.user_id').onRef('sc.class_id', '=', 'f.class_id').on('sc.school_year_id', '=', scoped.yearId ?? -1))
          .leftJoin('replies as r', 'r.feedback_id', 'f.id')
          .where('f.questionnaire_id', '=', id),
        'f',
        query,
      );
      if (query.status === 'SUBMITTED') q = q.where('f.status', '=', 'SUBMITTED');
      if (query.status === 'NOT_SUBMITTED') q = q.where('f.status', '!=', 'SUBMITTED');
      if (query.q) q = q.where((eb) => eb.or([contains('u.name_hk', query.q!), contains('u.name_en', query.q!), contains('u.user_no', query.q!)]));
      return q;
    };
    const list = await where()
      .select([
        'f.id',
        'f.respondent_role',
        'f.status',
        'f.submitted_at',
        'u.name_hk',
        'u.name_en',
        'u.user_no',
        'c.id as class_id',
        'c.name_hk as class_name_hk',
        'c.name_en as class_name_en',
        'sc.student_number',
        'r.id as reply_id',
      ])
      .orderBy('f.respondent_role')
      .orderBy(sql`coalesce(${sql.ref('c.seq')}, 0)`)
      .orderBy('c.id')
      .orderBy('sc.student_number')
      .orderBy('u.seq')
      .orderBy('u.id')
      .limit(size)
      .offset(offset)
      .execute();
    const total = await where().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return {
      anonymous: false,
      list: list.map(
        (r): NamedRespondent => ({
          feedbackId: r.id,
          role: r.respondent_role as RespondentRole,
          nameHk: r.name_hk,
          nameEn: r.name_en,
          userNo: r.user_no,
          class: r.class_id ? { id: r.class_id, nameHk: r.class_name_hk ?? '', nameEn: r.class_name_en ?? '' } : null,
          classNumber: r.student_number ?? null,
          status: r.status === 'SUBMITTED' ? 'SUBMITTED' : 'NOT_SUBMITTED',
          submittedAt: r.submitted_at,
          replyId: r.reply_id ?? null,
        }),
      ),
      total: Number(total?.n ?? 0),
    };
  }

  /** The questionnaire's replies in results, numbered in the order of their random id: 'anonymous N'. */
  numbered(id: number) {
    return this.db
      .selectFrom('replies')
      .select(['id', 'submitted_on', 'feedback_id', 'respondent_role', 'grade_id', 'class_id', 'answers', sql<number>`row_number() over (order by id)`.as('number')])
      .where('questionnaire_id', '=', id)
      .where('released', '=', 1);
  }

  /** One reply, whole, with the questions it answers. */
  async reply(user: AuthUser, id: number, replyId: string): Promise<StatisticsReply> {
    const scoped = await this.scoped(user, id);
    const anonymous = scoped.row.type === 'ANONYMOUS';
    // too few anonymous replies in all: none is read, whatever its id
    if (anonymous && (await this.withheld(scoped, {}))) throw new BusinessError('RECORD_NOT_FOUND');
    const reply = await this.db.selectFrom(this.numbered(id).as('r')).selectAll().where('r.id', '=', replyId).executeTakeFirst();
    if (!reply) throw new BusinessError('RECORD_NOT_FOUND');
    return {
      replyId: reply.id,
      number: anonymous ? Number(reply.number) : null,
      submittedOn: reply.submitted_on,
      definition: scoped.definition,
      answers: JSON.parse(reply.answers) as StatisticsReply['answers'],
    };
  }
}
