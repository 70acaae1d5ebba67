import type { FastifyInstance } from 'fastify';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError } from '../plugins/errors.js';
import { DEVELOPER_ANSWERS, rolePermissionsParams, rolePermissionsQuery, type RolePermissionsParams, type RolePermissionsQuery } from '../../shared/calls/developer.js';
import { permissionCatalogue, permissionEntries } from './permission-queries.js';
import { menuRoutes } from './menus.js';
import { roleRoutes } from './roles.js';

const tags = ['developer'];

/** The developer area: menus, actions and roles (the calls under /v1/menus, /v1/actions, /v1/roles, /ed/roles: docs/product-rules.md#calls-the-product-names). */
export async function developerRoutes(app: FastifyInstance, { db }: { db: DB }) {
  await menuRoutes(app, { db });
  await roleRoutes(app, { db });
  app.get<{ Params: RolePermissionsParams; Querystring: RolePermissionsQuery }>(
    '/ed/roles/:role_id/permissions',
    {
      config: { permission: 'role.view' },
      schema: {
        tags,
        summary: "A role's permission list, in the same shape as a user's",
        params: rolePermissionsParams,
        querystring: rolePermissionsQuery,
        response: DEVELOPER_ANSWERS.rolePermissions,
      },
    },
    async (request) => {
      const role = await db.selectFrom('roles').select(['id', 'system']).where('id', '=', request.params.role_id).executeTakeFirst();
      if (!role) throw new BusinessError('RECORD_NOT_FOUND');
      const system = request.query.web_code || role.system;
      const held = await db
        .selectFrom('role_actions as ra')
        .innerJoin('actions as a', 'a.id', 'ra.action_id')
        .innerJoin('menus as m', 'm.id', 'a.menu_id')
        .where('ra.role_id', '=', role.id)
        .where('m.system', '=', system)
        .select(['m.code as page', 'a.code as action'])
        .execute();
      return ok(permissionEntries(await permissionCatalogue(db, system), new Set(held.map((h) => `${h.page}.${h.action}`))));
    },
  );
}
