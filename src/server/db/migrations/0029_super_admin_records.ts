import type { Kysely } from 'kysely';

/** The code a super administrator made at first run gets (an administrator record needs one). */
export const SUPER_ADMIN_CODE = 'SUPERADMIN';

/** SUPERADMIN, else SUPERADMIN-2, -3…: the first no account holds (codes are unique across users). */
export async function freeSuperAdminCode(db: Kysely<any>): Promise<string> {
  const taken = new Set(
    (await db.selectFrom('users').select('user_no').where('user_no', 'like', `${SUPER_ADMIN_CODE}%`).execute()).map((r: { user_no: string }) => r.user_no.toUpperCase()),
  );
  for (let n = 1; ; n++) {
    const code = n === 1 ? SUPER_ADMIN_CODE : `${SUPER_ADMIN_CODE}-${n}`;
    if (!taken.has(code)) return code;
  }
}

/**
 * The super administrator is a record of the administrators' list (schemas/admin.json's
 * `alsoListed`), which every record of needs a code: the one first run made before that had none
 * and gets one, which they may change on their record.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const uncoded = await db.selectFrom('users').select('id').where('user_type', '=', 'SUPER_ADMIN').where((eb: any) => eb.or([eb('user_no', 'is', null), eb('user_no', '=', '')])).orderBy('id').execute();
  for (const { id } of uncoded) {
    await db.updateTable('users').set({ user_no: await freeSuperAdminCode(db) }).where('id', '=', id).execute();
  }
}

/** The codes stay: once given, a code is the school's to keep or change. */
export async function down(): Promise<void> {}
