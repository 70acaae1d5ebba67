import { useQuery } from '@tanstack/react-query';
import type { Dashboard } from '../../shared/dashboard';
import { percent } from '../../shared/statistics/types';
import { request } from '../providers/http';
import { formatPercent } from '../statistics/labels';

export type { Dashboard, DashboardImport, DashboardQuestionnaire, RunningQuestionnaire } from '../../shared/dashboard';

/** react-query's key of the home screen's call, per user (a new login never sees the last one's). */
export const dashboardKey = (userId: unknown) => ['dashboard', userId];

/**
 * The home screen in one call (GET /v1/my/dashboard): each card, or null for whom it does not
 * serve. Its failure is shown by the screen itself (with a way to try again), not as a toast.
 */
export function useDashboard(userId: unknown) {
  return useQuery({
    queryKey: dashboardKey(userId),
    queryFn: () => request<Dashboard>('/v1/my/dashboard', { ignoreErr: true }),
    enabled: userId !== undefined && userId !== null,
    retry: 1,
  });
}

/** submitted of respondents as the statistics screens show a share (one decimal, with its sign); a dash when nobody is asked. */
export const rateText = (submitted: number, respondents: number) => (respondents > 0 ? formatPercent(percent(submitted, respondents)) : formatPercent(null));
