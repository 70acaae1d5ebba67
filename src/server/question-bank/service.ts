import { sql, type Selectable, type Updateable } from 'kysely';
import type { DB } from '../db/connect.js';
import type { QuestionBankTable } from '../db/schema.js';
import type { AuthUser } from '../plugins/guard.js';
import { BusinessError, FieldError } from '../plugins/errors.js';
import { contains, definitionColumns, QuestionnaireService, storedLanguages } from '../questionnaires/service.js';
import { definitionErrors, type Choice, type Definition, type QuestionType } from '../../shared/questionnaire/definition.js';
import { BANK_SECTION_ID, bankDefinitionOf, bankQuestionIn, bankTexts, bankTitleIn } from '../../shared/questionnaire/bank.js';
import type { Lang } from '../../shared/i18n/text.js';
import type { BankChangeBody, BankPage, BankQuery, BankQuestion, BankSaveBody, BankTags } from '../../shared/calls/question-bank.js';

type Row = Selectable<QuestionBankTable> & { name_hk: string | null; name_en: string | null };
type FieldErrors = ConstructorParameters<typeof FieldError>[0];

const now = () => new Date().toISOString();

/** The tags as kept: trimmed, inner spaces as one, each once (ignoring case), in the order given. */
export function tidyTags(tags: readonly string[] = []): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().replace(/\s+/g, ' ');
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** The tag filter's column: the tags in lower case between bars. */
const tagKeys = (tags: string[]) => `|${tags.map((t) => t.toLowerCase()).join('|')}|`;

/** The escaped LIKE pattern of a tag among the bars. */
const tagPattern = (tag: string) => `%|${tag.trim().replace(/\s+/g, ' ').toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}|%`;

/** A one-question definition's problems as field errors under `definition.` (the designer's paths). */
function checked(definition: Definition): Definition {
  const errors: FieldErrors = {};
  for (const p of definitionErrors(definition)) errors[p.path ? `definition.${p.path}` : 'definition'] = { rule: `definition.${p.problem}` };
  const sections = (definition as { sections?: unknown }).sections;
  if (!Object.keys(errors).length && (!Array.isArray(sections) || sections.length !== 1 || definition.sections[0].questions.length !== 1)) errors.definition = { rule: 'definition.notAQuestion' };
  if (Object.keys(errors).length) throw new FieldError(errors);
  return definition;
}

/** The ids of a list of choices, in order, as one string: what a change of wording keeps. */
const idsOf = (list?: Choice[]) => (list ?? []).map((c) => c.id).join('\u0000');

/**
 * The school's question bank (docs/product-rules.md#question-bank): questions saved from a
 * questionnaire the caller may read (the question as the questionnaire is stored, never as the
 * caller sends it), tagged, searched in both languages, reworded, retired and restored. A
 * question inserted from the bank names it (`bankId`), and the comparison across years matches
 * it by that (statistics/series.ts).
 */
export class QuestionBankService {
  private readonly questionnaires: QuestionnaireService;

  constructor(private readonly db: DB) {
    this.questionnaires = new QuestionnaireService(db);
  }

  private record(r: Row, lang: Lang): BankQuestion {
    const names = r.name_hk === null ? null : lang === 'en' ? r.name_en || r.name_hk : r.name_hk;
    return {
      id: r.id,
      type: r.type as QuestionType,
      titleHk: r.title_hk,
      titleEn: r.title_en,
      languages: storedLanguages(r.languages),
      tags: JSON.parse(r.tags) as string[],
      definition: JSON.parse(r.definition) as Definition,
      retired: r.retired === 1,
      createdBy: r.created_by,
      createdByName: names,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  private base() {
    return this.db.selectFrom('question_bank as b').leftJoin('users as u', 'u.id', 'b.created_by');
  }

  /** Newest first; `q` over every text of both languages and the tags, `tag` one tag, `type` one type. */
  async list(query: BankQuery, lang: Lang): Promise<BankPage> {
    const filtered = () => {
      let q = this.base().where('b.retired', '=', query.retired ? 1 : 0);
      const text = query.q?.trim();
      if (text) q = q.where(contains('b.search_text', text));
      if (query.tag?.trim()) q = q.where(sql<boolean>`b.tag_keys like ${tagPattern(query.tag)} escape '\\'`);
      if (query.type) q = q.where('b.type', '=', query.type);
      return q;
    };
    const size = query.size ?? 20;
    const rows = await filtered()
      .selectAll('b')
      .select(['u.name_hk', 'u.name_en'])
      .orderBy('b.updated_at', 'desc')
      .orderBy('b.id', 'desc')
      .limit(size)
      .offset(((query.page ?? 1) - 1) * size)
      .execute();
    const count = await filtered().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return { list: rows.map((r) => this.record(r as Row, lang)), total: Number(count?.n ?? 0) };
  }

  /** The tags of the questions not retired, most used first, then by name (at most 100). */
  async tags(): Promise<BankTags> {
    const rows = await this.db.selectFrom('question_bank').select('tags').where('retired', '=', 0).execute();
    const counts = new Map<string, { tag: string; count: number }>();
    for (const r of rows) {
      for (const tag of JSON.parse(r.tags) as string[]) {
        const key = tag.toLowerCase();
        const entry = counts.get(key) ?? { tag, count: 0 };
        entry.count += 1;
        counts.set(key, entry);
      }
    }
    return [...counts.values()].sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0)).slice(0, 100);
  }

  private async row(id: number): Promise<Row> {
    const row = await this.base().selectAll('b').select(['u.name_hk', 'u.name_en']).where('b.id', '=', id).executeTakeFirst();
    if (!row) throw new BusinessError('RECORD_NOT_FOUND');
    return row as Row;
  }

  async get(id: number, lang: Lang): Promise<BankQuestion> {
    return this.record(await this.row(id), lang);
  }

  /** The columns a bank question's definition and tags are kept in. */
  private columns(definition: Definition, tags: string[]) {
    const { definition: json, languages } = definitionColumns(definition);
    return {
      definition: json,
      languages,
      type: bankQuestionIn(definition).type,
      title_hk: bankTitleIn(definition, 'zh-hk'),
      title_en: bankTitleIn(definition, 'en'),
      tags: JSON.stringify(tags),
      tag_keys: tagKeys(tags),
      search_text: [...bankTexts(definition), ...tags].join('\n').toLowerCase(),
    };
  }

  /**
   * Question `questionId` of questionnaire `questionnaireId` as the questionnaire is saved — one
   * the caller may read, else 404 as any other — into the bank with its texts in every language of
   * the questionnaire, its go-to targets dropped, the tags given.
   */
  async save(user: AuthUser, body: BankSaveBody, lang: Lang): Promise<BankQuestion> {
    const q = await this.questionnaires.get(user, body.questionnaireId);
    const definition = bankDefinitionOf(q.definition, body.questionId);
    if (!definition) throw new BusinessError('BANK_QUESTION_MISSING');
    checked(definition);
    const { id } = await this.db
      .insertInto('question_bank')
      .values({
        ...this.columns(definition, tidyTags(body.tags)),
        source_questionnaire_id: q.id,
        source_question_id: body.questionId,
        created_by: user.id,
        created_at: now(),
        updated_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return this.get(id, lang);
  }

  /**
   * Tags, wording or both. New wording is the whole one-question definition, checked as a
   * questionnaire's: the same type, question id, options, rows and columns in the same order (744
   * otherwise), so that questionnaires it was inserted into still line up with it.
   */
  async update(id: number, body: BankChangeBody, lang: Lang): Promise<BankQuestion> {
    const current = await this.row(id);
    if (current.retired === 1) throw new BusinessError('BANK_QUESTION_RETIRED');
    const before = JSON.parse(current.definition) as Definition;
    let definition = before;
    if (body.definition !== undefined) {
      definition = checked(body.definition);
      const [was, is] = [bankQuestionIn(before), bankQuestionIn(definition)];
      const same = was.id === is.id && was.type === is.type && definition.sections[0].id === BANK_SECTION_ID && (['options', 'rows', 'columns'] as const).every((l) => idsOf(was[l]) === idsOf(is[l]));
      if (!same || is.bankId !== undefined || is.options?.some((o) => o.goTo !== undefined)) throw new BusinessError('BANK_WORDING_ONLY');
    }
    const tags = body.tags !== undefined ? tidyTags(body.tags) : (JSON.parse(current.tags) as string[]);
    const set: Updateable<QuestionBankTable> = { ...this.columns(definition, tags), updated_at: now() };
    await this.db.updateTable('question_bank').set(set).where('id', '=', id).execute();
    return this.get(id, lang);
  }

  /** Retired: hidden from the search, not to be changed; restored: back again. Never deleted: questionnaires name it. */
  async retire(id: number, retired: boolean, lang: Lang): Promise<BankQuestion> {
    await this.row(id);
    await this.db.updateTable('question_bank').set({ retired: retired ? 1 : 0, updated_at: now() }).where('id', '=', id).execute();
    return this.get(id, lang);
  }
}
