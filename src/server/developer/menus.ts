import type { FastifyInstance } from 'fastify';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import {
  actionCreateBody,
  actionDeleteBody,
  actionEditBody,
  actionQuery,
  DEVELOPER_ANSWERS,
  menuCreateBody,
  menuDeleteBody,
  menuEditBody,
  menuQuery,
  menuSortBody,
  treeQuery,
  type ActionCreateBody,
  type ActionCreated,
  type ActionDeleteBody,
  type ActionEditBody,
  type ActionQuery,
  type Menu,
  type MenuAction,
  type MenuCreateBody,
  type MenuCreated,
  type MenuDeleteBody,
  type MenuEditBody,
  type MenuNode,
  type MenuQuery,
  type MenuSortBody,
  type TreeQuery,
} from '../../shared/calls/developer.js';
import { developerChange, keepsDeveloperAccess } from './access.js';

const tags = ['developer'];

type MenuRow = { id: number; system: string; code: string; name_hk: string; name_en: string; sort: number };
type ActionRow = { id: number; menu_id: number; code: string; action_group: number; name_hk: string; name_en: string; sort: number };

const menuAnswer = (m: MenuRow, roleCount = 0): Menu => ({ menuId: m.id, code: m.code, system: m.system, name: m.name_hk, nameHk: m.name_hk, nameEn: m.name_en, sort: m.sort, roleCount });
const actionAnswer = (a: ActionRow): MenuAction => ({ actionId: a.id, menuId: a.menu_id, code: a.code, group: a.action_group, name: a.name_hk, nameHk: a.name_hk, nameEn: a.name_en, sort: a.sort });

/** Menus (pages) and their actions: the calls under /v1/menus, /v1/actions, /v1/menu-actions
 * (docs/product-rules.md#calls-the-product-names). */
export async function menuRoutes(app: FastifyInstance, { db }: { db: DB }) {
  /** How many roles hold at least one action of each menu: what deleting it would take away. */
  async function roleCounts(menuIds: number[]): Promise<Map<number, number>> {
    if (!menuIds.length) return new Map();
    const rows = await db
      .selectFrom('role_actions as ra')
      .innerJoin('actions as a', 'a.id', 'ra.action_id')
      .select((eb) => ['a.menu_id', eb.fn.count<number>('ra.role_id').distinct().as('n')])
      .where('a.menu_id', 'in', menuIds)
      .groupBy('a.menu_id')
      .execute();
    return new Map(rows.map((r) => [r.menu_id, Number(r.n)]));
  }

  app.get<{ Querystring: TreeQuery }>('/v1/menu-actions/actions/tree', {
    config: { permission: 'menu.view' },
    schema: { tags, summary: 'Every menu of a system with its actions, by sort', querystring: treeQuery, response: DEVELOPER_ANSWERS.tree },
  }, async (request) => {
    const system = request.query.system || 'QE';
    const menus = (await db.selectFrom('menus').selectAll().where('system', '=', system).orderBy('sort').orderBy('id').execute()) as MenuRow[];
    const actions = (await db.selectFrom('actions').selectAll().where('menu_id', 'in', menus.length ? menus.map((m) => m.id) : [0]).orderBy('sort').orderBy('id').execute()) as ActionRow[];
    const counts = await roleCounts(menus.map((m) => m.id));
    return ok(menus.map((m): MenuNode => ({ ...menuAnswer(m, counts.get(m.id) ?? 0), actions: actions.filter((a) => a.menu_id === m.id).map(actionAnswer) })));
  });

  app.get<{ Querystring: MenuQuery }>('/v1/menus/actions/inquire', {
    config: { permission: 'menu.view' },
    schema: { tags, summary: 'One menu', querystring: menuQuery, response: DEVELOPER_ANSWERS.menu },
  }, async (request) => {
    const m = (await db.selectFrom('menus').selectAll().where('id', '=', request.query.menuId).executeTakeFirst()) as MenuRow | undefined;
    if (!m) throw new BusinessError('RECORD_NOT_FOUND');
    return ok(menuAnswer(m, (await roleCounts([m.id])).get(m.id) ?? 0));
  });

  app.post<{ Body: MenuCreateBody }>('/v1/menus/actions/create', {
    config: { permission: 'menu.add' },
    schema: { tags, summary: 'Adds a menu', body: menuCreateBody, response: DEVELOPER_ANSWERS.menuCreated },
  }, async (request) => {
    const b = request.body;
    const row = await developerChange(db, async (trx) => {
      if (await trx.selectFrom('menus').select('id').where('system', '=', b.system).where('code', '=', b.code).executeTakeFirst()) throw new BusinessError('DUPLICATE', { field: 'code', value: b.code });
      return trx.insertInto('menus').values({ system: b.system, code: b.code, name_hk: b.name, name_en: b.nameEn ?? b.name, sort: b.sort ?? 0 }).returning('id').executeTakeFirstOrThrow();
    });
    return ok<MenuCreated>({ menuId: row.id }, 201);
  });

  app.post<{ Body: MenuEditBody }>('/v1/menus/actions/edit', {
    config: { permission: 'menu.edit' },
    schema: { tags, summary: 'Edits a menu', body: menuEditBody, response: DEVELOPER_ANSWERS.changed },
  }, async (request) => {
    const b = request.body;
    await developerChange(db, async (trx) => {
      const m = await trx.selectFrom('menus').select(['id', 'system', 'code']).where('id', '=', b.menuId).executeTakeFirst();
      if (!m) throw new BusinessError('RECORD_NOT_FOUND');
      if (await trx.selectFrom('menus').select('id').where('system', '=', m.system).where('code', '=', b.code).where('id', '!=', b.menuId).executeTakeFirst()) throw new BusinessError('DUPLICATE', { field: 'code', value: b.code });
      // a new code takes the menu's `page.action` codes away from every role as surely as deleting it
      if (b.code !== m.code) {
        const actionIds = (await trx.selectFrom('actions').select('id').where('menu_id', '=', m.id).execute()).map((a) => a.id);
        await keepsDeveloperAccess(trx, currentUser(request).id, { removedActions: actionIds });
      }
      await trx.updateTable('menus').set({ code: b.code, name_hk: b.name, ...(b.nameEn ? { name_en: b.nameEn } : {}), ...(b.sort !== undefined ? { sort: b.sort } : {}) }).where('id', '=', b.menuId).execute();
    });
    return ok(null);
  });

  app.post<{ Body: MenuDeleteBody }>('/v1/menus/actions/delete', {
    config: { permission: 'menu.delete' },
    schema: { tags, summary: 'Deletes a menu and its actions (the roles holding them lose them)', body: menuDeleteBody, response: DEVELOPER_ANSWERS.changed },
  }, async (request) => {
    await developerChange(db, async (trx) => {
      const m = await trx.selectFrom('menus').select('id').where('id', '=', request.body.menuId).executeTakeFirst();
      if (!m) throw new BusinessError('RECORD_NOT_FOUND');
      const actionIds = (await trx.selectFrom('actions').select('id').where('menu_id', '=', m.id).execute()).map((a) => a.id);
      await keepsDeveloperAccess(trx, currentUser(request).id, { removedActions: actionIds });
      await trx.deleteFrom('menus').where('id', '=', m.id).execute();
    });
    return ok(null);
  });

  app.post<{ Body: MenuSortBody }>('/v1/menus/actions/update-sort', {
    config: { permission: 'menu.edit' },
    schema: { tags, summary: 'Saves the menus order (after a drag)', body: menuSortBody, response: DEVELOPER_ANSWERS.changed },
  }, async (request) => {
    await developerChange(db, async (trx) => {
      for (const m of request.body.menus) await trx.updateTable('menus').set({ sort: m.sort }).where('id', '=', m.menuId).execute();
    });
    return ok(null);
  });

  app.get<{ Querystring: ActionQuery }>('/v1/actions/actions/inquire', {
    config: { permission: 'menu.view' },
    schema: { tags, summary: 'One action', querystring: actionQuery, response: DEVELOPER_ANSWERS.action },
  }, async (request) => {
    const a = (await db.selectFrom('actions').selectAll().where('id', '=', request.query.actionId).executeTakeFirst()) as ActionRow | undefined;
    if (!a) throw new BusinessError('RECORD_NOT_FOUND');
    return ok(actionAnswer(a));
  });

  app.post<{ Body: ActionCreateBody }>('/v1/actions/actions/create', {
    config: { permission: 'menu.add' },
    schema: { tags, summary: 'Adds an action to a menu', body: actionCreateBody, response: DEVELOPER_ANSWERS.actionCreated },
  }, async (request) => {
    const b = request.body;
    const row = await developerChange(db, async (trx) => {
      if (!(await trx.selectFrom('menus').select('id').where('id', '=', b.menuId).executeTakeFirst())) throw new BusinessError('RECORD_NOT_FOUND');
      if (await trx.selectFrom('actions').select('id').where('menu_id', '=', b.menuId).where('code', '=', b.code).executeTakeFirst()) throw new BusinessError('DUPLICATE', { field: 'code', value: b.code });
      return trx.insertInto('actions').values({ menu_id: b.menuId, code: b.code, action_group: b.group, name_hk: b.name, name_en: b.nameEn ?? b.name, sort: b.sort ?? 0 }).returning('id').executeTakeFirstOrThrow();
    });
    return ok<ActionCreated>({ actionId: row.id }, 201);
  });

  app.post<{ Body: ActionEditBody }>('/v1/actions/actions/edit', {
    config: { permission: 'menu.edit' },
    schema: { tags, summary: 'Edits an action', body: actionEditBody, response: DEVELOPER_ANSWERS.changed },
  }, async (request) => {
    const b = request.body;
    await developerChange(db, async (trx) => {
      const a = await trx.selectFrom('actions').select(['id', 'menu_id', 'code']).where('id', '=', b.actionId).executeTakeFirst();
      if (!a) throw new BusinessError('RECORD_NOT_FOUND');
      if (await trx.selectFrom('actions').select('id').where('menu_id', '=', a.menu_id).where('code', '=', b.code).where('id', '!=', a.id).executeTakeFirst()) throw new BusinessError('DUPLICATE', { field: 'code', value: b.code });
      if (b.code !== a.code) await keepsDeveloperAccess(trx, currentUser(request).id, { removedActions: [a.id] });
      await trx.updateTable('actions').set({ code: b.code, action_group: b.group, name_hk: b.name, ...(b.nameEn ? { name_en: b.nameEn } : {}), ...(b.sort !== undefined ? { sort: b.sort } : {}) }).where('id', '=', a.id).execute();
    });
    return ok(null);
  });

  app.post<{ Body: ActionDeleteBody }>('/v1/actions/actions/delete', {
    config: { permission: 'menu.delete' },
    schema: { tags, summary: 'Deletes an action (the roles holding it lose it)', body: actionDeleteBody, response: DEVELOPER_ANSWERS.changed },
  }, async (request) => {
    await developerChange(db, async (trx) => {
      const a = await trx.selectFrom('actions').select('id').where('id', '=', request.body.actionId).executeTakeFirst();
      if (!a) throw new BusinessError('RECORD_NOT_FOUND');
      await keepsDeveloperAccess(trx, currentUser(request).id, { removedActions: [a.id] });
      await trx.deleteFrom('actions').where('id', '=', a.id).execute();
    });
    return ok(null);
  });
}
