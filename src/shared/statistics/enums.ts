/**
 * The fixed values of statistics, as `as const` tuples: the schemas of its calls are typed from
 * them (src/shared/calls/statistics.ts) and the client lists them at run time (through
 * types.ts), so they live in this plain module that imports nothing.
 */

/** Respondent roles in statistics (docs/product-rules.md#roles-and-default-permissions). */
export const RESPONDENT_ROLES = ['STUDENT', 'TEACHER'] as const;
export type RespondentRole = (typeof RESPONDENT_ROLES)[number];
