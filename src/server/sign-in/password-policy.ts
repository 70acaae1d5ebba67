import type { FastifyInstance } from 'fastify';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError, requestLang } from '../plugins/errors.js';
import { serverText, type Lang } from '../../shared/i18n/text.js';
import { PASSWORD_POLICY_ROLES, passwordPolicy, SIGN_IN_ANSWERS, type PasswordPolicy } from '../../shared/calls/sign-in.js';
import { listText } from './checks.js';
import { providerName, settingsOf, superAdministratorOnly, type ProviderSettings } from './settings.js';

type PolicyRole = (typeof PASSWORD_POLICY_ROLES)[number];
const isPolicyRole = (userType: string): userType is PolicyRole => (PASSWORD_POLICY_ROLES as readonly string[]).includes(userType);

const userTypeName = (lang: Lang, userType: string) => serverText(lang, `qe.userType.${userType as PolicyRole}`);

/**
 * Whether a user type may still log in with a password (GET/PUT /v1/sign-in/password-policy): a
 * school that signs its staff or pupils in through its own accounts turns the password login off
 * for them, and QE then refuses a right password with a message that points to the school's
 * sign-in. Kept in the database (every instance reads the same); allowed unless a row says 0.
 *
 * Never a lock-out: the super administrator always keeps a password (not a policy role); a type's
 * password login is turned off only while an enabled provider signs that type in, and a provider
 * it relies on cannot be disabled, narrowed or deleted (779) until the password login is allowed
 * again or another provider takes over. Should the rows ever say otherwise (a restore of an older
 * backup), a type no enabled provider signs in keeps its password login.
 */
export class PasswordPolicyService {
  constructor(private readonly db: DB) {}

  async read(): Promise<PasswordPolicy> {
    const rows = await this.db.selectFrom('sign_in_password_policy').select(['user_type', 'allowed']).execute();
    const off = new Set(rows.filter((r) => r.allowed === 0).map((r) => r.user_type));
    return { ADMIN: !off.has('ADMIN'), TEACHER: !off.has('TEACHER'), STUDENT: !off.has('STUDENT') };
  }

  private async enabledProviders(): Promise<ProviderSettings[]> {
    return (await this.db.selectFrom('identity_providers').selectAll().where('enabled', '=', 1).orderBy('seq').orderBy('id').execute()).map(settingsOf);
  }

  /** The user types whose password login `policy` turns off that none of `providers` (the enabled ones) signs in. */
  private uncovered(policy: PasswordPolicy, providers: Pick<ProviderSettings, 'enabled' | 'roles'>[]): PolicyRole[] {
    return PASSWORD_POLICY_ROLES.filter((role) => !policy[role] && !providers.some((p) => p.enabled && p.roles.includes(role)));
  }

  /** Refuses (779) a change of the providers that would leave a type without a password and without a provider. */
  async refuseUncovered(lang: Lang, providers: Pick<ProviderSettings, 'enabled' | 'roles'>[], policy?: PasswordPolicy): Promise<void> {
    const left = this.uncovered(policy ?? (await this.read()), providers);
    if (left.length) throw new BusinessError('PASSWORD_POLICY_NO_PROVIDER', { userTypes: listText(lang, left.map((t) => userTypeName(lang, t))) });
  }

  async write(policy: PasswordPolicy, lang: Lang): Promise<PasswordPolicy> {
    await this.refuseUncovered(lang, await this.enabledProviders(), policy);
    const now = new Date().toISOString();
    for (const role of PASSWORD_POLICY_ROLES) {
      await this.db
        .insertInto('sign_in_password_policy')
        .values({ user_type: role, allowed: policy[role] ? 1 : 0, updated_at: now })
        .onConflict((oc) => oc.column('user_type').doUpdateSet({ allowed: policy[role] ? 1 : 0, updated_at: now }))
        .execute();
    }
    return this.read();
  }

  /**
   * After a right password (POST /v1/login): refused (778) when the account's type signs in with
   * the school's account, naming the providers to choose on the login page.
   */
  async refusePasswordLogin(userType: string, lang: Lang): Promise<void> {
    if (!isPolicyRole(userType)) return;
    const row = await this.db.selectFrom('sign_in_password_policy').select('allowed').where('user_type', '=', userType).executeTakeFirst();
    if (!row || row.allowed !== 0) return;
    const providers = (await this.enabledProviders()).filter((p) => p.roles.includes(userType));
    if (!providers.length) return;
    throw new BusinessError('PASSWORD_LOGIN_OFF', { userType: userTypeName(lang, userType), providers: listText(lang, providers.map((p) => providerName(p, lang))) });
  }
}

const tags = ['sign-in'];

export async function passwordPolicyRoutes(app: FastifyInstance, { policy }: { policy: PasswordPolicyService }) {
  app.get('/v1/sign-in/password-policy', {
    config: { permission: 'sign-in.view' },
    schema: { tags, summary: 'Per user type (ADMIN, TEACHER, STUDENT), whether the password login stays allowed; the super administrator always keeps it', response: SIGN_IN_ANSWERS.passwordPolicy },
  }, async () => ok(await policy.read()));

  app.put<{ Body: PasswordPolicy }>('/v1/sign-in/password-policy', {
    config: { permission: 'sign-in.edit' },
    schema: { tags, summary: 'Turns the password login of user types off or on; 779 for a type no enabled provider signs in', body: passwordPolicy, response: SIGN_IN_ANSWERS.passwordPolicy },
  }, async (request) => {
    superAdministratorOnly(request);
    return ok(await policy.write(request.body, requestLang(request)));
  });
}
