import type { DB } from '../db/connect.js';
import { hashPassword } from '../auth/passwords.js';
import { assignDefaultRole } from '../developer/seed.js';
import { BusinessError } from '../plugins/errors.js';
import { freeSuperAdminCode } from '../db/migrations/0029_super_admin_records.js';
import type { InitBody } from '../../shared/calls/school.js';

const LANGUAGES = JSON.stringify([
  { code: 'zh-hk', required: '1' },
  { code: 'en', required: '1' },
]);

export type { InitBody };

/**
 * Creates the school (always id 1, so that two racing first runs cannot both succeed:
 * the second breaks the primary key) and its first super administrator, a record of the
 * administrators' list like the others (code SUPERADMIN, theirs to change there).
 */
export async function createFirstSchool(db: DB, body: InitBody, passwordHash?: string): Promise<number> {
  const hash = passwordHash ?? (await hashPassword(body.password));
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('school').select('id').executeTakeFirst();
    if (existing) throw new BusinessError('ALREADY_INITIALISED');
    const now = new Date().toISOString();
    try {
      await trx.insertInto('school').values({
        id: 1,
        name_hk: body.schoolNameHk,
        name_en: body.schoolNameEn,
        school_logo: null, address_hk: null, address_en: null, tel: null, fax: null, email: null, host: null,
        app_logo: null, app_view: null, graduate_grade: null, school_pre: null, grade_range: null, edac_connect: null,
        languages: LANGUAGES,
        created_at: now,
      }).execute();
    } catch {
      throw new BusinessError('ALREADY_INITIALISED');
    }
    const { id } = await trx
      .insertInto('users')
      .values({
        username: body.username,
        password_hash: hash,
        user_type: 'SUPER_ADMIN',
        user_no: await freeSuperAdminCode(trx),
        name_hk: body.nameHk,
        name_en: body.nameEn,
        email: body.email || null,
        active: 1,
        status: '1',
        seq: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await assignDefaultRole(trx, id, 'SUPER_ADMIN');
    return id;
  });
}
