import type { Definition } from '../../shared/questionnaire/definition.js';
import type { DB } from '../db/connect.js';

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

/**
 * Questionnaires' definitions by id, each kept with the row's create_date and updated_at as they
 * were read: a submission reads those two small columns with the respondent's feedback record and
 * takes the definition from here while they match, instead of reading (and comparing) the whole
 * definition text for every reply. Every change of a questionnaire moves its updated_at
 * (questionnaires/service.ts); another instance's change too, as the stamp is read with every call.
 */
export class DefinitionsById {
  private readonly kept = new Map<number, { stamp: string; definition: Definition }>();

  constructor(private readonly db: DB) {}

  async get(id: number, createDate: string, updatedAt: string): Promise<Definition | undefined> {
    const stamp = `${createDate}|${updatedAt}`;
    const kept = this.kept.get(id);
    if (kept?.stamp === stamp) return kept.definition;
    const row = await this.db.selectFrom('questionnaires').select(['definition', 'create_date', 'updated_at']).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const definition = parseDefinition(row.definition);
    // kept under the stamp read with it: a change in between is read again next time
    if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(id, { stamp: `${row.create_date}|${row.updated_at}`, definition });
    return definition;
  }
}
