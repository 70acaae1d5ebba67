import { sql } from 'kysely';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import { contains } from '../questionnaires/service.js';
import { OTHER } from '../../shared/questionnaire/answers.js';
import type {
  AnonymousRespondent,
  NamedRespondent,
  RespondentPage,
  StatisticsFilter,
  StatisticsReply,
  StatisticsRespondentsQuery,
  StatisticsTextsQuery,
  TextPage,
} from '../../shared/calls/statistics.js';
import type { RespondentRole } from '../../shared/statistics/enums.js';
import { filtered, groupOf } from './filters.js';
import { withheldResults } from './withholding.js';
import { releasedReplies } from './detail.js';
import { answersUsing, termOfQuery } from './frequentTerms.js';
import type { Scoped } from './scoped.js';

/** The stored text rows (reply_answers) of the questionnaire, of the filter's replies only (index: migration 0020). */
async function textRows(db: DB, id: number, filter: StatisticsFilter) {
  let q = db.selectFrom('reply_answers as ra').where('ra.questionnaire_id', '=', id);
  const group = await groupOf(db, filter);
  if (!group) return q;
  if (group.none) q = q.where(sql<boolean>`1 = 0`);
  if (group.role !== undefined) q = q.where('ra.respondent_role', '=', group.role);
  if (group.gradeId !== undefined) q = q.where('ra.grade_id', '=', group.gradeId);
  if (group.classId !== undefined) q = q.where('ra.class_id', '=', group.classId);
  return q;
}

/** The texts of a text question, or the 'other' texts of a choice question; searched and paged. */
export async function textPage(db: DB, minGroupSize: number, scoped: Scoped, query: StatisticsTextsQuery, mayMark: boolean): Promise<TextPage> {
  const id = scoped.row.id;
  const question = scoped.definition.sections.flatMap((s) => s.questions).find((q) => q.id === query.questionId);
  if (!question) throw new BusinessError('RECORD_NOT_FOUND');
  const withheld = await withheldResults(db, scoped.row, query, minGroupSize);
  if (withheld) return { list: [], total: 0, withheld, mayMark };
  const answers = await textRows(db, id, query);
  // staff's marks (marks.ts): an answer without one is hidden
  const shownAnswers = () => db.selectFrom('text_answer_marks').select('reply_id').where('questionnaire_id', '=', id).where('question_id', '=', query.questionId).where('shown', '=', 1);
  const where = () => {
    let q = answers
      .where('ra.question_id', '=', query.questionId)
      .where('ra.item', '=', query.part === 'other' ? OTHER : '')
      .where('ra.value_text', 'is not', null)
      .where('ra.value_text', '!=', '');
    if (query.q) q = q.where(contains('ra.value_text', query.q));
    if (query.term) q = q.where('ra.reply_id', 'in', answersUsing(db, id, query.questionId, query.part === 'other' ? OTHER : '', termOfQuery(query.term)));
    if (query.shown !== undefined) q = q.where('ra.reply_id', query.shown ? 'in' : 'not in', shownAnswers());
    return q;
  };
  const size = query.size ?? 20;
  const list = await where()
    .leftJoin('text_answer_marks as m', (join) => join.onRef('m.reply_id', '=', 'ra.reply_id').onRef('m.question_id', '=', 'ra.question_id'))
    .select(['ra.reply_id', 'ra.value_text', 'm.shown'])
    .orderBy('ra.reply_id')
    .limit(size)
    .offset(((query.page ?? 1) - 1) * size)
    .execute();
  const total = await where().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  // an 'other' text is part of a choice: marked with it, never on its own
  const marked = query.part !== 'other';
  return { list: list.map((r) => ({ replyId: r.reply_id, text: r.value_text ?? '', shown: marked && Number(r.shown) === 1 })), total: Number(total?.n ?? 0), withheld: null, mayMark };
}

/** Who was asked and who answered (named), or the numbered replies (anonymous). */
export async function respondentPage(db: DB, minGroupSize: number, scoped: Scoped, query: StatisticsRespondentsQuery): Promise<RespondentPage> {
  const id = scoped.row.id;
  const size = query.size ?? 20;
  const offset = ((query.page ?? 1) - 1) * size;
  if (scoped.row.type === 'ANONYMOUS') {
    // not the live count (it would show each submission as it comes): those asked minus the released replies
    const asked = await filtered(db.selectFrom('feedback as f').where('f.questionnaire_id', '=', id), 'f', query)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    const released = await releasedReplies(db, id, query).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const notSubmittedNum = Math.max(0, Number(asked?.n ?? 0) - Number(released?.n ?? 0));
    const withheld = await withheldResults(db, scoped.row, query, minGroupSize);
    if (withheld) return { anonymous: true, list: [], total: 0, notSubmittedNum, withheld };
    const numbered = numberedReplies(db, id);
    const where = () => filtered(db.selectFrom(numbered.as('r')), 'r', query);
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
      db
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
export function numberedReplies(db: DB, id: number) {
  return db
    .selectFrom('replies')
    .select(['id', 'submitted_on', 'feedback_id', 'respondent_role', 'grade_id', 'class_id', 'answers', sql<number>`row_number() over (order by id)`.as('number')])
    .where('questionnaire_id', '=', id)
    .where('released', '=', 1);
}

/** One reply, whole, with the questions it answers. */
export async function oneReply(db: DB, minGroupSize: number, scoped: Scoped, replyId: string): Promise<StatisticsReply> {
  const id = scoped.row.id;
  const anonymous = scoped.row.type === 'ANONYMOUS';
  // too few anonymous replies in all: none is read, whatever its id
  if (anonymous && (await withheldResults(db, scoped.row, {}, minGroupSize))) throw new BusinessError('RECORD_NOT_FOUND');
  const reply = await db.selectFrom(numberedReplies(db, id).as('r')).selectAll().where('r.id', '=', replyId).executeTakeFirst();
  if (!reply) throw new BusinessError('RECORD_NOT_FOUND');
  return {
    replyId: reply.id,
    number: anonymous ? Number(reply.number) : null,
    submittedOn: reply.submitted_on,
    definition: scoped.definition,
    answers: JSON.parse(reply.answers) as StatisticsReply['answers'],
  };
}
