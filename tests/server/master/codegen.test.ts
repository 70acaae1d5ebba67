import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { DEFAULT_PATHS, run, type CodegenPaths } from '../../../scripts/codegen.js';
import { buildApp } from '../../../src/server/app.js';
import { testConfig } from '../../support/config.js';
import type { DB } from '../../../src/server/db/connect.js';
import type { MasterDeps } from '../../../src/server/master/crud.js';
import { seedDemoSchool } from '../../../src/server/demo/seed.js';
import type { MasterEntity } from '../../../src/shared/master/entity.js';
import { masterPages } from '../../../src/shared/master/pages.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { errorText } from '../../../src/shared/errors.js';
import { createTestDatabase } from '../../support/database.js';
import { up as createRooms } from '../../fixtures/room-migration.js';
import { bearer, login } from '../harness.js';
import { caller } from './helpers.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = join(root, 'tests/fixtures');
// a folder of this run's own: another `npm test` beside this one writes its own
const generated = join(fixtures, 'generated', `run-${process.pid}-${Date.now().toString(36)}`);
const shown = relative(root, generated).replace(/\\/g, '/');

/** Codegen run on the fixture schemas only, into a scratch folder; the engine modules are the real ones. */
const paths: CodegenPaths = {
  ...DEFAULT_PATHS,
  schemasDir: join(fixtures, 'schemas'),
  sharedDir: join(generated, 'shared'),
  serverDir: join(generated, 'server'),
  clientDir: join(generated, 'client'),
  rulesDir: join(root, 'src/server/master/rules'),
  dbDir: join(generated, 'db'),
};

describe('codegen', () => {
  it('leaves the committed generated code up to date with schemas/', async () => {
    expect(await run(DEFAULT_PATHS, true)).toEqual([]);
  });
});

describe('adding an entity is one schema (and its migration)', () => {
  let app: FastifyInstance;
  let db: DB;
  let drop: () => Promise<void>;
  let call: ReturnType<typeof caller>;
  let tk: string;

  beforeAll(async () => {
    rmSync(generated, { recursive: true, force: true });
    const written = await run(paths);
    expect(written.map((f) => f.replace(/\\/g, '/')).sort()).toEqual([
      `${shown}/client/resources.ts`,
      `${shown}/client/validators.ts`,
      `${shown}/db/migrations.ts`,
      `${shown}/server/routes.ts`,
      `${shown}/shared/master-entities.ts`,
      `${shown}/shared/master-types.ts`,
    ]);

    const database = await createTestDatabase();
    const config = testConfig(database);
    // an install that runs without rooms first: starting QE with them then seeds the page and grants it
    const before = await buildApp(config, { logger: false });
    await before.app.close();
    const { room } = ((await import(join(paths.sharedDir, 'master-entities.ts'))) as { masterEntities: { room: MasterEntity } }).masterEntities;
    const built = await buildApp(config, {
      logger: false,
      extraMasterPages: masterPages([room]),
      extraMasterRoutes: async (scope: FastifyInstance, deps: MasterDeps) => {
        const routes = (await import(join(paths.serverDir, 'routes.ts'))) as { generatedMasterRoutes: (a: FastifyInstance, d: MasterDeps) => Promise<void> };
        await routes.generatedMasterRoutes(scope, deps);
      },
    });
    app = built.app;
    db = built.db;
    drop = async () => {
      await app.close();
      await database.drop();
    };
    await createRooms(db);
    await seedDemoSchool(db);
    await app.ready();
    tk = (await login(app, 'admin')).tk;
    call = caller(app, tk);
  });
  afterAll(async () => {
    await drop?.();
    rmSync(generated, { recursive: true, force: true });
  });

  it('generates the types, the entity, the routes and the client resource of the fixture alone', async () => {
    expect(await run(paths, true)).toEqual([]);
    const types = readFileSync(join(paths.sharedDir, 'master-types.ts'), 'utf8');
    expect(types).toMatch(/export interface Room \{/);
    expect(types).toMatch(/capacity\?: number/);
    const routes = readFileSync(join(paths.serverDir, 'routes.ts'), 'utf8');
    expect(routes).toContain('crudRoutes(app, deps, masterEntities.room)');
    expect(routes).not.toContain('masterEntities.teacher');
    const entities = readFileSync(join(paths.sharedDir, 'master-entities.ts'), 'utf8');
    expect(entities).toContain("export type MasterKey = 'room';");
    expect(existsSync(join(paths.clientDir, 'resources.ts'))).toBe(true);
  });

  it('adds, lists, searches, sorts, edits and deletes rooms through the generated API', async () => {
    const a = await call('POST', '/v1/rooms', { code: 'R101', nameHk: '一零一室', nameEn: 'Room 101', capacity: 40 });
    expect(a.json(), a.body).toEqual({ code: 201, msg: 'success', data: { id: expect.any(Number), code: 'R101', nameHk: '一零一室', nameEn: 'Room 101', capacity: 40 } });
    const b = (await call('POST', '/v1/rooms', { code: 'LAB1', nameHk: '實驗室', nameEn: 'Science lab' })).json().data;
    expect(b.capacity).toBe(30);
    await call('POST', '/v1/rooms', { code: 'HALL', nameHk: '禮堂', nameEn: 'Hall', capacity: 800 });

    const list = (await call('GET', '/v1/rooms')).json().data;
    expect(list.total).toBe(3);
    expect(list.list.map((r: { code: string }) => r.code)).toEqual(['HALL', 'LAB1', 'R101']);
    const bySize = (await call('GET', '/v1/rooms?sort=capacity&order=desc&size=2&page=1')).json().data;
    expect(bySize).toMatchObject({ total: 3, list: [{ code: 'HALL' }, { code: 'R101' }] });
    expect((await call('GET', '/v1/rooms?q=lab')).json().data.list.map((r: { code: string }) => r.code)).toEqual(['LAB1']);
    expect((await call('GET', '/v1/rooms?q=禮堂')).json().data.total).toBe(1);

    const edited = await call('PUT', `/v1/rooms/${a.json().data.id}`, { capacity: 36 });
    expect(edited.json().data).toMatchObject({ code: 'R101', nameEn: 'Room 101', capacity: 36 });
    expect((await call('GET', `/v1/rooms/${a.json().data.id}`)).json().data.capacity).toBe(36);

    const sheet = await app.inject({ method: 'GET', url: '/v1/rooms/export?q=r101', headers: bearer(tk) });
    expect(sheet.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0].rowCount).toBe(2);
    expect(workbook.worksheets[0].getRow(2).getCell(1).value).toBe('R101');

    expect((await call('DELETE', `/v1/rooms/${b.id}`)).json()).toEqual({ code: 200, msg: 'success', data: null });
    expect((await call('GET', `/v1/rooms/${b.id}`)).json()).toEqual({ code: 404, msg: errorText('RECORD_NOT_FOUND', 'en'), data: null });
    expect((await call('GET', '/v1/rooms')).json().data.total).toBe(2);
  });

  it('refuses a bad body with 422 field errors, and a duplicate code naming it', async () => {
    const bad = await call('POST', '/v1/rooms', { code: 'R 102', nameHk: '', capacity: 0, floor: 3 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().data).toEqual({
      code: fieldMessage('pattern', 'en'),
      // names: required by the school's languages, listed with the schema's refusals
      nameHk: fieldMessage('required', 'en'),
      nameEn: fieldMessage('required', 'en'),
      capacity: fieldMessage('minimum', 'en', { limit: 1 }),
      floor: fieldMessage('additionalProperties', 'en'),
    });
    expect((await call('PUT', '/v1/rooms/1', { capacity: 'many' })).json().data).toEqual({ capacity: fieldMessage('type', 'en') });
    const dup = await call('POST', '/v1/rooms', { code: 'HALL', nameHk: '禮堂二', nameEn: 'Hall 2' });
    expect(dup.json().data).toEqual({ code: fieldMessage('duplicate', 'en', { value: 'HALL' }) });
    expect((await call('GET', '/v1/rooms')).json().data.total).toBe(2);
  });

  it('guards the new routes with the permission page the schema names, held by whom the schema says, and documents them', async () => {
    const held = async (username: string) => {
      const info = (await app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer((await login(app, username)).tk) })).json().data as { permissions: { code: string; actions: { code: string }[]; permission_selection: string }[] };
      const page = info.permissions.find((p) => p.code === 'room');
      return page ? page.actions.filter((_, i) => page.permission_selection[i] === '1').map((a) => a.code) : [];
    };
    // on an install that existed before the entity: the super administrator by right, the administrators as x-qe.page.grantedTo says
    expect(await held('superadmin')).toEqual(['view', 'add', 'edit', 'delete', 'export']);
    expect(await held('admin')).toEqual(['view', 'add', 'edit', 'delete', 'export']);
    expect(await held('teacher01')).toEqual([]);
    const teacher = caller(app, (await login(app, 'teacher01')).tk);
    expect((await teacher('GET', '/v1/rooms')).statusCode).toBe(403);
    expect((await teacher('POST', '/v1/rooms', { code: 'R9', nameHk: 'x', nameEn: 'x' })).json().code).toBe(405);
    const doc = (await app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/rooms', '/v1/rooms/{id}', '/v1/rooms/export']));
    // the page offers no import: there is no route for it
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/v1/rooms/import'))).toEqual([]);
  });
});
