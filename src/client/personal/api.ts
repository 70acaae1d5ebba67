import type { ConfirmStatus } from '../../shared/personal';
import type { MyPersonalData, PersonalDataInput, PersonalQueue, PersonalRequest, PersonalValues, QueuedRequest, RequestState, StoredAvatar } from '../../shared/calls/personal';
import { request } from '../providers/http';
import { upload } from '../providers/upload';

/** Personal data as the server answers it (the identity card only masked), a request, the approver's queue: src/shared/calls/personal.ts. */
export type { PersonalValues, PersonalRequest, QueuedRequest };

/** What the form sends: every field it shows; a number only when one is typed. */
export type PersonalInput = PersonalDataInput;

/** The items a request shows, in the form's order (the labels are qe.fields.common.*). */
export const PERSONAL_FIELDS = ['tel', 'gender', 'birthday', 'identityCardType', 'identityCardId', 'avatar'] as const;

export const myPersonalData = () => request<MyPersonalData>('/v1/my/personal-data');
export const applyPersonalData = (body: PersonalInput) => request<RequestState>('/v1/my/personal-data', { method: 'POST', body, ignoreErr: true });
export const uploadAvatar = (form: FormData) => upload<StoredAvatar>('/v1/my/personal-data/avatar', form);
export const personalQueue = (status: ConfirmStatus, page: number, size: number) =>
  request<PersonalQueue>('/v1/personal-data-requests', { query: { status, page, size } });
export const confirmRequest = (id: number) => request<RequestState>(`/v1/personal-data-requests/${id}/confirm`, { method: 'POST' });
export const rejectRequest = (id: number, reason: string) => request<RequestState>(`/v1/personal-data-requests/${id}/reject`, { method: 'POST', body: { reason }, ignoreErr: true });

/** Where a stored avatar is served. */
export const avatarUrl = (path: string) => `/qe/storage/${path}`;
