import type { Selectable } from 'kysely';
import type { DB } from '../db/connect.js';
import type { UsersTable } from '../db/schema.js';
import type { Lang } from '../../shared/i18n/text.js';
import type { TestReport } from '../../shared/calls/sign-in.js';
import { serverText } from '../../shared/i18n/text.js';
import { listText, StepFailure, type Found } from './checks.js';
import type { IdClaims } from './oidc.js';
import type { ProviderSettings } from './settings.js';

/** The address a provider asserts, and the claim it came from. */
export interface Address {
  email: string;
  claim: string;
}

export type Account = Selectable<UsersTable>;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const shown = (v: unknown) => (v === undefined ? '—' : JSON.stringify(v));

/**
 * The e-mail step: the address the provider vouches for, per kind.
 * - google: `email` with `email_verified` true, of a Workspace domain of the school (`hd`, which
 *   only Workspace accounts carry: a personal Gmail account never matches);
 * - microsoft: `email`, else `preferred_username` (the sign-in name, an address in a school's
 *   tenant); the issuer is pinned to the school's own tenant, whose administrators alone set them;
 * - oidc: `email` with `email_verified` true.
 * Kept in lower case, as school accounts are.
 */
export function assertedAddress(p: Pick<ProviderSettings, 'kind' | 'domains'>, claims: IdClaims, lang: Lang): Found<Address> {
  const found = addressClaim(p, claims, lang);
  // school accounts are plain addresses: a look-alike (the Kelvin sign K lower-cases to k, full-width
  // letters) must not fold onto another account's address
  const asserted = String(found.params?.email ?? found.value.email);
  if (/[^\x21-\x7e]/.test(asserted)) throw new StepFailure('SIGN_IN_ADDRESS_REFUSED', 'notPlain', { email: asserted });
  return found;
}

function addressClaim(p: Pick<ProviderSettings, 'kind' | 'domains'>, claims: IdClaims, lang: Lang): Found<Address> {
  if (p.kind === 'microsoft') {
    const email = text(claims.email);
    const name = text(claims.preferred_username);
    const found = email ? { email, claim: 'email' } : name?.includes('@') ? { email: name, claim: 'preferred_username' } : null;
    if (!found) throw new StepFailure('SIGN_IN_ADDRESS_REFUSED', 'noEmail', { claims: 'email, preferred_username' });
    return { value: { ...found, email: found.email.toLowerCase() }, detail: 'emailOk', params: found };
  }
  const email = text(claims.email);
  if (!email) throw new StepFailure('SIGN_IN_ADDRESS_REFUSED', 'noEmail', { claims: 'email' });
  if (claims.email_verified !== true) throw new StepFailure('SIGN_IN_ADDRESS_REFUSED', 'unverified', { email, value: shown(claims.email_verified) });
  if (p.kind === 'google') {
    const hd = text(claims.hd)?.toLowerCase();
    if (!hd || !p.domains.includes(hd)) throw new StepFailure('SIGN_IN_ADDRESS_REFUSED', 'hdMismatch', { email, hd: hd ?? '—', domains: listText(lang, p.domains) });
  }
  return { value: { email: email.toLowerCase(), claim: 'email' }, detail: 'emailOk', params: { email, claim: 'email' } };
}

/** The domain step: the address is of one of the provider's domains. */
export function domainOf(p: Pick<ProviderSettings, 'domains'>, address: Address, lang: Lang): Found<string> {
  const at = address.email.lastIndexOf('@');
  const domain = at > 0 ? address.email.slice(at + 1) : '';
  if (!domain || !p.domains.includes(domain)) throw new StepFailure('SIGN_IN_ADDRESS_REFUSED', 'outside', { email: address.email, domains: listText(lang, p.domains) });
  return { value: domain, detail: 'domainOk', params: { domain, domains: listText(lang, p.domains) } };
}

/**
 * The account step: the QE account linked to this provider's account (its `sub`) at an earlier
 * sign-in, or else the one whose school account is the asserted address. `linked` tells which.
 */
export async function findAccount(db: DB, providerId: number, subject: string, address: Address, lang: Lang): Promise<Found<{ user: Account; linked: boolean }>> {
  const link = await db
    .selectFrom('sign_in_links')
    .innerJoin('users', 'users.id', 'sign_in_links.user_id')
    .selectAll('users')
    .where('sign_in_links.provider_id', '=', providerId)
    .where('sign_in_links.subject', '=', subject)
    .executeTakeFirst();
  const user = link ?? (await db.selectFrom('users').selectAll().where('school_account', '=', address.email).executeTakeFirst());
  if (!user) throw new StepFailure('SIGN_IN_NO_ACCOUNT', 'none', { email: address.email }, { email: address.email });
  const params = { name: lang === 'en' ? user.name_en : user.name_hk, username: user.username, userType: serverText(lang, `qe.userType.${user.user_type as 'ADMIN'}`), email: address.email };
  return { value: { user, linked: Boolean(link) }, detail: link ? 'linked' : 'byAddress', params };
}

/** The role step: the provider may sign in accounts of this user type. */
export function roleAllowed(p: Pick<ProviderSettings, 'roles'>, user: Account, lang: Lang): Found<true> {
  const name = (t: string) => serverText(lang, `qe.userType.${t as 'ADMIN'}`);
  const params = { userType: name(user.user_type), roles: listText(lang, p.roles.map(name)) };
  if (!p.roles.includes(user.user_type)) throw new StepFailure('SIGN_IN_ROLE_REFUSED', 'roleRefused', params, { userType: params.userType });
  return { value: true, detail: 'roleOk', params };
}

/** What a test shows of the ID token's claims. */
export function claimsOf(claims: IdClaims | null): TestReport['claims'] {
  if (!claims) return null;
  return {
    subject: String(claims.sub ?? ''),
    email: text(claims.email) ?? text(claims.preferred_username),
    emailVerified: claims.email_verified === true,
    name: text(claims.name),
  };
}

/** Links an account to the provider's account at its first sign-in (a link made meanwhile by a parallel sign-in stays). */
export async function linkAccount(db: DB, providerId: number, userId: number, subject: string, email: string, now: string): Promise<void> {
  await db
    .insertInto('sign_in_links')
    .values({ provider_id: providerId, user_id: userId, subject, email, linked_at: now, last_used_at: now })
    .onConflict((oc) => oc.columns(['provider_id', 'subject']).doNothing())
    .execute();
}
