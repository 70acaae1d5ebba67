import type { Definition } from '../../shared/questionnaire/definition.js';

/** Definitions kept at most (a school has a few questionnaires open at once). */
const KEPT = 64;
const parsed = new Map<string, Definition>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A questionnaire's definition parsed from its stored text, once per text: a whole school
 * submitting the same questionnaire parsed the same JSON for every reply. Keyed by the text
 * itself, so a changed definition is parsed anew; frozen, as every caller shares it.
 */
export function parseDefinition(text: string): Definition {
  const kept = parsed.get(text);
  if (kept) return kept;
  const definition = deepFreeze(JSON.parse(text) as Definition);
  if (parsed.size >= KEPT) parsed.delete(parsed.keys().next().value!);
  parsed.set(text, definition);
  return definition;
}
