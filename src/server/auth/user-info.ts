import type { DB } from '../db/connect.js';
import type { User } from '../db/schema.js';
import type { PermissionEntry } from '../../shared/permissions.js';
import type { ConfirmStatus } from '../../shared/personal.js';
import type { UserInfo } from '../../shared/calls/session.js';

/** Whether the account may log in: active, a teacher on the job, a student still in school. */
export function mayLogIn(user: Pick<User, 'active' | 'user_type' | 'status'>): boolean {
  if (user.active !== 1) return false;
  if (user.user_type === 'TEACHER' || user.user_type === 'STUDENT') return user.status === '1';
  return true;
}


/**
 * The school calendar a user works in: every year, the current one (year_status '1') and its
 * terms, the term of `today` (the school's day), and the school's time zone, which every screen
 * reads days and times on (src/shared/school-clock.ts).
 */
export async function calendar(db: DB, today: string, timeZone: string) {
  const years = await db.selectFrom('school_years').selectAll().orderBy('begin_date', 'desc').execute();
  const current = years.find((y) => y.year_status === '1') ?? null;
  const terms = current
    ? await db.selectFrom('terms').selectAll().where('school_year_id', '=', current.id).orderBy('seq').execute()
    : [];
  // the school's day, not UTC's: a term that begins today is current from the school's midnight
  const now = today;
  const currentTerm = terms.find((t) => t.begin_date <= now && now <= t.end_date) ?? terms[0] ?? null;
  const year = (y: (typeof years)[number]) => ({ id: y.id, name: y.name, beginDate: y.begin_date, endDate: y.end_date, yearStatus: y.year_status });
  const term = (t: (typeof terms)[number]) => ({ id: t.id, nameHk: t.name_hk, nameEn: t.name_en, beginDate: t.begin_date, endDate: t.end_date });
  return {
    years: years.map(year),
    terms: terms.map(term),
    currentYear: current ? year(current) : null,
    currentTerm: currentTerm ? term(currentTerm) : null,
    timeZone,
  };
}

/** A user and the state of their latest personal-data request, in one read. */
export function userWithPersonalStatus(db: DB, userId: number) {
  return db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) => eb.selectFrom('personal_data_requests as p').select('p.status').whereRef('p.user_id', '=', 'users.id').orderBy('p.id', 'desc').limit(1).as('personal_status'))
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** The logged-in user's fields (docs/product-rules.md#records-and-fields), permissions included. */
export function userInfo(user: User & { personal_status: string | null }, permissions: PermissionEntry[], schoolCalendar: Awaited<ReturnType<typeof calendar>>): UserInfo {
  const isStaff = user.user_type !== 'STUDENT';
  return {
    userId: user.id,
    userNo: user.user_no,
    username: user.username,
    nameHk: user.name_hk,
    nameEn: user.name_en,
    avatar: user.avatar,
    // never the number itself: the masked copy kept beside the sealed one (src/server/personal/)
    identityCardId: user.identity_card_masked ?? null,
    identityCardType: user.identity_card_type ?? null,
    email: user.email,
    googleMail: user.google_mail,
    tel: user.tel,
    gender: user.gender,
    birthday: user.birthday,
    userType: user.user_type as UserInfo['userType'],
    active: user.active === 1,
    loginTime: user.login_time,
    lastLogin: user.last_login,
    staff_id: isStaff ? user.id : null,
    status: user.status,
    permissions,
    // the state of the latest personal-data request (null: never asked): the client's staff-edit-personal prompt reads it
    personalDataStatus: isStaff ? ((user.personal_status as ConfirmStatus | null) ?? null) : null,
    ...schoolCalendar,
  };
}
