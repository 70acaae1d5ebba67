/**
 * The end of a `switch` (or `if` chain) that handles every member of a union, such as every
 * question type or every kind of statistics summary: once all are handled, what is left has the
 * type `never`. A member added to the union later is left over, and each call stops compiling,
 * which lists the places that must handle it (docs/recipes/add-question-type.md). Reached at run
 * time only with a value outside the union (data the checks let through), it throws rather than
 * quietly doing nothing.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
