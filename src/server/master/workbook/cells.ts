/**
 * Text a spreadsheet could take for a formula (OWASP "CSV injection"): a cell that begins with
 * = + - @, a tab or a carriage return — after any quotes already in front, so that a text that
 * itself begins with a quote comes back unchanged too.
 */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;

/**
 * A cell value as QE writes it into any .xlsx: text that a spreadsheet could run as a formula
 * gets one quote in front; numbers, dates and other text are written as they are.
 */
export function neutralCell<T>(value: T): T | string {
  return typeof value === 'string' && FORMULA_LIKE.test(value) ? `'${value}` : value;
}

/** A text cell as read back by an import: the one quote `neutralCell` added is taken off again. */
export function restoredText(text: string): string {
  return text.startsWith("'") && FORMULA_LIKE.test(text) ? text.slice(1) : text;
}
