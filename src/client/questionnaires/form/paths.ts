/** The screens of the questionnaire area (docs/product-rules.md#screens-and-routes): /forms/list, view, add, edit and doc (the designer), the record's id as `?id=`. */
export type FormsScreen = 'list' | 'view' | 'add' | 'edit' | 'doc';

export const formsPath = (screen: FormsScreen, id?: unknown) => `/forms/${screen}${id === undefined || id === null ? '' : `?id=${encodeURIComponent(String(id))}`}`;

/** react-admin's resource name (GET /v1/questionnaires …). */
export const QUESTIONNAIRES = 'questionnaires';
