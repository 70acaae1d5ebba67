import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { DB } from '../db/connect.js';
import type { QuestionnairesTable } from '../db/schema.js';
import { assisting, inCharge, mayChange, mayDelete, reachable } from './scope.js';
import type { AuthUser } from '../plugins/guard.js';
import { BusinessError, FieldError } from '../plugins/errors.js';
import { definitionErrors, emptyDefinition, questionCount, type Definition } from '../../shared/questionnaire/definition.js';
import type { QuestionnaireStatus, QuestionnaireType, Target } from '../../shared/questionnaire/types.js';
import type { QuestionnaireChangeBody, QuestionnaireDetail, QuestionnairePage, QuestionnaireSummary, YearCopy, YearCopyBody } from '../../shared/calls/questionnaires.js';
import { audienceYear, carriedAudience, resolveAudience } from './audience.js';
import { finishQuestionnaire, openQuestionnaire } from './lifecycle.js';
import { releasedCounts } from '../filling/released.js';
import { CONTENT_LANGUAGES, languagesOf, missingProblem, missingTranslations, withoutOrphans } from '../../shared/questionnaire/languages.js';
import type { Lang } from '../../shared/i18n/text.js';

/** A stored questionnaire with the names of the person in charge. */
type Row = Selectable<QuestionnairesTable> & { name_hk: string; name_en: string };

/** What a create or a change gives (src/shared/calls/questionnaires.ts): a create's title is required by its schema. */
export type QuestionnaireInput = QuestionnaireChangeBody;

export interface QuestionnaireListQuery {
  page?: number;
  size?: number;
  sort?: string;
  order?: string;
  q?: string;
  status?: QuestionnaireStatus;
  schoolYearId?: number;
  scope?: 'mine' | 'assisting' | 'all';
}

const now = () => new Date().toISOString();
const SORTS: Record<string, string> = { title: 'q.title', status: 'q.status', openDate: 'q.open_date', endDate: 'q.end_date', createDate: 'q.create_date', id: 'q.id' };

/** A case-insensitive search on both databases (PostgreSQL's LIKE is case-sensitive), % and _ taken as text, as master data searches. */
export function contains(column: string, text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** The stored languages column (main first, comma-separated) as the records answer it. */
export const storedLanguages = (column: string): Lang[] => column.split(',').filter((l): l is Lang => (CONTENT_LANGUAGES as readonly string[]).includes(l));

/** What a saved definition is stored as: without translations of what it no longer has, its languages mirrored for lists. */
export function definitionColumns(definition: Definition) {
  const kept = withoutOrphans(definition);
  return { definition: JSON.stringify(kept), languages: languagesOf(kept).join(',') };
}

/**
 * "Design complete" needs every text in every language of the questionnaire: each one missing is
 * named by its place, as the definition's problems are on save (422).
 */
function untranslated(q: QuestionnaireDetail) {
  const errors: ConstructorParameters<typeof FieldError>[0] = {};
  const langs = languagesOf(q.definition);
  if (langs.length > 1 && !q.titleTranslation?.trim()) errors.titleTranslation = { rule: `definition.${missingProblem(langs[1])}` };
  for (const p of missingTranslations(q.definition)) errors[`definition.${p.path}`] = { rule: `definition.${p.problem}` };
  if (Object.keys(errors).length) throw new FieldError(errors);
}

/** A definition's problems as the 422 names them: `definition` or `definition.<path>`, each with its rule (templates check theirs so too). */
export function definitionFieldErrors(definition: Definition): ConstructorParameters<typeof FieldError>[0] {
  const errors: ConstructorParameters<typeof FieldError>[0] = {};
  for (const p of definitionErrors(definition)) errors[p.path ? `definition.${p.path}` : 'definition'] = { rule: `definition.${p.problem}` };
  return errors;
}

/** Questionnaires as staff see and change them: scoped to the caller (scope.ts), every transition checked. */
export class QuestionnaireService {
  constructor(private readonly db: DB) {}

  private base(user: AuthUser, scope: QuestionnaireListQuery['scope'] = 'all') {
    const q = this.db.selectFrom('questionnaires as q').innerJoin('users as u', 'u.id', 'q.in_charge_id');
    return q.where(scope === 'mine' ? inCharge(user) : scope === 'assisting' ? assisting(user) : reachable(user, 'design'));
  }

  async list(user: AuthUser, query: QuestionnaireListQuery): Promise<QuestionnairePage> {
    const filtered = () => {
      let q = this.base(user, query.scope);
      if (query.status) q = q.where('q.status', '=', query.status);
      if (query.schoolYearId) q = q.where('q.school_year_id', '=', query.schoolYearId);
      const text = query.q?.trim();
      if (text) q = q.where((eb) => eb.or([contains('q.title', text), contains('q.title_translation', text)]));
      return q;
    };
    const size = query.size ?? 20;
    const sort = SORTS[query.sort ?? 'createDate'] ?? 'q.create_date';
    const order = (query.order ?? (query.sort ? 'asc' : 'desc')).toLowerCase() === 'asc' ? 'asc' : 'desc';
    const rows = (await filtered()
      .selectAll('q')
      .select(['u.name_hk', 'u.name_en'])
      .orderBy(sort as 'q.id', order)
      .orderBy('q.id', 'desc')
      .limit(size)
      .offset(((query.page ?? 1) - 1) * size)
      .execute()) as Row[];
    const count = await filtered().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const list = await this.records(user, rows);
    return { list, total: Number(count?.n ?? 0) };
  }

  /** One questionnaire the caller may see, or 404 (never a hint that it exists). */
  async get(user: AuthUser, id: number): Promise<QuestionnaireDetail> {
    const row = (await this.base(user).selectAll('q').select(['u.name_hk', 'u.name_en']).where('q.id', '=', id).executeTakeFirst()) as Row | undefined;
    if (!row) throw new BusinessError('RECORD_NOT_FOUND');
    const [summary] = await this.records(user, [row]);
    return { ...summary, definition: JSON.parse(row.definition) as Definition };
  }

  /** The questionnaires as the list shows them (src/shared/calls/questionnaires.ts): without their questions. */
  private async records(user: AuthUser, rows: Row[]): Promise<QuestionnaireSummary[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const assistants = await this.db.selectFrom('questionnaire_assistants').select(['questionnaire_id', 'user_id']).where('questionnaire_id', 'in', ids).execute();
    const feedback = await this.db
      .selectFrom('feedback')
      .select((eb) => ['questionnaire_id', eb.fn.countAll().as('total'), eb.fn.sum(eb.case().when('status', '=', 'SUBMITTED').then(1).else(0).end()).as('submitted')])
      .where('questionnaire_id', 'in', ids)
      .groupBy('questionnaire_id')
      .execute();
    // anonymous: submissions show only as their replies are released, in batches (filling/mixing.ts)
    const released = await releasedCounts(this.db, rows.filter((r) => r.type === 'ANONYMOUS').map((r) => r.id));
    const out: QuestionnaireSummary[] = [];
    for (const r of rows) {
      const targets = JSON.parse(r.targets) as Target[];
      const counts = feedback.find((f) => f.questionnaire_id === r.id);
      const assistantIds = assistants.filter((a) => a.questionnaire_id === r.id).map((a) => a.user_id);
      const submitted = r.type === 'ANONYMOUS' ? (released.get(r.id) ?? 0) : Number(counts?.submitted ?? 0);
      const audienceCount = r.status === 'PREPARING' || r.status === 'NOT_OPEN' ? (await resolveAudience(this.db, targets, r.school_year_id)).respondents.length : Number(counts?.total ?? 0);
      out.push({
        id: r.id,
        title: r.title,
        titleTranslation: r.title_translation,
        languages: storedLanguages(r.languages),
        schoolYearId: r.school_year_id,
        inChargeId: r.in_charge_id,
        inCharge: { id: r.in_charge_id, nameHk: r.name_hk, nameEn: r.name_en },
        assistantIds,
        type: r.type as QuestionnaireType,
        status: r.status as QuestionnaireStatus,
        openDate: r.open_date,
        endDate: r.end_date,
        createDate: r.create_date,
        lastNoticeTime: r.last_notice_time,
        targets,
        audienceCount,
        submittedCount: submitted,
        respondentCount: Number(counts?.total ?? 0),
        hasReplies: submitted > 0,
        mayEdit: mayChange(user, { inChargeId: r.in_charge_id, assistantIds }),
      });
    }
    return out;
  }

  private checkInput(input: QuestionnaireInput, current: QuestionnaireDetail | null) {
    const errors: ConstructorParameters<typeof FieldError>[0] = {};
    const openDate = input.openDate !== undefined ? input.openDate : current?.openDate;
    const endDate = input.endDate !== undefined ? input.endDate : current?.endDate;
    if (openDate && endDate && openDate >= endDate) errors.endDate = { rule: 'dateRange' };
    if (input.definition) Object.assign(errors, definitionFieldErrors(input.definition));
    if (Object.keys(errors).length) throw new FieldError(errors);
  }

  private async checkPeople(input: QuestionnaireInput) {
    if (input.schoolYearId && !(await this.db.selectFrom('school_years').select('id').where('id', '=', input.schoolYearId).executeTakeFirst())) {
      throw new FieldError({ schoolYearId: { rule: 'reference' } });
    }
    const ids = input.assistantIds ?? [];
    if (!ids.length) return;
    const staff = await this.db.selectFrom('users').select('id').where('id', 'in', ids).where('user_type', 'in', ['ADMIN', 'SUPER_ADMIN', 'TEACHER']).execute();
    if (staff.length !== new Set(ids).size) throw new FieldError({ assistantIds: { rule: 'reference' } });
  }

  private async writeAssistants(trx: DB, id: number, inCharge: number, ids?: number[]) {
    if (!ids) return;
    await trx.deleteFrom('questionnaire_assistants').where('questionnaire_id', '=', id).execute();
    const distinct = [...new Set(ids)].filter((u) => u !== inCharge);
    if (distinct.length) await trx.insertInto('questionnaire_assistants').values(distinct.map((user_id) => ({ questionnaire_id: id, user_id }))).execute();
  }

  /**
   * A new questionnaire in PREPARING with the caller in charge. A bound Google account
   * is needed only when the school settings ask for it (QE has its own designer).
   */
  async create(user: AuthUser, input: QuestionnaireInput): Promise<QuestionnaireDetail> {
    const school = await this.db.selectFrom('school').select('google_required').orderBy('id').executeTakeFirst();
    if (school?.google_required === 1) {
      const me = await this.db.selectFrom('users').select('google_mail').where('id', '=', user.id).executeTakeFirstOrThrow();
      if (!me.google_mail) throw new BusinessError('GOOGLE_ACCOUNT_REQUIRED');
    }
    this.checkInput(input, null);
    await this.checkPeople(input);
    const id = await this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('questionnaires')
        .values({
          title: input.title!,
          school_year_id: input.schoolYearId ?? (await audienceYear(trx, null)),
          in_charge_id: user.id,
          type: input.type ?? 'NAMED',
          status: 'PREPARING',
          open_date: input.openDate ?? null,
          end_date: input.endDate ?? null,
          create_date: now(),
          last_notice_time: null,
          targets: JSON.stringify(input.targets ?? []),
          ...definitionColumns(input.definition ?? emptyDefinition()),
          title_translation: input.titleTranslation?.trim() || null,
          updated_at: now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.writeAssistants(trx, id, user.id, input.assistantIds);
      return id;
    });
    return this.get(user, id);
  }

  /** The questionnaire, if the caller may change it; else 404 (cannot see) or 405 (may see, not change). */
  async editable(user: AuthUser, id: number): Promise<QuestionnaireDetail> {
    const q = await this.get(user, id);
    if (!q.mayEdit) throw new BusinessError('PERMISSION_DENIED');
    return q;
  }

  /** Changes what the status allows: everything in PREPARING; dates, title and assistants before it finishes; the type until it opens. */
  async update(user: AuthUser, id: number, input: QuestionnaireInput): Promise<QuestionnaireDetail> {
    const q = await this.editable(user, id);
    const illegal = () => new BusinessError('ILLEGAL_TRANSITION');
    if (q.status === 'FINISHED') throw illegal();
    if (q.status !== 'PREPARING' && (input.definition !== undefined || input.targets !== undefined || input.schoolYearId !== undefined)) throw illegal();
    if (q.status === 'PROCESSING' && input.openDate !== undefined && input.openDate !== q.openDate) throw illegal();
    // named or anonymous is frozen once it opens: a respondent who opened it as anonymous must never be stored by name
    if (input.type !== undefined && input.type !== q.type && q.status !== 'PREPARING' && q.status !== 'NOT_OPEN') throw illegal();
    // before the form checks: an end in the past says so, rather than "start after end"
    if (q.status !== 'PREPARING') {
      // once ready, the dates open and finish it: they may move, but not go, and the end not into the past (as ready checks)
      const dates: ConstructorParameters<typeof FieldError>[0] = {};
      if (input.openDate === null) dates.openDate = { rule: 'required' };
      if (input.endDate === null) dates.endDate = { rule: 'required' };
      else if (input.endDate !== undefined && input.endDate !== q.endDate) {
        // a running one: the rule of extend (later than now and than the current end), so an
        // edit cannot end it behind the respondents' backs; ending it early is Close
        if (q.status === 'PROCESSING' && (input.endDate <= now() || (q.endDate !== null && input.endDate <= q.endDate))) dates.endDate = { rule: 'runningEnd' };
        else if (input.endDate <= now()) dates.endDate = { rule: 'endInPast' };
      }
      if (Object.keys(dates).length) throw new FieldError(dates);
    }
    this.checkInput(input, q);
    await this.checkPeople(input);
    await this.db.transaction().execute(async (trx) => {
      const set: Record<string, unknown> = { updated_at: now() };
      if (input.title !== undefined) set.title = input.title;
      if (input.titleTranslation !== undefined) set.title_translation = input.titleTranslation?.trim() || null;
      if (input.type !== undefined) set.type = input.type;
      if (input.openDate !== undefined) set.open_date = input.openDate;
      if (input.endDate !== undefined) set.end_date = input.endDate;
      if (input.targets !== undefined) set.targets = JSON.stringify(input.targets);
      if (input.definition !== undefined) Object.assign(set, definitionColumns(input.definition));
      if (input.schoolYearId !== undefined) set.school_year_id = input.schoolYearId;
      // only if the status is still the one checked above (a ready or an opening may have come in between)
      let change = trx.updateTable('questionnaires').set(set).where('id', '=', id).where('status', '=', q.status);
      // a running one's end checked above against the end it had: not against one an extend moved since
      if (q.status === 'PROCESSING' && input.endDate !== undefined && input.endDate !== q.endDate && q.endDate !== null) change = change.where('end_date', '=', q.endDate);
      const r = await change.executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw illegal();
      await this.writeAssistants(trx, id, q.inChargeId, input.assistantIds);
    });
    return this.get(user, id);
  }

  async remove(user: AuthUser, id: number): Promise<void> {
    const q = await this.get(user, id);
    if (!mayDelete(user, q)) throw new BusinessError('PERMISSION_DENIED');
    if (q.status !== 'PREPARING' && q.status !== 'NOT_OPEN') throw new BusinessError('ILLEGAL_TRANSITION');
    const r = await this.db.deleteFrom('questionnaires').where('id', '=', id).where('status', 'in', ['PREPARING', 'NOT_OPEN']).executeTakeFirst();
    if (Number(r.numDeletedRows) !== 1) throw new BusinessError('ILLEGAL_TRANSITION');
  }

  /** Design complete: PREPARING → NOT_OPEN, and at once PROCESSING when the open date has come. */
  async ready(user: AuthUser, id: number): Promise<QuestionnaireDetail> {
    const q = await this.editable(user, id);
    if (q.status !== 'PREPARING') throw new BusinessError('ILLEGAL_TRANSITION');
    if (!q.definition || questionCount(q.definition) === 0) throw new BusinessError('NO_QUESTIONS');
    if (q.audienceCount === 0) throw new BusinessError('NO_AUDIENCE');
    untranslated(q);
    const missing: ConstructorParameters<typeof FieldError>[0] = {};
    if (!q.openDate) missing.openDate = { rule: 'required' };
    if (!q.endDate) missing.endDate = { rule: 'required' };
    if (Object.keys(missing).length) throw new FieldError(missing);
    if (q.endDate! <= now()) throw new FieldError({ endDate: { rule: 'endInPast' } });
    const r = await this.db.updateTable('questionnaires').set({ status: 'NOT_OPEN', updated_at: now() }).where('id', '=', id).where('status', '=', 'PREPARING').executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new BusinessError('ILLEGAL_TRANSITION');
    if (q.openDate! <= now()) await openQuestionnaire(this.db, id);
    return this.get(user, id);
  }

  /** Cancel ready: NOT_OPEN → PREPARING, only before it opens. */
  async cancelReady(user: AuthUser, id: number): Promise<QuestionnaireDetail> {
    await this.editable(user, id);
    return this.transition(user, id, 'NOT_OPEN', 'PREPARING');
  }

  /** Close early: PROCESSING → FINISHED, as its end date would (lifecycle.ts: its drafts go with it). */
  async close(user: AuthUser, id: number): Promise<QuestionnaireDetail> {
    await this.editable(user, id);
    if (!(await finishQuestionnaire(this.db, id))) throw new BusinessError('ILLEGAL_TRANSITION');
    return this.get(user, id);
  }

  private async transition(user: AuthUser, id: number, from: QuestionnaireStatus, to: QuestionnaireStatus) {
    const r = await this.db.updateTable('questionnaires').set({ status: to, updated_at: now() }).where('id', '=', id).where('status', '=', from).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new BusinessError('ILLEGAL_TRANSITION');
    return this.get(user, id);
  }

  /** A later end date for a questionnaire in progress. */
  async extend(user: AuthUser, id: number, endDate: string): Promise<QuestionnaireDetail> {
    const q = await this.editable(user, id);
    if (q.status !== 'PROCESSING') throw new BusinessError('ILLEGAL_TRANSITION');
    if (endDate <= now() || (q.endDate && endDate <= q.endDate)) throw new FieldError({ endDate: { rule: 'laterEnd' } });
    await this.db.updateTable('questionnaires').set({ end_date: endDate, updated_at: now() }).where('id', '=', id).execute();
    return this.get(user, id);
  }

  /**
   * Last year's questionnaire again: a draft in the current school year with the caller in charge,
   * no dates, the type chosen again, its audience carried over (audience.ts carriedAudience).
   */
  async copyForYear(user: AuthUser, id: number, body: YearCopyBody): Promise<YearCopy> {
    const q = await this.get(user, id);
    const toYear = await audienceYear(this.db, null);
    const { targets, remap } = await carriedAudience(this.db, q.targets, q.schoolYearId, toYear, body.audience);
    const made = await this.create(user, { title: q.title, titleTranslation: q.titleTranslation, type: body.type, targets, definition: q.definition, assistantIds: q.assistantIds, schoolYearId: toYear });
    return { questionnaire: await this.madeFrom(user, made.id, id), remap };
  }

  /** A copy in PREPARING with the caller in charge: questions, audience, type and assistants. */
  async copy(user: AuthUser, id: number): Promise<QuestionnaireDetail> {
    const q = await this.get(user, id);
    const made = await this.create(user, { title: q.title, titleTranslation: q.titleTranslation, type: q.type, targets: q.targets, definition: q.definition, assistantIds: q.assistantIds, schoolYearId: q.schoolYearId });
    return this.madeFrom(user, made.id, id);
  }

  /** A copy names its source: the two are one series, their questions matched by id (statistics/series.ts). */
  private async madeFrom(user: AuthUser, id: number, sourceId: number): Promise<QuestionnaireDetail> {
    await this.db.updateTable('questionnaires').set({ source_id: sourceId }).where('id', '=', id).execute();
    return this.get(user, id);
  }
}
