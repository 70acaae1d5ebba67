import type { RolloverPreview, RolloverRequest } from '../../../shared/school/rollover';
import { request } from '../../providers/http';

export type { ClassMove, RolloverPreview, RolloverRequest } from '../../../shared/school/rollover';

/** What the roll-over would do, written nowhere; errors come back to the screen (725, 727, 728) rather than as a toast. */
export const previewRollover = (body: RolloverRequest) => request<RolloverPreview>('/v1/school-years/rollover/preview', { method: 'POST', body, ignoreErr: true });

/** The roll-over itself: all or nothing. */
export const runRollover = (body: RolloverRequest & { switchDate: string | null }) => request<RolloverPreview>('/v1/school-years/rollover', { method: 'POST', body, ignoreErr: true });

/** A yyyy-MM-dd that is a real day. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
