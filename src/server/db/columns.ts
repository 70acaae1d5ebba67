import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from './connect.js';

/** An auto-incrementing integer primary key `id`, spelled as each dialect wants it. */
export function withId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
