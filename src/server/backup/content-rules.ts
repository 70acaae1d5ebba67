import { sql } from 'kysely';
import type { DB } from '../db/connect.js';
import { USER_TYPES } from '../../shared/permissions.js';
import { FEEDBACK_STATUSES, QUESTIONNAIRE_STATUSES, QUESTIONNAIRE_TYPES } from '../../shared/questionnaire/enums.js';
import { ArchiveRefused } from './read.js';

/**
 * One row of an archive as it is loaded: only the columns the table has (at the archive's
 * level), only plain values (text, finite numbers, null), a numeric id a positive whole number.
 * A crafted row is refused by name (766) before the database sees it.
 */
export function checkRow(table: string, row: Record<string, unknown>, n: number, columns: ReadonlySet<string>): void {
  for (const [column, value] of Object.entries(row)) {
    if (!columns.has(column)) throw new ArchiveRefused('content', `${table}, row ${n}: no column "${column.slice(0, 64)}"`);
    const plain = value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
    if (!plain) throw new ArchiveRefused('content', `${table}, row ${n}, ${column}: not a plain value`);
  }
  const id = row.id;
  if (typeof id === 'number' && !(Number.isSafeInteger(id) && id > 0)) throw new ArchiveRefused('content', `${table}, row ${n}, id: not a positive whole number`);
}

/** A database's refusal of a loaded row (a foreign key, a unique or not-null rule, a type), said without its values. */
export function refusedByDatabase(table: string, error: unknown): ArchiveRefused {
  const message = error instanceof Error ? error.message : String(error);
  return new ArchiveRefused('content', `${table}: ${message.split('\n')[0].slice(0, 160)}`);
}

const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));

/**
 * The rules the screens and imports keep, checked over the loaded copy before the swap: the
 * values of enum-like columns, roles (one default role per user type), a super administrator's
 * record (a code, as 0029 gives every one); links and permission rows by their foreign keys as
 * they load. An edited archive that breaks one is refused with the table and row it is in (766),
 * the live data untouched. Roles may be given across user types and a school may keep a second
 * super administrator, so an edit that keeps every rule is told by its missing signature (765).
 */
const RULES: { table: string; what: string; query: ReturnType<typeof sql<{ id: unknown }>> }[] = [
  { table: 'users', what: 'user_type not one of QE\'s', query: sql`select id from users where user_type not in (${list(USER_TYPES)})` },
  { table: 'users', what: 'active is neither 0 nor 1', query: sql`select id from users where active not in (0, 1)` },
  { table: 'users', what: 'a teacher\'s status is neither 0 nor 1', query: sql`select id from users where user_type = 'TEACHER' and status not in ('0', '1')` },
  { table: 'users', what: 'a student\'s status is not 1, 2 or 3', query: sql`select id from users where user_type = 'STUDENT' and status not in ('1', '2', '3')` },
  { table: 'users', what: 'a super administrator record without a code', query: sql`select id from users where user_type = 'SUPER_ADMIN' and (user_no is null or user_no = '')` },
  { table: 'roles', what: 'user_type not one of QE\'s', query: sql`select id from roles where user_type not in (${list(USER_TYPES)})` },
  { table: 'roles', what: 'more than one default role of a user type', query: sql`select min(id) as id from roles where is_default = 1 group by user_type having count(*) > 1` },
  { table: 'questionnaires', what: 'status not one of QE\'s', query: sql`select id from questionnaires where status not in (${list(QUESTIONNAIRE_STATUSES)})` },
  { table: 'questionnaires', what: 'type not one of QE\'s', query: sql`select id from questionnaires where type not in (${list(QUESTIONNAIRE_TYPES)})` },
  { table: 'feedback', what: 'status not one of QE\'s', query: sql`select id from feedback where status not in (${list(FEEDBACK_STATUSES)})` },
];

export async function checkContent(db: DB): Promise<void> {
  for (const rule of RULES) {
    const { rows } = await rule.query.execute(db);
    if (rows.length) throw new ArchiveRefused('content', `${rule.table}, id ${String(rows[0].id)}: ${rule.what}`);
  }
}
