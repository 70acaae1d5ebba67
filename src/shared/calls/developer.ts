import { envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { idParams, idSchema, pagingProperties, USER_TYPE_ENUM } from './parts.js';
import { permissionEntry } from './session.js';

/**
 * The developer area's calls (docs/product-rules.md#calls-the-product-names): menus (pages),
 * their actions, roles, the actions a role holds and who holds it, described once
 * (docs/conventions.md#call-shapes). The server's routes validate and write by these schemas
 * (src/server/developer/), the OpenAPI page shows them, and the developer screens' types are
 * read from them (src/client/developer/api.ts).
 */


const text = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const userType = { type: 'string', enum: USER_TYPE_ENUM } as const;

// ---- request parts: what each call accepts (a field not named here is refused, 422)

/** a menu's or an action's code: its part of the `page.action` permission codes */
const code = { type: 'string', minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9_*.-]+$' } as const;
const name = { type: 'string', minLength: 1, maxLength: 100 } as const;
const sort = { type: 'integer', minimum: 0, maximum: 100000 } as const;
/** the system whose menus a call reads (QE when not given) */
const systemQuery = { type: 'string', maxLength: 20 } as const;
/** permission group 201–206 */
const group = { type: 'integer', minimum: 201, maximum: 206 } as const;

/** GET /v1/menu-actions/actions/tree */
export const treeQuery = { type: 'object', additionalProperties: false, properties: { system: systemQuery } } as const;
export type TreeQuery = Shape<typeof treeQuery>;

/** GET /v1/menus/actions/inquire */
export const menuQuery = { type: 'object', required: ['menuId'], additionalProperties: false, properties: { menuId: idSchema } } as const;
export type MenuQuery = Shape<typeof menuQuery>;

/** POST /v1/menus/actions/create */
export const menuCreateBody = {
  type: 'object',
  required: ['code', 'system', 'name'],
  additionalProperties: false,
  properties: { code, system: { type: 'string', minLength: 1, maxLength: 20 }, name, nameEn: name, sort },
} as const;
export type MenuCreateBody = Shape<typeof menuCreateBody>;

/** POST /v1/menus/actions/edit */
export const menuEditBody = {
  type: 'object',
  required: ['code', 'menuId', 'name'],
  additionalProperties: false,
  properties: { code, menuId: idSchema, name, nameEn: name, sort },
} as const;
export type MenuEditBody = Shape<typeof menuEditBody>;

/** POST /v1/menus/actions/delete */
export const menuDeleteBody = menuQuery;
export type MenuDeleteBody = Shape<typeof menuDeleteBody>;

/** POST /v1/menus/actions/update-sort: the menus order after a drag */
export const menuSortBody = {
  type: 'object',
  required: ['menus'],
  additionalProperties: false,
  properties: {
    menus: { type: 'array', maxItems: 500, items: { type: 'object', required: ['menuId', 'sort'], additionalProperties: false, properties: { menuId: idSchema, sort } } },
  },
} as const;
export type MenuSortBody = Shape<typeof menuSortBody>;

/** GET /v1/actions/actions/inquire */
export const actionQuery = { type: 'object', required: ['actionId'], additionalProperties: false, properties: { actionId: idSchema } } as const;
export type ActionQuery = Shape<typeof actionQuery>;

/** POST /v1/actions/actions/create */
export const actionCreateBody = {
  type: 'object',
  required: ['code', 'group', 'menuId', 'name'],
  additionalProperties: false,
  properties: { code, group, menuId: idSchema, name, nameEn: name, sort },
} as const;
export type ActionCreateBody = Shape<typeof actionCreateBody>;

/** POST /v1/actions/actions/edit */
export const actionEditBody = {
  type: 'object',
  required: ['code', 'group', 'actionId', 'name'],
  additionalProperties: false,
  properties: { code, group, actionId: idSchema, name, nameEn: name, sort },
} as const;
export type ActionEditBody = Shape<typeof actionEditBody>;

/** POST /v1/actions/actions/delete */
export const actionDeleteBody = actionQuery;
export type ActionDeleteBody = Shape<typeof actionDeleteBody>;

/** GET /v1/roles: a page only when `size` is given, otherwise every role (the role pickers) */
export const rolesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 100 },
    userType,
    ...pagingProperties(1000),
    // react-admin sends them; the list has one order (by id)
    sort: text,
    order: text,
  },
} as const;
export type RolesQuery = Shape<typeof rolesQuery>;

const roleFields = {
  userType,
  roleCode: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9_-]+$' },
  nameHk: name,
  nameEn: name,
  remark: { type: ['string', 'null'], maxLength: 500 },
  /** the role new accounts of its user type get (one per user type: choosing one unchooses the other) */
  isDefault: { type: 'boolean' },
} as const;

/** POST /v1/roles */
export const roleBody = { type: 'object', required: ['userType', 'roleCode', 'nameHk', 'nameEn'], additionalProperties: false, properties: roleFields } as const;
export type RoleBody = Shape<typeof roleBody>;

/** PUT /v1/roles/:id: the fields given change */
export const roleChangeBody = { type: 'object', additionalProperties: false, properties: roleFields } as const;
export type RoleChangeBody = Shape<typeof roleChangeBody>;

/** GET /v1/roles/actions/action-list */
export const roleActionsQuery = { type: 'object', required: ['roleId'], additionalProperties: false, properties: { roleId: idSchema, system: systemQuery } } as const;
export type RoleActionsQuery = Shape<typeof roleActionsQuery>;

/** POST /v1/roles/actions/select-action: every action of the role in the system (the ones not given are taken away) */
export const roleActionsBody = {
  type: 'object',
  required: ['actions', 'roleId'],
  additionalProperties: false,
  properties: { actions: { type: 'array', items: idSchema, maxItems: 5000 }, roleId: idSchema, system: systemQuery },
} as const;
export type RoleActionsBody = Shape<typeof roleActionsBody>;

/** PUT /v1/users/:id/roles: every role of the user */
export const userRolesBody = { type: 'object', required: ['roleIds'], additionalProperties: false, properties: { roleIds: { type: 'array', items: idSchema, maxItems: 100 } } } as const;
export type UserRolesBody = Shape<typeof userRolesBody>;

/** GET /ed/roles/:role_id/permissions */
export const rolePermissionsParams = { type: 'object', required: ['role_id'], additionalProperties: false, properties: { role_id: { type: 'integer' } } } as const;
export type RolePermissionsParams = Shape<typeof rolePermissionsParams>;
export const rolePermissionsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { role_id: { type: 'integer' }, independent_system: { type: 'integer' }, web_code: systemQuery },
} as const;
export type RolePermissionsQuery = Shape<typeof rolePermissionsQuery>;

/** `/:id` of a role or a user */
export { idParams as developerParams };

// ---- answers: what each call's `data` holds

/** One action of a menu. `name` is its Chinese name (nameHk), as the product names it. */
export const menuAction = {
  type: 'object',
  required: ['actionId', 'menuId', 'code', 'group', 'name', 'nameHk', 'nameEn', 'sort'],
  additionalProperties: false,
  properties: { actionId: idSchema, menuId: idSchema, code: text, group: { type: 'integer', description: 'permission group 201–206' }, name: text, nameHk: text, nameEn: text, sort: integer },
} as const;
export type MenuAction = Shape<typeof menuAction>;

/** One menu (page), with how many roles hold at least one of its actions (what deleting it would take away). */
export const menu = {
  type: 'object',
  required: ['menuId', 'code', 'system', 'name', 'nameHk', 'nameEn', 'sort', 'roleCount'],
  additionalProperties: false,
  properties: { menuId: idSchema, code: text, system: text, name: text, nameHk: text, nameEn: text, sort: integer, roleCount: integer },
} as const;
export type Menu = Shape<typeof menu>;

/** One menu of the tree, with its actions by sort. */
export const menuNode = {
  ...menu,
  required: [...menu.required, 'actions'],
  properties: { ...menu.properties, actions: { type: 'array', items: menuAction } },
} as const;
export type MenuNode = Shape<typeof menuNode>;

export const menuCreated = { type: 'object', required: ['menuId'], additionalProperties: false, properties: { menuId: idSchema } } as const;
export type MenuCreated = Shape<typeof menuCreated>;

export const actionCreated = { type: 'object', required: ['actionId'], additionalProperties: false, properties: { actionId: idSchema } } as const;
export type ActionCreated = Shape<typeof actionCreated>;

/** One role. `id` and `roleId` are the same; `name` is nameHk. */
export const role = {
  type: 'object',
  required: ['id', 'roleId', 'system', 'userType', 'roleCode', 'name', 'nameHk', 'nameEn', 'remark', 'isDefault', 'userCount'],
  additionalProperties: false,
  properties: {
    id: idSchema,
    roleId: idSchema,
    system: text,
    userType,
    roleCode: text,
    name: text,
    nameHk: text,
    nameEn: text,
    remark: { type: ['string', 'null'] },
    isDefault: { type: 'boolean', description: 'new accounts of its user type get this role' },
    userCount: { type: 'integer', description: 'how many users hold it' },
  },
} as const;
export type Role = Shape<typeof role>;

export const rolePage = { type: 'object', required: ['list', 'total'], additionalProperties: false, properties: { list: { type: 'array', items: role }, total: integer } } as const;
export type RolePage = Shape<typeof rolePage>;

/** The actions a role holds in a system: their ids, and their `page.action` codes. */
export const roleActions = {
  type: 'object',
  required: ['roleId', 'system', 'actions', 'codes'],
  additionalProperties: false,
  properties: { roleId: idSchema, system: text, actions: { type: 'array', items: idSchema }, codes: { type: 'array', items: text } },
} as const;
export type RoleActions = Shape<typeof roleActions>;

/** A holder of a role. `code` is the staff or student code. */
export const roleHolder = {
  type: 'object',
  required: ['id', 'code', 'username', 'nameHk', 'nameEn', 'userType'],
  additionalProperties: false,
  properties: { id: idSchema, code: { type: ['string', 'null'] }, username: text, nameHk: text, nameEn: text, userType },
} as const;
export type RoleHolder = Shape<typeof roleHolder>;

export const roleHolderPage = { type: 'object', required: ['list', 'total'], additionalProperties: false, properties: { list: { type: 'array', items: roleHolder }, total: integer } } as const;
export type RoleHolderPage = Shape<typeof roleHolderPage>;

export const userRoles = { type: 'object', required: ['userId', 'roleIds'], additionalProperties: false, properties: { userId: idSchema, roleIds: { type: 'array', items: idSchema } } } as const;
export type UserRoles = Shape<typeof userRoles>;

/** A change answers nothing in `data`. */
export const changed = { type: 'null' } as const;

/**
 * The answers of each call, per status. A create answers HTTP 200 with 201 in the envelope's
 * `code` (`ok(data, 201)`); a refusal answers its own status (docs/errors.md).
 */
export const DEVELOPER_ANSWERS = {
  /** GET /v1/menu-actions/actions/tree */
  tree: { 200: envelopeOf({ type: 'array', items: menuNode }), ...REFUSALS },
  /** GET /v1/menus/actions/inquire */
  menu: { 200: envelopeOf(menu), ...REFUSALS },
  /** POST /v1/menus/actions/create */
  menuCreated: { 200: envelopeOf(menuCreated), ...REFUSALS },
  /** GET /v1/actions/actions/inquire */
  action: { 200: envelopeOf(menuAction), ...REFUSALS },
  /** POST /v1/actions/actions/create */
  actionCreated: { 200: envelopeOf(actionCreated), ...REFUSALS },
  /** GET /v1/roles */
  roles: { 200: envelopeOf(rolePage), ...REFUSALS },
  /** GET, POST, PUT /v1/roles(/:id): the role as it is now */
  role: { 200: envelopeOf(role), ...REFUSALS },
  /** GET /v1/roles/actions/action-list */
  roleActions: { 200: envelopeOf(roleActions), ...REFUSALS },
  /** GET /v1/roles/:id/users */
  roleUsers: { 200: envelopeOf(roleHolderPage), ...REFUSALS },
  /** GET /v1/users/:id/roles */
  userRoles: { 200: envelopeOf(userRoles), ...REFUSALS },
  /** GET /ed/roles/:role_id/permissions: a role's permissions, in the shape of a user's */
  rolePermissions: { 200: envelopeOf({ type: 'array', items: permissionEntry }), ...REFUSALS },
  /** every change that answers nothing: menu and action edits, deletes and order, a role's delete and actions, a user's roles */
  changed: { 200: envelopeOf(changed), ...REFUSALS },
} as const;
