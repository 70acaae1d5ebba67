/**
 * The "new school year" roll-over as the server and the wizard screen both see it
 * (POST /v1/school-years/rollover/preview and /v1/school-years/rollover; src/server/school/rollover.ts):
 * the types read from the calls' schemas (src/shared/calls/school.ts).
 */
export type { ClassMove, RolloverPreview, RolloverRequest } from '../calls/school.js';
