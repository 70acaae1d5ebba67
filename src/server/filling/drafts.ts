import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError, FieldError } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import type { DefinitionsById } from '../questionnaires/definitions.js';
import { draftAnswers, type Answers } from '../../shared/questionnaire/answers.js';
import { DRAFT_MAX_BYTES, draftByteLimit, draftUnknownKeys, jsonBytes } from '../../shared/questionnaire/draft-bounds.js';
import { draftBody, FILLING_ANSWERS, myQuestionnaireParams, type DraftBody, type ReplyDraft } from '../../shared/calls/filling.js';
import { countDraftSave } from './draft-saves.js';
import { refuseUnlessOpen, type Respondents, type RespondentRow } from './respondent.js';

const tags = ['filling'];
const draftPath = '/v1/my/questionnaires/:id/draft';

/**
 * A named questionnaire's answers being typed, kept on the server as well as in the browser, so
 * that a respondent who began on one device goes on on another (docs/product-rules.md#states,
 * docs/architecture.md#drafts). One row per questionnaire and user (reply_drafts, migration
 * 0024), written by one upsert per save. Only while the caller may still reply — asked, in
 * progress, not submitted: the reply's own refusals (respondent.ts) — and never for an anonymous
 * questionnaire, whose answers must not be tied to a person before they are mixed
 * (docs/security.md#anonymous-means-unlinkable): 709 ANONYMOUS_NO_DRAFT and nothing written.
 * The draft goes with the submission (submissions.ts), when the questionnaire finishes
 * (questionnaires/lifecycle.ts), and with the questionnaire or user (foreign keys).
 *
 * A save is bounded (docs/security.md#drafts-are-bounded): counted per user in the database and
 * refused past its limits (429, draft-saves.ts); no larger than the largest draft of the
 * questionnaire (413, `draftByteLimit`; the route's body limit stops a far larger body unread);
 * no key the questionnaire does not have (422). A refused save writes nothing: the last good
 * draft stays as it was.
 */
export async function draftRoutes(app: FastifyInstance, { db, respondents, definitions }: { db: DB; respondents: Respondents; definitions: DefinitionsById }) {
  /** The caller's feedback record when they may keep a draft now; the refusal otherwise. */
  const answering = async (userId: number, questionnaireId: number): Promise<RespondentRow> => {
    const row = await respondents.read(userId, questionnaireId);
    if (!row) return respondents.refuseMissing(userId, questionnaireId);
    // before any other answer: an anonymous questionnaire says the same whatever its state
    if (row.type === 'ANONYMOUS') throw new BusinessError('ANONYMOUS_NO_DRAFT');
    if (row.feedback_status === 'SUBMITTED') throw new BusinessError('ALREADY_SUBMITTED');
    refuseUnlessOpen(row, new Date().toISOString());
    return row;
  };

  app.get<{ Params: { id: number } }>(draftPath, {
    config: { permission: 'form-input.view' },
    schema: { tags, summary: 'My draft of a named questionnaire I may still answer: {answers, savedAt}, or null when there is none', params: myQuestionnaireParams, response: FILLING_ANSWERS.draft },
  }, async (request) => {
    const me = currentUser(request);
    await answering(me.id, request.params.id);
    const row = await db.selectFrom('reply_drafts').select(['answers', 'saved_at']).where('questionnaire_id', '=', request.params.id).where('user_id', '=', me.id).executeTakeFirst();
    const draft: ReplyDraft | null = row ? { answers: JSON.parse(row.answers) as Answers, savedAt: row.saved_at } : null;
    return ok(draft);
  });

  app.put<{ Params: { id: number }; Body: DraftBody }>(draftPath, {
    config: { permission: 'form-input.view' },
    schema: {
      tags,
      summary:
        'Keeps my answers being typed (a named questionnaire only; 709 for an anonymous one): replaces my draft; answers the questionnaire cannot take are dropped. Refused, my draft unchanged: 429 when saved too often, 413 over the questionnaire\'s largest draft, 422 with a key it does not have',
      params: myQuestionnaireParams,
      body: draftBody,
      response: FILLING_ANSWERS.draftSaved,
    },
    // the body of the largest draft and its wrapping: a larger one is refused before it is read whole
    bodyLimit: DRAFT_MAX_BYTES + 1024,
  }, async (request) => {
    const me = currentUser(request);
    await countDraftSave(db, me.id);
    const row = await answering(me.id, request.params.id);
    const definition = await definitions.get(row.id, row.create_date, row.updated_at);
    if (!definition) throw new BusinessError('RECORD_NOT_FOUND');
    const limit = draftByteLimit(definition);
    if (jsonBytes(request.body.answers) > limit) throw new BusinessError('DRAFT_TOO_LARGE', { kb: Math.floor(limit / 1024) });
    const unknown = draftUnknownKeys(definition, request.body.answers);
    if (unknown.length) throw new FieldError(Object.fromEntries(unknown.map((key) => [`answers.${key}`, { rule: 'additionalProperties' }])));
    const answers = JSON.stringify(draftAnswers(definition, request.body.answers));
    const savedAt = new Date().toISOString();
    // one statement: written only while the feedback record is unsubmitted and the questionnaire
    // in progress, so a save racing the submission or the end does not leave a draft behind it
    const written = await db
      .insertInto('reply_drafts')
      .columns(['questionnaire_id', 'user_id', 'answers', 'saved_at'])
      .expression(
        db
          .selectFrom('feedback as f')
          .innerJoin('questionnaires as q', 'q.id', 'f.questionnaire_id')
          .select(['f.questionnaire_id', 'f.user_id', sql<string>`${answers}`.as('answers'), sql<string>`${savedAt}`.as('saved_at')])
          .where('f.id', '=', row.feedback_id)
          .where('f.status', '=', 'NOT_SUBMITTED')
          .where('q.status', '=', 'PROCESSING'),
      )
      .onConflict((oc) => oc.columns(['questionnaire_id', 'user_id']).doUpdateSet((eb) => ({ answers: eb.ref('excluded.answers'), saved_at: eb.ref('excluded.saved_at') })))
      .executeTakeFirst();
    if (Number(written.numInsertedOrUpdatedRows ?? 0) === 0) {
      // submitted or ended since it was read: refused as it would be a moment later
      await answering(me.id, request.params.id);
      throw new BusinessError('QUESTIONNAIRE_CLOSED');
    }
    return ok({ savedAt });
  });

  app.delete<{ Params: { id: number } }>(draftPath, {
    config: { permission: 'form-input.view' },
    schema: { tags, summary: 'Deletes my draft (Start again on the answer screen); null whether there was one or not', params: myQuestionnaireParams, response: FILLING_ANSWERS.draftDeleted },
  }, async (request) => {
    const me = currentUser(request);
    await answering(me.id, request.params.id);
    await db.deleteFrom('reply_drafts').where('questionnaire_id', '=', request.params.id).where('user_id', '=', me.id).execute();
    return ok(null);
  });
}
