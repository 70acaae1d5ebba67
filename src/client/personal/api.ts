import type { ConfirmStatus } from '../../shared/personal';
import { request } from '../providers/http';
import { upload } from '../providers/upload';

/** Personal data as the server answers it: the identity card only masked (src/server/personal/). */
export interface PersonalValues {
  tel: string | null;
  gender: string | null;
  birthday: string | null;
  identityCardType: string | null;
  identityCardId: string | null;
  avatar: string | null;
}

export interface PersonalRequest {
  id: number;
  status: ConfirmStatus;
  values: PersonalValues;
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
}

export interface QueuedRequest extends PersonalRequest {
  userId: number;
  userNo: string | null;
  nameHk: string;
  nameEn: string;
  userType: string;
  current: PersonalValues;
}

export interface PersonalInput {
  tel: string | null;
  gender: string | null;
  birthday: string | null;
  identityCardType: string | null;
  identityCardNo?: string;
  avatar: string | null;
}

/** The items a request shows, in the form's order (the labels are qe.fields.common.*). */
export const PERSONAL_FIELDS = ['tel', 'gender', 'birthday', 'identityCardType', 'identityCardId', 'avatar'] as const;

export const myPersonalData = () => request<{ current: PersonalValues; request: PersonalRequest | null }>('/v1/my/personal-data');
export const applyPersonalData = (body: PersonalInput) => request<{ id: number; status: ConfirmStatus }>('/v1/my/personal-data', { method: 'POST', body, ignoreErr: true });
export const uploadAvatar = (form: FormData) => upload<{ path: string }>('/v1/my/personal-data/avatar', form);
export const personalQueue = (status: ConfirmStatus, page: number, size: number) =>
  request<{ list: QueuedRequest[]; total: number }>('/v1/personal-data-requests', { query: { status, page, size } });
export const confirmRequest = (id: number) => request(`/v1/personal-data-requests/${id}/confirm`, { method: 'POST' });
export const rejectRequest = (id: number, reason: string) => request(`/v1/personal-data-requests/${id}/reject`, { method: 'POST', body: { reason }, ignoreErr: true });

/** Where a stored avatar is served. */
export const avatarUrl = (path: string) => `/qe/storage/${path}`;
