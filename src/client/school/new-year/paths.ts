/** The new-school-year wizard's address (under the school-year list, which it highlights). */
export const NEW_YEAR_PATH = '/master/years/new-year';
export const YEARS_LIST_PATH = '/master/years/list';
