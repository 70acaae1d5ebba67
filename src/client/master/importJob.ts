import { useEffect, useState } from 'react';
import type { ImportJobView } from '../../shared/master/import-job';
import { request } from '../providers/http';

const POLL_MS = 1_000;
/** The ended jobs whose outcome the importer has seen, by list: not shown again when the dialog opens. */
const seenKey = (resource: string) => `qe-import-seen-${resource}`;

export const markSeen = (job: ImportJobView) => localStorage.setItem(seenKey(job.resource), String(job.id));

/**
 * The import job the dialog follows: the one an upload started, or — when the dialog opens —
 * the importer's latest for this list while it runs or when it ended unseen (after a reload, or
 * a restart of QE that interrupted it). Polled every second until it ends.
 */
export function useImportJob(resource: string): [ImportJobView | null, (job: ImportJobView | null) => void] {
  const [job, setJob] = useState<ImportJobView | null>(null);

  useEffect(() => {
    let gone = false;
    request<ImportJobView | null>('/v1/import-jobs/latest', { query: { resource }, ignoreErr: true })
      .then((latest) => {
        if (gone || !latest) return;
        const unseen = localStorage.getItem(seenKey(resource)) !== String(latest.id);
        if (latest.status === 'running' || unseen) setJob((current) => current ?? latest);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
    };
  }, [resource]);

  const id = job?.status === 'running' ? job.id : null;
  useEffect(() => {
    if (id === null) return;
    let gone = false;
    const timer = setInterval(() => {
      request<ImportJobView>(`/v1/import-jobs/${id}`, { ignoreErr: true })
        .then((now) => !gone && setJob(now))
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      gone = true;
      clearInterval(timer);
    };
  }, [id]);

  return [job, setJob];
}
