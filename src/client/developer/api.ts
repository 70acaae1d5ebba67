import type { Page } from '../../shared/envelope';
import type { UserType } from '../../shared/permissions';
import { request } from '../providers/http';

export const SYSTEM = 'QE';

/** One action of a menu, as the tree answers it. */
export interface MenuAction {
  actionId: number;
  menuId: number;
  code: string;
  /** permission group 201–206 */
  group: number;
  name: string;
  nameHk: string;
  nameEn: string;
  sort: number;
}

/** One menu (page) of the tree, with its actions and how many roles hold one of them. */
export interface MenuNode {
  menuId: number;
  code: string;
  system: string;
  name: string;
  nameHk: string;
  nameEn: string;
  sort: number;
  roleCount: number;
  actions: MenuAction[];
}

export interface MenuInput {
  code: string;
  name: string;
  nameEn?: string;
  sort?: number;
}

export interface ActionInput extends MenuInput {
  group: number;
}

export interface Role {
  id: number;
  roleId: number;
  system: string;
  userType: UserType;
  roleCode: string;
  name: string;
  nameHk: string;
  nameEn: string;
  remark: string | null;
  /** new accounts of its user type get this role */
  isDefault: boolean;
  userCount: number;
}

export interface RoleInput {
  userType: UserType;
  roleCode: string;
  nameHk: string;
  nameEn: string;
  remark?: string | null;
  isDefault?: boolean;
}

/** A holder of a role (GET /v1/roles/:id/users), or a person of the user picker. */
export interface RoleUser {
  id: number;
  code: string | null;
  username?: string;
  nameHk: string;
  nameEn: string;
  userType?: UserType;
}

/** Where the user picker looks for people: the master lists of admins, teachers and students. */
export const USER_SOURCES = [
  { resource: 'admins', permission: 'admin', userType: 'ADMIN' },
  { resource: 'teachers', permission: 'teacher', userType: 'TEACHER' },
  { resource: 'students', permission: 'student', userType: 'STUDENT' },
] as const;
export type UserSource = (typeof USER_SOURCES)[number]['resource'];

/**
 * The developer area's calls (docs/product-rules.md#calls-the-product-names and src/server/developer). Changes let request() show a
 * business refusal (707 duplicate, 709 own developer access…) as a toast; a 422 reaches the
 * caller with its field errors in body.errors.
 */
export const developerApi = {
  tree: () => request<MenuNode[]>('/v1/menu-actions/actions/tree', { query: { system: SYSTEM } }),

  inquireMenu: (menuId: number) => request<MenuNode>('/v1/menus/actions/inquire', { query: { menuId } }),
  createMenu: (m: MenuInput) => request<{ menuId: number }>('/v1/menus/actions/create', { method: 'POST', body: { ...m, system: SYSTEM } }),
  editMenu: (menuId: number, m: MenuInput) => request<null>('/v1/menus/actions/edit', { method: 'POST', body: { ...m, menuId } }),
  deleteMenu: (menuId: number) => request<null>('/v1/menus/actions/delete', { method: 'POST', body: { menuId } }),
  updateSort: (menus: { menuId: number; sort: number }[]) => request<null>('/v1/menus/actions/update-sort', { method: 'POST', body: { menus } }),

  inquireAction: (actionId: number) => request<MenuAction>('/v1/actions/actions/inquire', { query: { actionId } }),
  createAction: (menuId: number, a: ActionInput) => request<{ actionId: number }>('/v1/actions/actions/create', { method: 'POST', body: { ...a, menuId } }),
  editAction: (actionId: number, a: ActionInput) => request<null>('/v1/actions/actions/edit', { method: 'POST', body: { ...a, actionId } }),
  deleteAction: (actionId: number) => request<null>('/v1/actions/actions/delete', { method: 'POST', body: { actionId } }),

  roles: () => request<Page<Role>>('/v1/roles').then((p) => p.list),
  role: (roleId: number) => request<Role>(`/v1/roles/${roleId}`, { ignoreErr: true }),
  roleActions: (roleId: number) => request<{ actions: number[]; codes: string[] }>('/v1/roles/actions/action-list', { query: { roleId, system: SYSTEM } }),
  selectActions: (roleId: number, actions: number[]) => request<null>('/v1/roles/actions/select-action', { method: 'POST', body: { actions, roleId, system: SYSTEM } }),
  roleUsers: (roleId: number) => request<Page<RoleUser>>(`/v1/roles/${roleId}/users`).then((p) => p.list),

  userRoles: (userId: number) => request<{ userId: number; roleIds: number[] }>(`/v1/users/${userId}/roles`).then((r) => r.roleIds),
  setUserRoles: (userId: number, roleIds: number[]) => request<null>(`/v1/users/${userId}/roles`, { method: 'PUT', body: { roleIds } }),

  /** People of one master list matching a search text (quiet: a list the user may not read is simply empty). */
  searchUsers: (source: UserSource, q: string) =>
    request<Page<RoleUser>>(`/v1/${source}`, { query: { q, page: 1, size: 20 }, ignoreErr: true })
      .then((p) => p.list)
      .catch(() => [] as RoleUser[]),
};

/** The fields the role calls accept (the server refuses any other). */
export function rolePayload(data: Partial<RoleInput> & Record<string, unknown>): RoleInput {
  return {
    userType: data.userType as UserType,
    roleCode: String(data.roleCode ?? ''),
    nameHk: String(data.nameHk ?? ''),
    nameEn: String(data.nameEn ?? ''),
    remark: data.remark === undefined || data.remark === '' ? null : (data.remark as string | null),
    isDefault: Boolean(data.isDefault),
  };
}
