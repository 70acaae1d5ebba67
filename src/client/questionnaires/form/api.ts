import type { Page } from '../../../shared/envelope';
import type { AudienceCount, Questionnaire, Target } from '../../../shared/questionnaire/types';
import type { AudienceOption as TargetOption, AudienceOptionsQuery, NoticeSent, StaffOption, YearCopy, YearCopyBody } from '../../../shared/calls/questionnaires';
import { request } from '../../providers/http';

// what the pickers' calls answer, described once with their schemas (docs/conventions.md#call-shapes)

/** One choice of the pickers: a teacher group, grade, class or person, and how many people it covers (1 for a person); staff options have no count. */
export type AudienceOption = StaffOption & Partial<Pick<TargetOption, 'count'>>;

export type OptionKind = AudienceOptionsQuery['kind'];

/** The server caps a page at 200: longer id lists are asked for in pieces. */
const MAX_PAGE = 200;
const chunks = (ids: number[]) => Array.from({ length: Math.ceil(ids.length / MAX_PAGE) }, (_, i) => ids.slice(i * MAX_PAGE, (i + 1) * MAX_PAGE));

async function options(path: string, query: Record<string, unknown>, ids?: number[]): Promise<AudienceOption[]> {
  if (!ids) return (await request<Page<AudienceOption>>(path, { query: { ...query, size: 50 }, ignoreErr: true })).list;
  const pages = await Promise.all(chunks(ids).map((part) => request<Page<AudienceOption>>(path, { query: { ...query, id: part, size: part.length }, ignoreErr: true })));
  return pages.flatMap((p) => p.list);
}

const at = (id: number, action: string) => `/v1/questionnaires/${encodeURIComponent(String(id))}/${action}`;

/**
 * The calls of src/shared/questionnaire/API.md beyond react-admin's CRUD. The lifecycle calls
 * let request() show a business error (709, 710…) as a toast; the pickers' calls stay quiet.
 */
export const questionnaireApi = {
  ready: (id: number) => request<Questionnaire>(at(id, 'ready'), { method: 'POST' }),
  cancelReady: (id: number) => request<Questionnaire>(at(id, 'cancel-ready'), { method: 'POST' }),
  close: (id: number) => request<Questionnaire>(at(id, 'close'), { method: 'POST' }),
  extend: (id: number, endDate: string) => request<Questionnaire>(at(id, 'extend'), { method: 'POST', body: { endDate } }),
  copy: (id: number) => request<Questionnaire>(at(id, 'copy'), { method: 'POST' }),
  /** last year's questionnaire as a draft of this year, its audience carried by grade or by people */
  copyForYear: (id: number, body: YearCopyBody) => request<YearCopy>(at(id, 'copy-for-year'), { method: 'POST', body }),
  /** respondents without an e-mail address are counted apart (noAddress): no mail failed for them */
  notice: (id: number) => request<NoticeSent>(at(id, 'notice'), { method: 'POST' }),
  remove: (id: number) => request<null>(`/v1/questionnaires/${encodeURIComponent(String(id))}`, { method: 'DELETE' }),

  /** How many people each choice covers and all of them without duplicates (the questionnaire's school year, else the current one). */
  audienceCount: (targets: Target[], schoolYearId?: number | null) =>
    request<AudienceCount>('/v1/questionnaires/audience-count', { method: 'POST', body: schoolYearId ? { targets, schoolYearId } : { targets }, ignoreErr: true }),

  /** The target picker's choices of one kind: by search text, or the given ids. */
  audienceOptions: (kind: OptionKind, { q, ids }: { q?: string; ids?: number[] }) => options('/v1/audience-options', { kind, q }, ids),

  /** Admins and teachers for the assistant picker: by search text, or the given ids. */
  staffOptions: ({ q, ids }: { q?: string; ids?: number[] }) => options('/v1/staff-options', { q }, ids),
};
