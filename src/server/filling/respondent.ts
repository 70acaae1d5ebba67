import type { DB } from '../db/connect.js';
import { TurnReads } from '../db/turn-reads.js';
import { BusinessError } from '../plugins/errors.js';
import { resolveAudience } from '../questionnaires/audience.js';
import type { Target } from '../../shared/questionnaire/types.js';

const respondentRows = (db: DB) =>
  db
    .selectFrom('feedback as f')
    .innerJoin('questionnaires as q', 'q.id', 'f.questionnaire_id')
    .select(['q.id', 'q.status', 'q.type', 'q.open_date', 'q.end_date', 'q.create_date', 'q.updated_at', 'f.id as feedback_id', 'f.status as feedback_status', 'f.submitted_at', 'f.respondent_role', 'f.grade_id', 'f.class_id']);

/** My feedback record on a questionnaire, with what a submission or a draft needs of the questionnaire. */
export type RespondentRow = Awaited<ReturnType<ReturnType<typeof respondentRows>['executeTakeFirstOrThrow']>>;

/**
 * Whom a questionnaire asks, as a reply and a draft read it (docs/architecture.md#a-submission):
 * the caller's feedback record, read with the others of the same turn in one query (turn-reads.ts:
 * a whole class submits at once), and the refusals they share.
 */
export class Respondents {
  private readonly ofTurn: TurnReads<{ userId: number; questionnaireId: number }, RespondentRow>;

  constructor(private readonly db: DB) {
    this.ofTurn = new TurnReads(
      (k) => `${k.questionnaireId}:${k.userId}`,
      async (keys) => {
        const rows = await respondentRows(db)
          .select('f.user_id')
          .where((eb) => eb(eb.refTuple('f.questionnaire_id', 'f.user_id'), 'in', keys.map((k) => eb.tuple(k.questionnaireId, k.userId))))
          .execute();
        return new Map(rows.map(({ user_id, ...row }) => [`${row.id}:${user_id}`, row]));
      },
    );
  }

  read(userId: number, questionnaireId: number): Promise<RespondentRow | undefined> {
    return this.ofTurn.read({ userId, questionnaireId });
  }

  /**
   * Why a caller without a feedback record may not answer: 404 without such a questionnaire;
   * before it opens (no records yet) 709 NOT_OPEN_YET when its audience includes the caller;
   * else 405 NOT_A_RESPONDENT.
   */
  async refuseMissing(userId: number, questionnaireId: number): Promise<never> {
    const q = await this.db.selectFrom('questionnaires').select(['status', 'targets', 'school_year_id']).where('id', '=', questionnaireId).executeTakeFirst();
    if (!q) throw new BusinessError('RECORD_NOT_FOUND');
    if (q.status === 'PREPARING' || q.status === 'NOT_OPEN') {
      const { respondents } = await resolveAudience(this.db, JSON.parse(q.targets) as Target[], q.school_year_id);
      if (respondents.some((r) => r.userId === userId)) throw new BusinessError('NOT_OPEN_YET');
    }
    throw new BusinessError('NOT_A_RESPONDENT');
  }
}

/** Not open yet or ended (by status or by its dates, before the scheduler moves it): 709. */
export function refuseUnlessOpen(row: Pick<RespondentRow, 'status' | 'open_date' | 'end_date'>, now: string): void {
  if (row.status === 'NOT_OPEN' || row.status === 'PREPARING' || (row.open_date && row.open_date > now)) throw new BusinessError('NOT_OPEN_YET');
  if (row.status === 'FINISHED' || (row.end_date && row.end_date <= now)) throw new BusinessError('QUESTIONNAIRE_CLOSED');
}
