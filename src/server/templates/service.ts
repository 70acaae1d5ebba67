import type { Selectable, Updateable } from 'kysely';
import type { DB } from '../db/connect.js';
import type { QuestionnaireTemplatesTable } from '../db/schema.js';
import type { AuthUser } from '../plugins/guard.js';
import { BusinessError, FieldError } from '../plugins/errors.js';
import { contains, definitionColumns, definitionFieldErrors, QuestionnaireService, storedLanguages } from '../questionnaires/service.js';
import { questionCount, type Definition } from '../../shared/questionnaire/definition.js';
import { languagesOf } from '../../shared/questionnaire/languages.js';
import type { QuestionnaireType, Target } from '../../shared/questionnaire/types.js';
import type { Lang } from '../../shared/i18n/text.js';
import type {
  AudienceKind,
  SaveAsTemplateBody,
  TemplateChangeBody,
  TemplateDetail,
  TemplatePage,
  TemplatesQuery,
  TemplateSummary,
  TemplateUse,
  UseTemplateBody,
} from '../../shared/calls/templates.js';

type Row = Selectable<QuestionnaireTemplatesTable>;
type FieldErrors = ConstructorParameters<typeof FieldError>[0];

const now = () => new Date().toISOString();
const SORTS = { nameHk: 'name_hk', nameEn: 'name_en', updatedAt: 'updated_at' } as const;

/** The audience kind a questionnaire's choices amount to, when they amount to one that outlives the year; else NONE. */
async function kindOf(db: DB, targets: Target[]): Promise<{ audienceKind: AudienceKind; gradeCode: string | null }> {
  const kinds = targets.map((t) => t.kind).sort().join(',');
  if (kinds === 'ALL_STUDENTS') return { audienceKind: 'ALL_STUDENTS', gradeCode: null };
  if (kinds === 'ALL_TEACHERS') return { audienceKind: 'ALL_TEACHERS', gradeCode: null };
  if (kinds === 'ALL_STUDENTS,ALL_TEACHERS') return { audienceKind: 'EVERYONE', gradeCode: null };
  if (kinds === 'GRADE' && targets[0].ids?.length === 1) {
    const grade = await db.selectFrom('grades').select('code').where('id', '=', targets[0].ids[0]).executeTakeFirst();
    if (grade) return { audienceKind: 'STUDENTS_OF_GRADE', gradeCode: grade.code };
  }
  return { audienceKind: 'NONE', gradeCode: null };
}

/** The template's name in each of the definition's languages: a questionnaire made from it is titled so. */
function titlesOf(row: { name_hk: string; name_en: string }, definition: Definition) {
  const [main, second] = languagesOf(definition);
  const nameIn = (lang: Lang) => (lang === 'en' ? row.name_en : row.name_hk);
  return { title: nameIn(main), titleTranslation: second ? nameIn(second) : null };
}

/**
 * The school's questionnaire templates (docs/product-rules.md#templates): saved from a
 * questionnaire, listed and searched in both languages, edited, retired and restored, and used to
 * start a questionnaire whose questions keep the template's ids, so that every questionnaire made
 * from one template is one series (statistics/series.ts).
 */
export class TemplateService {
  private readonly questionnaires: QuestionnaireService;

  constructor(private readonly db: DB) {
    this.questionnaires = new QuestionnaireService(db);
  }

  private summary(r: Row): TemplateSummary {
    return {
      id: r.id,
      nameHk: r.name_hk,
      nameEn: r.name_en,
      descriptionHk: r.description_hk,
      descriptionEn: r.description_en,
      languages: storedLanguages(r.languages),
      type: r.type as QuestionnaireType,
      audienceKind: r.audience_kind as AudienceKind,
      gradeCode: r.grade_code,
      questionCount: questionCount(JSON.parse(r.definition) as Definition),
      retired: r.retired === 1,
      starter: r.starter_key !== null,
      createdBy: r.created_by,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  async list(query: TemplatesQuery, lang: Lang): Promise<TemplatePage> {
    const filtered = () => {
      let q = this.db.selectFrom('questionnaire_templates').where('retired', '=', query.retired ? 1 : 0);
      const text = query.q?.trim();
      if (text) q = q.where((eb) => eb.or(['name_hk', 'name_en', 'description_hk', 'description_en'].map((c) => contains(c, text))));
      return q;
    };
    const size = query.size ?? 20;
    // by name in the reader's language unless asked otherwise
    const sort = query.sort ? SORTS[query.sort] : lang === 'en' ? 'name_en' : 'name_hk';
    const order = (query.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
    const rows = await filtered().selectAll().orderBy(sort, order).orderBy('id').limit(size).offset(((query.page ?? 1) - 1) * size).execute();
    const count = await filtered().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return { list: rows.map((r) => this.summary(r)), total: Number(count?.n ?? 0) };
  }

  private async row(id: number): Promise<Row> {
    const row = await this.db.selectFrom('questionnaire_templates').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new BusinessError('RECORD_NOT_FOUND');
    return row;
  }

  /** One template with its definition: the preview. */
  async get(id: number): Promise<TemplateDetail> {
    const row = await this.row(id);
    return { ...this.summary(row), definition: JSON.parse(row.definition) as Definition };
  }

  /** STUDENTS_OF_GRADE needs a grade that exists now; the other kinds name none. */
  private async audience(kind: AudienceKind, gradeCode: string | null | undefined): Promise<string | null> {
    if (kind !== 'STUDENTS_OF_GRADE') return null;
    const code = gradeCode?.trim();
    if (!code) throw new FieldError({ gradeCode: { rule: 'required' } });
    if (!(await this.db.selectFrom('grades').select('id').where('code', '=', code).executeTakeFirst())) throw new FieldError({ gradeCode: { rule: 'reference' } });
    return code;
  }

  private checkDefinition(definition: Definition) {
    const errors: FieldErrors = definitionFieldErrors(definition);
    if (Object.keys(errors).length) throw new FieldError(errors);
    if (questionCount(definition) === 0) throw new BusinessError('NO_QUESTIONS');
  }

  /**
   * A questionnaire the caller may read, saved as a template: its definition with the question ids
   * unchanged, both languages, its type and audience kind (given, else read from its choices); no
   * dates, replies, person in charge or assistants. The questionnaire then names the template, so
   * the questionnaires made from it later are compared with it.
   */
  async saveAs(user: AuthUser, questionnaireId: number, body: SaveAsTemplateBody): Promise<TemplateDetail> {
    const q = await this.questionnaires.get(user, questionnaireId);
    this.checkDefinition(q.definition);
    const derived = body.audienceKind ? { audienceKind: body.audienceKind, gradeCode: body.gradeCode ?? null } : await kindOf(this.db, q.targets);
    const gradeCode = await this.audience(derived.audienceKind, derived.gradeCode);
    const { id } = await this.db
      .insertInto('questionnaire_templates')
      .values({
        name_hk: body.nameHk,
        name_en: body.nameEn,
        description_hk: body.descriptionHk?.trim() || null,
        description_en: body.descriptionEn?.trim() || null,
        ...definitionColumns(q.definition),
        type: q.type,
        audience_kind: derived.audienceKind,
        grade_code: gradeCode,
        starter_key: null,
        created_by: user.id,
        created_at: now(),
        updated_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // the questionnaire it was saved from is the first of the template's series, unless it is of one already
    await this.db.updateTable('questionnaires').set({ template_id: id }).where('id', '=', questionnaireId).where('template_id', 'is', null).execute();
    return this.get(id);
  }

  /** Names, descriptions, definition (checked as a questionnaire's), type and audience kind: the fields given change. */
  async update(id: number, body: TemplateChangeBody): Promise<TemplateDetail> {
    const current = await this.row(id);
    if (body.definition) this.checkDefinition(body.definition);
    const set: Updateable<QuestionnaireTemplatesTable> = { updated_at: now() };
    if (body.nameHk !== undefined) set.name_hk = body.nameHk;
    if (body.nameEn !== undefined) set.name_en = body.nameEn;
    if (body.descriptionHk !== undefined) set.description_hk = body.descriptionHk?.trim() || null;
    if (body.descriptionEn !== undefined) set.description_en = body.descriptionEn?.trim() || null;
    if (body.definition !== undefined) Object.assign(set, definitionColumns(body.definition));
    if (body.type !== undefined) set.type = body.type;
    if (body.audienceKind !== undefined || body.gradeCode !== undefined) {
      const kind = body.audienceKind ?? (current.audience_kind as AudienceKind);
      set.audience_kind = kind;
      set.grade_code = await this.audience(kind, body.gradeCode !== undefined ? body.gradeCode : current.grade_code);
    }
    await this.db.updateTable('questionnaire_templates').set(set).where('id', '=', id).execute();
    return this.get(id);
  }

  /** Retired: hidden from the list, not to be used; restored: back again. */
  async retire(id: number, retired: boolean): Promise<TemplateDetail> {
    await this.row(id);
    await this.db.updateTable('questionnaire_templates').set({ retired: retired ? 1 : 0, updated_at: now() }).where('id', '=', id).execute();
    return this.get(id);
  }

  /**
   * New from template: a questionnaire in PREPARING in the current school year, the caller in
   * charge, no dates, the template's questions with their ids, its audience the template's kind
   * in this year, or the kind the caller chose instead (a grade by its code: one that no longer
   * exists leaves the audience empty, and the answer says so).
   */
  async use(user: AuthUser, id: number, body: UseTemplateBody): Promise<TemplateUse> {
    // a template is read with form-template.view; making a questionnaire is the route's form.add
    if (!user.permissions.has('form-template.view')) throw new BusinessError('PERMISSION_DENIED');
    const row = await this.row(id);
    if (row.retired === 1) throw new BusinessError('TEMPLATE_RETIRED');
    const definition = JSON.parse(row.definition) as Definition;
    // another kind chosen for this questionnaire: its grade must exist now (422 gradeCode)
    const kind = body.audienceKind ?? (row.audience_kind as AudienceKind);
    const code = body.audienceKind ? await this.audience(body.audienceKind, body.gradeCode) : row.grade_code;
    let targets: Target[] = [];
    let found = true;
    if (kind === 'ALL_STUDENTS') targets = [{ kind: 'ALL_STUDENTS' }];
    else if (kind === 'ALL_TEACHERS') targets = [{ kind: 'ALL_TEACHERS' }];
    else if (kind === 'EVERYONE') targets = [{ kind: 'ALL_STUDENTS' }, { kind: 'ALL_TEACHERS' }];
    else if (kind === 'STUDENTS_OF_GRADE') {
      const grade = await this.db.selectFrom('grades').select('id').where('code', '=', code ?? '').executeTakeFirst();
      if (grade) targets = [{ kind: 'GRADE', ids: [grade.id] }];
      else found = false;
    }
    const made = await this.questionnaires.create(user, {
      ...titlesOf(row, definition),
      type: body.type ?? (row.type as QuestionnaireType),
      targets,
      definition,
    });
    await this.db.updateTable('questionnaires').set({ template_id: id }).where('id', '=', made.id).execute();
    return { questionnaire: await this.questionnaires.get(user, made.id), audience: { kind, gradeCode: code, found } };
  }
}
