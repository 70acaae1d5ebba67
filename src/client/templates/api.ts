import type { HttpError } from 'react-admin';
import type { SaveAsTemplateBody, TemplateChangeBody, TemplateDetail, TemplatePage, TemplateUse, UseTemplateBody } from '../../shared/calls/templates';
import { request } from '../providers/http';

/** react-admin's resource name (GET /v1/questionnaire-templates …). */
export const TEMPLATES = 'questionnaire-templates';

const at = (id: number, action?: string) => `/v1/questionnaire-templates/${encodeURIComponent(String(id))}${action ? `/${action}` : ''}`;

/**
 * The template calls of src/shared/questionnaire/API.md beyond the list: request() shows a business
 * error (709 retired, 714 no questions…) as a toast and hands a 422's field errors to the dialog.
 */
export const templateApi = {
  /** one template with its questions: the preview */
  get: (id: number) => request<TemplateDetail>(at(id)),
  search: (q: string) => request<TemplatePage>('/v1/questionnaire-templates', { query: { q: q || undefined, size: 20 }, ignoreErr: true }),
  update: (id: number, body: TemplateChangeBody) => request<TemplateDetail>(at(id), { method: 'PUT', body }),
  retire: (id: number) => request<TemplateDetail>(at(id, 'retire'), { method: 'POST' }),
  restore: (id: number) => request<TemplateDetail>(at(id, 'restore'), { method: 'POST' }),
  use: (id: number, body: UseTemplateBody) => request<TemplateUse>(at(id, 'use'), { method: 'POST', body }),
  saveAs: (questionnaireId: number, body: SaveAsTemplateBody) =>
    request<TemplateDetail>(`/v1/questionnaires/${encodeURIComponent(String(questionnaireId))}/save-as-template`, { method: 'POST', body }),
};

/** A refused call's field errors (422: `{field: message}`), or null when it was refused otherwise (request() has shown that). */
export function fieldErrorsOf(e: unknown): Record<string, string> | null {
  const error = e as HttpError | undefined;
  const errors = (error?.body as { errors?: unknown } | undefined)?.errors;
  if (error?.status !== 422 || !errors || typeof errors !== 'object') return null;
  return Object.fromEntries(Object.entries(errors as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}
