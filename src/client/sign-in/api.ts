import type { IdentityProvider, IdentityProviderBody, PasswordPolicy, SignInLink, SignInLinkList } from '../../shared/calls/sign-in';
import { request } from '../providers/http';

/*
 * The calls of the screens of sign-in with the school's accounts (src/shared/calls/sign-in.ts):
 * the super administrator's settings, and the links between QE accounts and provider accounts.
 * The login screen's and the callback page's calls are auth/signInFlow.ts's (no react-admin there).
 */

export type { IdentityProvider, IdentityProviderBody, PasswordPolicy, SignInLinkList };
export type SignInLinkRow = SignInLinkList[number];

/** The query of the providers list (its counts of linked accounts change with an unlink). */
export const PROVIDERS_KEY = ['identity-providers'];

export const signInApi = {
  providers: () => request<IdentityProvider[]>('/v1/identity-providers'),
  /** a refusal is the caller's to show (in the dialog, on its fields) */
  create: (body: IdentityProviderBody) => request<IdentityProvider>('/v1/identity-providers', { method: 'POST', body, ignoreErr: true }),
  update: (id: number, body: Partial<IdentityProviderBody>) => request<IdentityProvider>(`/v1/identity-providers/${id}`, { method: 'PUT', body, ignoreErr: true }),
  remove: (id: number) => request<null>(`/v1/identity-providers/${id}`, { method: 'DELETE' }),
  test: (id: number, browserKey: string) => request<SignInLink>(`/v1/identity-providers/${id}/test`, { method: 'POST', body: { browserKey } }),
  passwordPolicy: () => request<PasswordPolicy>('/v1/sign-in/password-policy'),
  savePasswordPolicy: (policy: PasswordPolicy) => request<PasswordPolicy>('/v1/sign-in/password-policy', { method: 'PUT', body: policy, ignoreErr: true }),
  /** an account's links; a failure shows nothing (the panel says it could not read them) */
  userLinks: (userId: number | string) => request<SignInLinkList>(`/v1/users/${encodeURIComponent(String(userId))}/sign-in-links`, { ignoreErr: true }),
  unlink: (userId: number | string, linkId: number) => request<null>(`/v1/users/${encodeURIComponent(String(userId))}/sign-in-links/${linkId}`, { method: 'DELETE' }),
  myLinks: () => request<SignInLinkList>('/v1/my/sign-in-links', { ignoreErr: true }),
};
