/**
 * An import whose passwords are hashed after the file was checked, as the server
 * answers it (GET /v1/import-jobs/:id) and the import screen shows it. `interrupted`: QE
 * restarted before the job ended — nothing of the file was written.
 */
export interface ImportJobView {
  id: number;
  resource: string;
  status: 'running' | 'done' | 'failed' | 'interrupted';
  rows: number;
  passwords: number;
  hashed: number;
  added: number;
  updated: number;
  skipped: number;
  /** why a failed job wrote nothing, line by line, in the importer's language */
  errors: string[] | null;
  createdAt: number;
  finishedAt: number | null;
}
