import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ComponentType } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider, TestMemoryRouter } from 'react-admin';
import MeetingRoomIcon from '@mui/icons-material/MeetingRoom';
import { DEFAULT_PATHS, run, type CodegenPaths } from '../../../scripts/codegen';
import type { MasterResource } from '../../../src/client/master/resource';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { authFor } from '../support/auth';

// The fixture entity (tests/fixtures/schemas/room.json) through the client as codegen emits it: the
// icon its schema names, the list of its columns, and the actions of its own permission page —
// offered by the page (no import) and held by the user — beside the server's test of the same schema.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// a folder of this run's own: another `npm test` beside this one writes its own
const generated = join(root, 'tests/fixtures/generated-client', `run-${process.pid}-${Date.now().toString(36)}`);
const paths: CodegenPaths = {
  ...DEFAULT_PATHS,
  schemasDir: join(root, 'tests/fixtures/schemas'),
  sharedDir: join(generated, 'shared'),
  serverDir: join(generated, 'server'),
  clientDir: join(generated, 'client'),
  dbDir: join(generated, 'db'),
};

const ROOMS = [
  { id: 1, code: 'HALL', nameHk: '禮堂', nameEn: 'Hall', capacity: 800 },
  { id: 2, code: 'R101', nameHk: '一零一室', nameEn: 'Room 101', capacity: 40 },
];
let room: MasterResource;

beforeAll(async () => {
  rmSync(generated, { recursive: true, force: true });
  await run(paths);
  room = ((await import(/* @vite-ignore */ join(paths.clientDir, 'resources.ts'))) as { room: MasterResource }).room;
}, 60_000);
afterAll(() => rmSync(generated, { recursive: true, force: true }));
beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1280 });
});
afterEach(cleanup);

function renderList(permissions: string[]) {
  const getList = vi.fn(async () => ({ data: ROOMS, total: ROOMS.length }));
  const List = room.List as ComponentType;
  render(
    <TestMemoryRouter initialEntries={['/master/rooms/list']}>
      <AdminContext dataProvider={testDataProvider({ getList: getList as never })} authProvider={authFor(permissions)} i18nProvider={i18nProvider} store={memoryStore()}>
        <List />
      </AdminContext>
    </TestMemoryRouter>,
  );
  return getList;
}

describe('a new master-data entity in the client, from its schema alone', () => {
  it('carries the icon its schema names, and its own permission page and menu place', () => {
    expect(room.icon).toBe(MeetingRoomIcon);
    expect(room.meta).toMatchObject({ permission: 'room', menuOrder: 90, page: { actions: ['view', 'add', 'edit', 'delete', 'export'] } });
  });

  it('lists its records in the default sort and offers what its page offers and the user holds', async () => {
    const getList = renderList(['room.view', 'room.add', 'room.edit', 'room.delete', 'room.export', 'room.import']);
    expect(await screen.findByText('R101')).toBeTruthy();
    expect(screen.getByText('一零一室')).toBeTruthy();
    expect(getList).toHaveBeenCalledWith('rooms', expect.objectContaining({ sort: { field: 'code', order: 'ASC' } }));
    expect(screen.getByTestId('master-add')).toBeTruthy();
    expect(screen.getByTestId('master-export')).toBeTruthy();
    expect(screen.getAllByTestId('row-edit')).toHaveLength(2);
    // held, but the page offers no import
    expect(screen.queryByTestId('master-import')).toBeNull();
  });

  it('offers nothing the user does not hold', async () => {
    renderList(['room.view']);
    expect(await screen.findByText('R101')).toBeTruthy();
    expect(screen.queryByTestId('master-add')).toBeNull();
    expect(screen.queryByTestId('master-export')).toBeNull();
    expect(screen.queryByTestId('row-edit')).toBeNull();
    expect(screen.queryByTestId('row-delete')).toBeNull();
  });
});
