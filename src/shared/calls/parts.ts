import type { UserType } from '../permissions.js';

/**
 * Request schema parts that calls share: a record id, a list of ids, paging. Each states its
 * range, so an id beyond what the databases hold or a page past any list is refused (422)
 * before a query runs.
 */

/** The largest integer both databases hold in an `integer` column (PostgreSQL's int4). */
export const INTEGER_MAX = 2_147_483_647;

export const idSchema = { type: 'integer', minimum: 1, maximum: INTEGER_MAX } as const;

/** `/:id` */
export const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: idSchema } } as const;

/** `?id=1&id=2`: the records a reference field shows (react-admin's getMany) */
export const idListSchema = { type: 'array', items: idSchema, maxItems: 1000 } as const;

/** The largest page number: a million pages of 20 is far past any school's list. */
export const PAGE_MAX = 1_000_000;

/** `page` (from 1) and `size` (at most `maxSize` rows) */
export function pagingProperties<const N extends number>(maxSize: N, defaults = false) {
  return {
    page: { type: 'integer', minimum: 1, maximum: PAGE_MAX, ...(defaults ? { default: 1 } : {}) },
    size: { type: 'integer', minimum: 1, maximum: maxSize, ...(defaults ? { default: 20 } : {}) },
  } as const;
}

/**
 * Every user type, as the tuple a schema's `enum` is typed from. It is UserType exactly: a
 * value UserType lacks is refused by `satisfies`, and a user type the tuple lacks makes
 * USER_TYPE_ENUM `never`, which the tuple cannot be assigned to.
 */
const EVERY_USER_TYPE = ['SUPER_ADMIN', 'ADMIN', 'TEACHER', 'STUDENT'] as const satisfies readonly UserType[];
export const USER_TYPE_ENUM: [Exclude<UserType, (typeof EVERY_USER_TYPE)[number]>] extends [never] ? typeof EVERY_USER_TYPE : never = EVERY_USER_TYPE;
