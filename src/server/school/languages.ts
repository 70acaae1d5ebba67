import type { Kysely } from 'kysely';
import type { NameLanguage } from '../../shared/master/entity.js';

export interface LanguageEntry {
  code: NameLanguage;
  required: '1' | '0';
}

/** Both languages required: a school before its first run, or a language list that cannot be read. */
const BOTH: NameLanguage[] = ['zh-hk', 'en'];

/**
 * The languages whose names every record must give (the language list: docs/product-rules.md#records-and-fields), read from the
 * database at each write: a change in the school settings holds at once for every user, and
 * there is no cache to go stale.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by the schema-less master-data engine too
export async function requiredLanguages(db: Kysely<any>): Promise<NameLanguage[]> {
  const school = await db.selectFrom('school').select('languages').orderBy('id').executeTakeFirst();
  if (!school) return BOTH;
  try {
    const list = JSON.parse(String(school.languages)) as LanguageEntry[];
    return list.filter((l) => l.required === '1').map((l) => l.code);
  } catch {
    return BOTH;
  }
}

/**
 * Names a request's body leaves empty although the school requires their language, noted before
 * the schema is checked: when the schema refuses the body too, the 422 names these fields with
 * the others (one answer lists every problem, as the forms do).
 */
export const missingNamesOf = new WeakMap<object, string[]>();
