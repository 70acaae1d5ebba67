import { schoolClock } from '../school/clock.js';
import { uploads } from '../storage/file-store.js';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import type { User } from '../db/schema.js';
import { BusinessError, FieldError } from '../plugins/errors.js';
import type { AuthUser } from '../plugins/guard.js';
import type { ConfirmStatus } from '../../shared/personal.js';
import type { MyPersonalData, PersonalDataInput, PersonalQueue, PersonalQueueQuery, PersonalRequest, PersonalValues, QueuedRequest, RequestState } from '../../shared/calls/personal.js';
import { sealCard } from './identity-card.js';

export type { PersonalDataInput, PersonalValues };

const FIELDS = ['tel', 'gender', 'birthday', 'identityCardType', 'identityCardId', 'avatar'] as const;
export const AVATAR_PATH = /^avatars\/[0-9a-f]{24}\.(png|jpg|gif|webp)$/;
const now = () => new Date().toISOString();

const userValues = (u: Pick<User, 'tel' | 'gender' | 'birthday' | 'identity_card_type' | 'identity_card_masked' | 'avatar'>): PersonalValues => ({
  tel: u.tel,
  gender: u.gender,
  birthday: u.birthday,
  identityCardType: u.identity_card_type,
  identityCardId: u.identity_card_masked,
  avatar: u.avatar,
});

type RequestRow = { id: number; user_id: number; status: string; tel: string | null; gender: string | null; birthday: string | null; avatar: string | null; identity_card_type: string | null; identity_card_masked: string | null; reason: string | null; created_at: string; decided_at: string | null };

const requestAnswer = (r: RequestRow): PersonalRequest => ({
  id: r.id,
  status: r.status as ConfirmStatus,
  values: userValues(r),
  reason: r.reason,
  createdAt: r.created_at,
  decidedAt: r.decided_at,
});

/** A staff member's own personal data and their latest request (the actions Personal and Apply). */
export class PersonalData {
  constructor(
    private readonly db: DB,
    private readonly config: Config,
  ) {}

  private async staff(me: AuthUser) {
    const user = await this.db.selectFrom('users').selectAll().where('id', '=', me.id).executeTakeFirstOrThrow();
    if (user.user_type === 'STUDENT') throw new BusinessError('PERSONAL_STAFF_ONLY');
    return user;
  }

  /** My data as stored (confirmed) and my latest request with its status and reason. */
  async mine(me: AuthUser): Promise<MyPersonalData> {
    const user = await this.staff(me);
    const latest = await this.db.selectFrom('personal_data_requests').selectAll().where('user_id', '=', me.id).orderBy('id', 'desc').executeTakeFirst();
    return { current: userValues(user), request: latest ? requestAnswer(latest) : null };
  }

  /**
   * Asks for a change: stored as WAITTING until an approver decides. A request still waiting is
   * replaced by the new one (one waiting request per person: the approver sees what is meant now).
   */
  async apply(me: AuthUser, input: PersonalDataInput): Promise<RequestState> {
    const user = await this.staff(me);
    // the document a request still waiting gave stays unless a new number is typed (the form never holds it)
    const waitingCard = await this.db
      .selectFrom('personal_data_requests')
      .select(['identity_card_type', 'identity_card_no', 'identity_card_masked'])
      .where('user_id', '=', me.id)
      .where('status', '=', 'WAITTING')
      .executeTakeFirst();
    const card = waitingCard ?? { identity_card_type: user.identity_card_type, identity_card_no: null, identity_card_masked: user.identity_card_masked };
    const wanted = {
      tel: 'tel' in input ? (input.tel || null) : user.tel,
      gender: 'gender' in input ? (input.gender || null) : user.gender,
      birthday: 'birthday' in input ? (input.birthday || null) : user.birthday,
      avatar: 'avatar' in input ? (input.avatar || null) : user.avatar,
      identity_card_type: 'identityCardType' in input ? (input.identityCardType || null) : user.identity_card_type,
      identity_card_no: card.identity_card_no,
      identity_card_masked: card.identity_card_masked,
    };
    const errors: ConstructorParameters<typeof FieldError>[0] = {};
    if (wanted.birthday && wanted.birthday > (await schoolClock(this.db).today(me.seen))) errors.birthday = { rule: 'birthdayFuture' };
    if (input.identityCardNo) {
      const sealed = wanted.identity_card_type ? sealCard(this.config, wanted.identity_card_type, input.identityCardNo) : null;
      if (!wanted.identity_card_type) errors.identityCardType = { rule: 'required' };
      else if (!sealed) errors.identityCardNo = { rule: 'identityCard' };
      else Object.assign(wanted, { identity_card_no: sealed.sealed, identity_card_masked: sealed.masked });
    } else if (!wanted.identity_card_type) {
      // no document type: the document is removed altogether
      Object.assign(wanted, { identity_card_no: null, identity_card_masked: null });
    } else if (wanted.identity_card_type !== card.identity_card_type) {
      // another document type needs its number: the mask would describe the wrong document
      errors.identityCardNo = { rule: 'required' };
    }
    if (Object.keys(errors).length) throw new FieldError(errors);
    if (wanted.avatar && wanted.avatar !== user.avatar) {
      if (!AVATAR_PATH.test(wanted.avatar) || !(await uploads(this.db, this.config).stat(wanted.avatar))) throw new BusinessError('AVATAR_MISSING');
    }
    const before = userValues(user);
    const after = userValues(wanted);
    if (!wanted.identity_card_no && FIELDS.every((f) => before[f] === after[f])) throw new BusinessError('PERSONAL_NO_CHANGE');

    return this.db.transaction().execute(async (trx) => {
      const waiting = await trx.selectFrom('personal_data_requests').select('id').where('user_id', '=', me.id).where('status', '=', 'WAITTING').executeTakeFirst();
      const row = { ...wanted, status: 'WAITTING', created_at: now(), reason: null, decided_by: null, decided_at: null };
      if (waiting) {
        await trx.updateTable('personal_data_requests').set(row).where('id', '=', waiting.id).execute();
        return { id: waiting.id, status: 'WAITTING' as const };
      }
      const { id } = await trx.insertInto('personal_data_requests').values({ ...row, user_id: me.id }).returning('id').executeTakeFirstOrThrow();
      return { id: Number(id), status: 'WAITTING' as const };
    });
  }

  /** The approver's queue: requests of one status (waiting first by default), oldest first, with each person's current values beside. */
  async queue(query: PersonalQueueQuery): Promise<PersonalQueue> {
    const status = query.status ?? 'WAITTING';
    const size = query.size ?? 20;
    const page = query.page ?? 1;
    let base = this.db.selectFrom('personal_data_requests as r').innerJoin('users as u', 'u.id', 'r.user_id').where('r.status', '=', status);
    const text = query.q?.trim().toLowerCase();
    if (text) {
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where((eb) => eb.or([eb(eb.fn('lower', ['u.user_no']), 'like', pattern), eb(eb.fn('lower', ['u.name_hk']), 'like', pattern), eb(eb.fn('lower', ['u.name_en']), 'like', pattern)]));
    }
    const [rows, count] = await Promise.all([
      base
        .select([
          'r.id', 'r.user_id', 'r.status', 'r.tel', 'r.gender', 'r.birthday', 'r.avatar', 'r.identity_card_type', 'r.identity_card_masked', 'r.reason', 'r.created_at', 'r.decided_at',
          'u.user_no as userNo', 'u.name_hk as nameHk', 'u.name_en as nameEn', 'u.user_type as userType',
          'u.tel as u_tel', 'u.gender as u_gender', 'u.birthday as u_birthday', 'u.avatar as u_avatar', 'u.identity_card_type as u_type', 'u.identity_card_masked as u_masked',
        ])
        .orderBy('r.created_at', status === 'WAITTING' ? 'asc' : 'desc')
        .orderBy('r.id')
        .limit(size)
        .offset((page - 1) * size)
        .execute(),
      base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
    ]);
    const list = rows.map((r): QueuedRequest => ({
      ...requestAnswer(r),
      userId: r.user_id,
      userNo: r.userNo,
      nameHk: r.nameHk,
      nameEn: r.nameEn,
      userType: r.userType as QueuedRequest['userType'],
      current: userValues({ tel: r.u_tel, gender: r.u_gender, birthday: r.u_birthday, avatar: r.u_avatar, identity_card_type: r.u_type, identity_card_masked: r.u_masked }),
    }));
    return { list, total: Number(count?.n ?? 0) };
  }

  private async waiting(trx: DB, me: AuthUser, id: number) {
    const request = await trx.selectFrom('personal_data_requests').selectAll().where('id', '=', id).executeTakeFirst();
    if (!request) throw new BusinessError('RECORD_NOT_FOUND');
    if (request.user_id === me.id) throw new BusinessError('PERSONAL_OWN_REQUEST');
    if (request.status !== 'WAITTING') throw new BusinessError('PERSONAL_REQUEST_DECIDED');
    return request;
  }

  /** CONFIRM: the requested values become the person's own; the number moves over still sealed. */
  async confirm(me: AuthUser, id: number): Promise<RequestState> {
    return this.db.transaction().execute(async (trx) => {
      const request = await this.waiting(trx, me, id);
      // claimed by its status, so two approvers clicking at once cannot both apply it
      const claimed = await trx.updateTable('personal_data_requests').set({ status: 'CONFIRM', decided_by: me.id, decided_at: now() }).where('id', '=', id).where('status', '=', 'WAITTING').executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new BusinessError('PERSONAL_REQUEST_DECIDED');
      await trx
        .updateTable('users')
        .set({
          tel: request.tel,
          gender: request.gender,
          birthday: request.birthday,
          avatar: request.avatar,
          identity_card_type: request.identity_card_type,
          identity_card_masked: request.identity_card_masked,
          // a new number moves over still sealed; no type removes the document; otherwise the stored number stays
          ...(request.identity_card_no ? { identity_card_no: request.identity_card_no } : request.identity_card_type ? {} : { identity_card_no: null }),
          updated_at: now(),
        })
        .where('id', '=', request.user_id)
        .execute();
      // the request keeps what was asked for, not the sealed number: the account holds that now
      await trx.updateTable('personal_data_requests').set({ identity_card_no: null }).where('id', '=', id).execute();
      return { id, status: 'CONFIRM' as const };
    });
  }

  /** REJECT with a reason: the person's data stays as it was; they see the reason on their page. */
  async reject(me: AuthUser, id: number, reason: string): Promise<RequestState> {
    return this.db.transaction().execute(async (trx) => {
      await this.waiting(trx, me, id);
      const claimed = await trx
        .updateTable('personal_data_requests')
        .set({ status: 'REJECT', reason, decided_by: me.id, decided_at: now(), identity_card_no: null })
        .where('id', '=', id)
        .where('status', '=', 'WAITTING')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new BusinessError('PERSONAL_REQUEST_DECIDED');
      return { id, status: 'REJECT' as const };
    });
  }
}
