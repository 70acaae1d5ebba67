import type { QuestionnaireType } from './questionnaire/types.js';

/** A questionnaire I am asked to answer, on the home screen. */
export interface DashboardQuestionnaire {
  id: number;
  title: string;
  type: QuestionnaireType;
  /** ISO time; null: no end date */
  endDate: string | null;
}

/** A running questionnaire whose results I read, with how many were asked and have submitted. */
export interface RunningQuestionnaire extends DashboardQuestionnaire {
  respondents: number;
  /** an anonymous questionnaire's: the replies released so far (in batches), never the live count */
  submitted: number;
  /** whether I may send its reminder mail (POST /v1/questionnaires/:id/notice) */
  mayRemind: boolean;
}

/** One of my imports into a master-data list. */
export interface DashboardImport {
  id: number;
  /** the list imported into, e.g. `students` */
  resource: string;
  status: 'running' | 'done' | 'failed' | 'interrupted';
  rows: number;
  added: number;
  updated: number;
  skipped: number;
  createdAt: string;
  finishedAt: string | null;
}

/**
 * GET /v1/my/dashboard: what the home screen shows, each card null for whom it does not serve —
 * toAnswer (form-input.view): questionnaires open now I have not submitted, soonest end first,
 * none-ending last; running (data-statistics.view): running questionnaires whose results I read;
 * school (data-statistics.management): the school's running questionnaires in all, and my latest
 * imports. Lists hold at most 10; `total` counts them all.
 */
export interface Dashboard {
  toAnswer: { total: number; list: DashboardQuestionnaire[] } | null;
  running: { total: number; list: RunningQuestionnaire[] } | null;
  school: { openQuestionnaires: number; respondents: number; submitted: number; imports: DashboardImport[] } | null;
}
