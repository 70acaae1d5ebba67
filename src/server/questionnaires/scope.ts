import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, QuestionnairesTable } from '../db/schema.js';
import type { AuthUser } from '../plugins/guard.js';

/**
 * Which questionnaires a member of staff reaches (docs/product-rules.md#roles-and-default-permissions),
 * written once for every service that reads them: the design screens, the results, the home screen.
 * A scope is a where-clause on a query over `questionnaires as q`, as the questionnaire list,
 * the statistics list and one questionnaire read it, so each service adds its own filters beside it.
 */
type OnQuestionnaires = ExpressionBuilder<Database & { q: QuestionnairesTable }, 'q'>;
export type QuestionnaireFilter = (eb: OnQuestionnaires) => Expression<SqlBool>;

/** The permission that reaches every questionnaire, whoever is in charge, per area. */
const REACHES_ALL = { design: 'form.management', results: 'data-statistics.management' } as const;
export type QuestionnaireArea = keyof typeof REACHES_ALL;

/** Whether the user reaches every questionnaire in the area (not only those they take part in). */
export const reachesAll = (user: AuthUser, area: QuestionnaireArea) => user.permissions.has(REACHES_ALL[area]);

/** The questionnaires the user is in charge of. */
export const inCharge = (user: AuthUser): QuestionnaireFilter => (eb) => eb('q.in_charge_id', '=', user.id);

/** The questionnaires the user assists with. */
export const assisting = (user: AuthUser): QuestionnaireFilter => (eb) =>
  eb('q.id', 'in', eb.selectFrom('questionnaire_assistants').select('questionnaire_id').where('user_id', '=', user.id));

/** The questionnaires the user reaches in the area: all of them for its managers, else those they are in charge of or assist with. */
export const reachable = (user: AuthUser, area: QuestionnaireArea): QuestionnaireFilter => (eb) =>
  reachesAll(user, area) ? sql<SqlBool>`1 = 1` : eb.or([inCharge(user)(eb), assisting(user)(eb)]);

/**
 * Whether the user may change a questionnaire they reach: the edit permission, and in charge of
 * it, assisting with it or managing every questionnaire. Its screen, the home screen's reminder
 * button and the reminder itself all ask this.
 */
export function mayChange(user: AuthUser, questionnaire: { inChargeId: number; assistantIds: readonly number[] }): boolean {
  return user.permissions.has('form.edit') && (reachesAll(user, 'design') || questionnaire.inChargeId === user.id || questionnaire.assistantIds.includes(user.id));
}

/** Whether the user may delete a questionnaire they reach: in charge of it, or managing every questionnaire (an assistant may not). */
export const mayDelete = (user: AuthUser, questionnaire: { inChargeId: number }) => reachesAll(user, 'design') || questionnaire.inChargeId === user.id;
