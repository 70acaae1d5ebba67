import type { Kysely } from 'kysely';

const INDEX = 'student_classes_number_uq';

/**
 * A class number is one pupil's in a class and school year: a unique index on
 * (school year, class, number) behind the check the server makes when it writes.
 *
 * QE accepted a number given twice until now, so an install may hold some. Failing the start
 * for that would lock the school out of the very screens that fix them, and renumbering pupils
 * behind the school's back would be worse. So the index is made only when no number is given
 * twice; otherwise this migration makes nothing and `classNumberIndex` (run at every start, see
 * ../migrate.ts) makes it at the first start after the school has fixed the last one. Meanwhile
 * the server's own check keeps new ones out (src/server/master/store.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await classNumberIndex(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(INDEX).ifExists().execute();
}

/** Makes the index when it is missing and no class number is given twice; answers whether it exists now. */
export async function classNumberIndex(db: Kysely<any>): Promise<boolean> {
  const twice = await db
    .selectFrom('student_classes')
    .select('school_year_id')
    .groupBy(['school_year_id', 'class_id', 'student_number'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .limit(1)
    .executeTakeFirst();
  if (twice) return false;
  await db.schema.createIndex(INDEX).ifNotExists().unique().on('student_classes').columns(['school_year_id', 'class_id', 'student_number']).execute();
  return true;
}
