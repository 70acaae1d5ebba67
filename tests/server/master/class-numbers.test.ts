import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../src/server/config.js';
import { testConfig } from '../../support/config.js';
import { buildApp } from '../../../src/server/app.js';
import type { DB } from '../../../src/server/db/connect.js';
import { down, up } from '../../../src/server/db/migrations/0010_class_numbers.js';
import { seedDemoSchool } from '../../../src/server/demo/seed.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { createTestDatabase } from '../../support/database.js';
import { login } from '../harness.js';
import { caller } from './helpers.js';

/**
 * The unique index on (school year, class, class number), on an install that already holds a
 * number given twice (QE once accepted them): the server still starts, keeps
 * refusing new clashes, lets the school fix the old ones, and makes the index at the first
 * start after the last one is gone.
 */
describe('class numbers on an install that holds duplicates', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let config: Config;
  let app: FastifyInstance;
  let db: DB;
  let place: { school_year_id: number; class_id: number; student_number: number };
  let holders: number[];

  const start = async () => {
    ({ app, db } = await buildApp(config, { logger: false }));
    await app.ready();
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    config = testConfig(database);
    await start();
    await seedDemoSchool(db);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  /** Gives a second student the first student's place, straight in the table. */
  const duplicate = async () => {
    const [a, b] = await db.selectFrom('student_classes').selectAll().orderBy('id').limit(2).execute();
    place = { school_year_id: a.school_year_id, class_id: a.class_id, student_number: a.student_number };
    await db.updateTable('student_classes').set(place).where('id', '=', b.id).execute();
    holders = [a.user_id, b.user_id];
  };

  it('refuses a duplicate in the table itself once migrated', async () => {
    await expect(duplicate()).rejects.toThrow();
  });

  it('migrates without failing over duplicates, and the server starts', async () => {
    // back to the level before the index, as an install of the last release is
    await down(db);
    await duplicate();
    await up(db);
    await app.close();
    await start();
    expect((await app.inject({ method: 'GET', url: '/v1/school-info' })).json().code).toBe(200);
    // no index yet: the table takes a third holder of the place
    const third = await db.selectFrom('student_classes').select('id').where('user_id', 'not in', holders).orderBy('id').executeTakeFirstOrThrow();
    await db.updateTable('student_classes').set(place).where('id', '=', third.id).execute();
    await db.updateTable('student_classes').set({ student_number: 900 }).where('id', '=', third.id).execute();
  });

  it('keeps refusing new clashes through the API, and lets a holder of a duplicated place be edited', async () => {
    const call = caller(app, (await login(app, 'admin')).tk);
    const res = await call('POST', '/v1/students', { code: 'S9501', username: 'dup9501', password: 'abc12345', nameHk: '甲', nameEn: 'A', classId: place.class_id, studentNumber: place.student_number });
    expect(res.json()).toMatchObject({ code: 422, data: { studentNumber: fieldMessage('classNumberTaken', 'en') } });
    const edited = await call('PUT', `/v1/students/${holders[1]}`, { nameEn: 'Still Here', classId: place.class_id, studentNumber: place.student_number });
    expect(edited.json()).toMatchObject({ code: 200, data: { nameEn: 'Still Here', studentNumber: place.student_number } });
    // the fix: another number for the second holder
    expect((await call('PUT', `/v1/students/${holders[1]}`, { studentNumber: 901 })).json().code).toBe(200);
  });

  it('makes the index at the first start after the duplicates are fixed', async () => {
    await app.close();
    await start();
    const second = await db.selectFrom('student_classes').select('id').where('user_id', '=', holders[1]).executeTakeFirstOrThrow();
    await expect(db.updateTable('student_classes').set(place).where('id', '=', second.id).execute()).rejects.toThrow();
  });
});
