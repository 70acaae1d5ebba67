/**
 * GET /v1/my/dashboard: what the home screen shows, each card null for whom it does not serve.
 * The types are read from the call's schema (src/shared/calls/dashboard.ts,
 * docs/conventions.md#call-shapes); only types come from there, so no schema reaches the client.
 */
export type { Dashboard, DashboardImport, DashboardQuestionnaire, RunningQuestionnaire } from './calls/dashboard.js';
