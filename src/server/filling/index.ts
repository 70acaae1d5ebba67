import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { quickLoginRoutes } from './quick.js';
import { schoolClock } from '../school/clock.js';
import { schoolDate } from '../../shared/school-clock.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError, requestLang } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import { answersOnPath, replyProblems, type Answers } from '../../shared/questionnaire/answers.js';
import type { Definition } from '../../shared/questionnaire/definition.js';
import type { QuestionnaireStatus, QuestionnaireType } from '../../shared/questionnaire/types.js';
import { FILLING_ANSWERS, myQuestionnaireParams, myQuestionnairesQuery, replyBody, type MyQuestionnaire, type MyQuestionnaireDetail, type MyQuestionnairesQuery, type ReplyBody } from '../../shared/calls/filling.js';
import { messageText } from '../../shared/master/labels.js';
import type { ReplyCounting } from '../statistics/counting.js';
import { newReplyId } from './reply-ids.js';
import { SubmissionWriter } from './submissions.js';
import { storedLanguages } from '../questionnaires/service.js';
import { DefinitionsById } from '../questionnaires/definitions.js';
import { draftRoutes } from './drafts.js';
import { Respondents, refuseUnlessOpen } from './respondent.js';

const tags = ['filling'];

type Mine = {
  id: number;
  title: string;
  title_translation: string | null;
  languages: string;
  status: QuestionnaireStatus;
  type: QuestionnaireType;
  open_date: string | null;
  end_date: string | null;
  school_year_id: number | null;
  feedback_id: number;
  feedback_status: MyQuestionnaire['feedbackStatus'];
  submitted_at: string | null;
  designated_code: string;
  name_hk: string;
  name_en: string;
};

/**
 * The respondent's side (docs/architecture.md#a-submission): the questionnaires that target me, one to answer,
 * and the submission — validated against the questions, stored once in one transaction,
 * idempotent by the client's submission key, and for an anonymous questionnaire stored with
 * nothing that joins it to me.
 */
export async function fillingRoutes(app: FastifyInstance, { db, config, counting }: { db: DB; config: Config; counting: ReplyCounting }) {
  await quickLoginRoutes(app, { db, config });
  const submissions = new SubmissionWriter(db);
  const mine = (userId: number) =>
    db
      .selectFrom('feedback as f')
      .innerJoin('questionnaires as q', 'q.id', 'f.questionnaire_id')
      .innerJoin('users as u', 'u.id', 'q.in_charge_id')
      .select([
        'q.id',
        'q.title',
        'q.title_translation',
        'q.languages',
        'q.status',
        'q.type',
        'q.open_date',
        'q.end_date',
        'q.school_year_id',
        'f.id as feedback_id',
        'f.status as feedback_status',
        'f.submitted_at',
        'f.designated_code',
        'u.name_hk',
        'u.name_en',
      ])
      .where('f.user_id', '=', userId);

  // what a submission reads: the feedback record and the questionnaire's state (respondent.ts); its definition from memory (definitions.ts)
  const definitions = new DefinitionsById(db);
  const respondents = new Respondents(db);
  // a named questionnaire's answers being typed, kept on the server too (drafts.ts)
  await draftRoutes(app, { db, respondents, definitions });

  const answer = (r: Mine): MyQuestionnaire => ({
    id: r.id,
    title: r.title,
    titleTranslation: r.title_translation,
    languages: storedLanguages(r.languages),
    status: r.status,
    type: r.type,
    openDate: r.open_date,
    endDate: r.end_date,
    schoolYearId: r.school_year_id,
    inCharge: { nameHk: r.name_hk, nameEn: r.name_en },
    feedbackStatus: r.feedback_status,
    submittedAt: r.submitted_at,
    designatedCode: r.designated_code,
  });

  app.get<{ Querystring: MyQuestionnairesQuery }>('/v1/my/questionnaires', {
    config: { permission: 'form-input.view' },
    schema: { tags, summary: 'The questionnaires I am asked to answer, those in progress first: {list, total}', querystring: myQuestionnairesQuery, response: FILLING_ANSWERS.list },
  }, async (request) => {
    const me = currentUser(request);
    const { schoolYearId, status, feedbackStatus, page = 1, size = 20 } = request.query;
    let q = mine(me.id);
    if (schoolYearId) q = q.where('q.school_year_id', '=', schoolYearId);
    if (status) q = q.where('q.status', '=', status);
    if (feedbackStatus) q = q.where('f.status', '=', feedbackStatus);
    const rows = (await q
      .orderBy((eb) => eb.case().when('q.status', '=', 'PROCESSING').then(0).else(1).end())
      .orderBy('q.end_date', 'asc')
      .orderBy('q.id', 'desc')
      .execute()) as Mine[];
    return ok({ list: rows.slice((page - 1) * size, page * size).map(answer), total: rows.length });
  });

  app.get<{ Params: { id: number } }>('/v1/my/questionnaires/:id', {
    config: { permission: 'form-input.view' },
    schema: { tags, summary: 'One questionnaire I am asked to answer, its questions, and my answers once submitted (not for anonymous ones)', params: myQuestionnaireParams, response: FILLING_ANSWERS.one },
  }, async (request) => {
    const me = currentUser(request);
    const row = (await mine(me.id).select('q.definition').where('q.id', '=', request.params.id).executeTakeFirst()) as (Mine & { definition: string }) | undefined;
    if (!row) throw new BusinessError('RECORD_NOT_FOUND');
    let answers: Answers | null = null;
    if (row.feedback_status === 'SUBMITTED' && row.type !== 'ANONYMOUS') {
      const reply = await db.selectFrom('replies').select('answers').where('feedback_id', '=', row.feedback_id).executeTakeFirst();
      answers = reply ? (JSON.parse(reply.answers) as Answers) : null;
    }
    const detail: MyQuestionnaireDetail = { ...answer(row), definition: JSON.parse(row.definition) as Definition, answers };
    return ok(detail);
  });

  app.post<{ Params: { id: number }; Body: ReplyBody }>('/v1/my/questionnaires/:id/replies', {
    config: { permission: 'form-input.view' },
    schema: {
      tags,
      summary: 'Submits my reply once: 422 with a message per question; a repeat with the same submissionKey answers the first result',
      params: myQuestionnaireParams,
      body: replyBody,
      response: FILLING_ANSWERS.reply,
    },
  }, async (request, reply) => {
    const me = currentUser(request);
    const lang = requestLang(request);
    const { submissionKey, answers } = request.body;
    const row = await respondents.read(me.id, request.params.id);
    // the feedback records come when it opens: before that, its audience says whether I am asked
    if (!row) return respondents.refuseMissing(me.id, request.params.id);
    const done = { submittedAt: row.submitted_at };
    if (row.feedback_status === 'SUBMITTED') {
      const stored = await db.selectFrom('feedback').select(['status', 'submission_key']).where('id', '=', row.feedback_id).executeTakeFirst();
      if (stored?.submission_key === submissionKey) return ok(done);
      // read submitted, yet not submitted now: replaced since (a restore's swap) — try again
      if (stored?.status !== 'SUBMITTED') throw new BusinessError('RESTORING');
      throw new BusinessError('ALREADY_SUBMITTED');
    }
    const now = new Date().toISOString();
    refuseUnlessOpen(row, now);

    const definition = await definitions.get(row.id, row.create_date, row.updated_at);
    if (!definition) throw new BusinessError('RECORD_NOT_FOUND');
    const problems = replyProblems(definition, answers);
    if (Object.keys(problems).length) {
      const data: Record<string, string> = {};
      const questions = new Map(definition.sections.flatMap((s) => s.questions.map((q) => [q.id, q] as const)));
      for (const [questionId, p] of Object.entries(problems)) {
        // as the answer screen says it: a grid row by its label, a rule broken in one row with that row's label before it
        const row = p.row ? (questions.get(questionId)?.rows?.find((r) => r.id === p.row)?.label ?? '') : '';
        const text = p.message || messageText(lang, `qe.question.answerProblems.${p.problem}`, { ...p, row, smart_count: p.count });
        data[questionId] = row && p.problem !== 'requiredRow' ? messageText(lang, 'qe.question.inRow', { row, text }) : text;
      }
      return reply.status(422).send({ code: 422, msg: Object.values(data).join('; '), data });
    }
    const kept = answersOnPath(definition, answers as Parameters<typeof answersOnPath>[1]);

    const anonymous = row.type === 'ANONYMOUS';
    // the school's day (its clock, from the counters the guard read: no read of its own)
    const day = schoolDate(now, await schoolClock(db).zone(me.seen));
    // an anonymous submission keeps the day only (mixing.ts); a named one the moment
    const submittedAt = anonymous ? day : now;
    // stored with the submissions that arrive with it, in one transaction (submissions.ts); the
    // feedback update is the claim: of concurrent submissions exactly one changes the row
    const stored = await submissions.store({
      feedbackId: row.feedback_id,
      submittedAt,
      submissionKey,
      draft: anonymous ? undefined : { questionnaireId: row.id, userId: me.id },
      reply: {
        id: newReplyId(anonymous),
        questionnaire_id: row.id,
        respondent_role: row.respondent_role,
        grade_id: row.grade_id ?? null,
        class_id: row.class_id ?? null,
        feedback_id: anonymous ? null : row.feedback_id,
        submitted_on: day,
        answers: JSON.stringify(kept),
        // an anonymous reply waits apart (waiting_replies), mixed every round, until it is released
        // in a batch, its countable rows written then;
        // a named one is in results at once, its countable rows written in a batch shortly after
        // (statistics/counting.ts: any statistics call counts what is still pending before it reads)
        mixed: 0,
        released: anonymous ? 0 : 1,
        counted: anonymous ? 1 : 0,
      },
    });
    if (stored) {
      if (!anonymous) counting.soon();
      return ok({ submittedAt });
    }
    const again = await db.selectFrom('feedback').select(['status', 'submission_key', 'submitted_at']).where('id', '=', row.feedback_id).executeTakeFirst();
    if (again?.submission_key === submissionKey) return ok({ submittedAt: again.submitted_at });
    // not claimed, yet not submitted either: the record was replaced under the claim (a restore's
    // swap) — nothing of this submission is stored, and it may be sent again
    if (again?.status !== 'SUBMITTED') throw new BusinessError('RESTORING');
    throw new BusinessError('ALREADY_SUBMITTED');
  });
}
