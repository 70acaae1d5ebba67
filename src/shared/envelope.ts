/** Every answer of the server is this envelope (docs/conventions.md#the-envelope). */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** A page of a list: GET /v1/{resource} answers this in `data`. */
export interface Page<T> {
  list: T[];
  total: number;
}

/** HTTP 422 carries `{field: message}` in `data`. */
export type FieldErrors = Record<string, string>;

export const SYSTEM_CODE = 'QE';
export const REQUEST_TIMEOUT_MS = 60_000;
