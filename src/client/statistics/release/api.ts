import type { ResultReleaseBody, ResultReleaseState, ResultSummary, ResultSummaryList } from '../../../shared/calls/result-releases';
import { request } from '../../providers/http';

/**
 * Results released (docs/product-rules.md#results-released): the staff's release calls and the
 * readers' summaries. Types only from src/shared/calls/result-releases.ts.
 */

const at = (id: number) => `/v1/statistics/${encodeURIComponent(String(id))}/release`;

export const releaseStateKey = (id: number) => ['statistics', 'release', id] as const;
export const MY_SUMMARIES_KEY = ['my', 'result-summaries'] as const;

export const fetchReleaseState = (id: number) => request<ResultReleaseState>(at(id), { ignoreErr: true });
/** A refusal (739, 745–748) is shown as a toast by request(). */
export const releaseResults = (id: number, body: ResultReleaseBody) => request<ResultReleaseState>(at(id), { method: 'PUT', body });
export const withdrawRelease = (id: number) => request<ResultReleaseState>(at(id), { method: 'DELETE' });

export const fetchMySummaries = () => request<ResultSummaryList>('/v1/my/result-summaries', { ignoreErr: true });
/** 738 (not released to me, withdrawn) is the screen's to say: no toast. */
export const fetchMySummary = (id: number) => request<ResultSummary>(`/v1/my/result-summaries/${encodeURIComponent(String(id))}`, { ignoreErr: true });

export const resultsPath = (id: number) => `/questionnaire-filling/results?id=${encodeURIComponent(String(id))}`;
