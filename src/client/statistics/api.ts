import { RESPONDENT_ROLES, type RespondentPage, type StatisticsDetail, type StatisticsFilter, type StatisticsComparison, type StatisticsReply, type TermList, type TextMarksResult, type TextPage } from '../../shared/statistics/types';
import type { Lang } from '../../shared/i18n/text';
import { request } from '../providers/http';

/**
 * The statistics calls of src/shared/statistics/API.md, and the screens' paths. Numbers are
 * shown as the server gives them (percentages are `percent()` of types.ts, computed there):
 * the client never recomputes a count or a share.
 */

/** react-admin's resource name of the list (GET /v1/statistics). */
export const STATISTICS = 'statistics';

/** The list's filters and page are kept in react-admin's store (the route is cached). */
export const STATISTICS_LIST_STORE_KEY = 'statistics.listParams';

export type StatisticsScreen = 'list' | 'detail';
export const statisticsPath = (screen: StatisticsScreen, id?: unknown) => `/data-statistics/${screen}${id === undefined || id === null ? '' : `?id=${encodeURIComponent(String(id))}`}`;

/** Page sizes of the texts and respondents lists (the server allows up to 200). */
export const TEXT_PAGE_SIZES = [10, 20, 50];
export const RESPONDENT_PAGE_SIZES = [20, 50, 100];

/** The filter kept in the detail's URL (?id=…&role=…&gradeId=…&classId=…); anything malformed is dropped. */
export function filterFromParams(params: URLSearchParams): StatisticsFilter {
  const filter: StatisticsFilter = {};
  const role = params.get('role');
  if (role && (RESPONDENT_ROLES as readonly string[]).includes(role)) filter.role = role as StatisticsFilter['role'];
  const int = (name: string) => {
    const n = Number(params.get(name));
    return params.get(name) && Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const gradeId = int('gradeId');
  const classId = int('classId');
  if (gradeId !== undefined) filter.gradeId = gradeId;
  if (classId !== undefined) filter.classId = classId;
  return filter;
}

/** The filter as query values (absent ones left out). */
export const filterQuery = (filter: StatisticsFilter): Record<string, unknown> => ({ role: filter.role, gradeId: filter.gradeId, classId: filter.classId });

/** The detail's labels are in the interface language (Accept-Language): one cached detail per language. */
export const detailKey = (id: number, filter: StatisticsFilter, locale: string) => [STATISTICS, 'detail', id, filterQuery(filter), locale] as const;

/** `language` asks for the questionnaire's texts in that language instead of the interface's (a report in the other language). */
export const fetchDetail = (id: number, filter: StatisticsFilter, language?: Lang) =>
  request<StatisticsDetail>(`/v1/statistics/${id}`, { query: { ...filterQuery(filter), language }, ignoreErr: true });

export interface TextQuery {
  questionId: string;
  part: 'answer' | 'other';
  q: string;
  /** only the answers that use this word or phrase (one of fetchTerms') */
  term?: string;
  /** only those marked shown for a release (true), or not (false); all when absent */
  shown?: boolean;
  page: number;
  size: number;
}

export const fetchTexts = (id: number, filter: StatisticsFilter, t: TextQuery) =>
  request<TextPage>(`/v1/statistics/${id}/texts`, { query: { ...filterQuery(filter), questionId: t.questionId, part: t.part === 'other' ? 'other' : undefined, q: t.q, term: t.term, shown: t.shown, page: t.page, size: t.size } });

/** Marks answers of a text question shown or hidden for a release; the screen's filter says which group it reads (a withheld one refuses). */
export const markTexts = (id: number, filter: StatisticsFilter, questionId: string, replyIds: string[], shown: boolean) =>
  request<TextMarksResult>(`/v1/statistics/${id}/texts/marks`, { method: 'PUT', body: { ...filterQuery(filter), questionId, replyIds, shown } });

/** The questionnaire's series year by year, for the filter, in the reader's language. */
export const fetchComparison = (id: number, filter: StatisticsFilter, language?: Lang) => request<StatisticsComparison>(`/v1/statistics/${id}/comparison`, { query: { ...filterQuery(filter), language } });

/** How many words and phrases the statistics screen shows a question with. */
export const TERMS_SHOWN = 20;

export const fetchTerms = (id: number, filter: StatisticsFilter, questionId: string, part: 'answer' | 'other') =>
  request<TermList>(`/v1/statistics/${id}/terms`, { query: { ...filterQuery(filter), questionId, part: part === 'other' ? 'other' : undefined, size: TERMS_SHOWN } });

export interface RespondentQuery {
  status?: 'SUBMITTED' | 'NOT_SUBMITTED';
  q: string;
  page: number;
  size: number;
}

export const fetchRespondents = (id: number, filter: StatisticsFilter, r: RespondentQuery) =>
  request<RespondentPage>(`/v1/statistics/${id}/respondents`, { query: { ...filterQuery(filter), status: r.status, q: r.q, page: r.page, size: r.size } });

export const fetchReply = (id: number, replyId: string) => request<StatisticsReply>(`/v1/statistics/${id}/replies/${encodeURIComponent(replyId)}`);
