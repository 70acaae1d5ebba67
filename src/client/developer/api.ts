import type { Page } from '../../shared/envelope';
import type { UserType } from '../../shared/permissions';
import type {
  ActionCreateBody,
  ActionCreated,
  ActionDeleteBody,
  ActionEditBody,
  Menu,
  MenuAction,
  MenuCreateBody,
  MenuCreated,
  MenuDeleteBody,
  MenuEditBody,
  MenuNode,
  MenuSortBody,
  Role,
  RoleActions,
  RoleActionsBody,
  RoleBody,
  RoleHolder,
  RoleHolderPage,
  RolePage,
  UserRoles,
  UserRolesBody,
} from '../../shared/calls/developer';
import { request } from '../providers/http';

// the developer area's calls are described once in src/shared/calls/developer.ts (docs/conventions.md#call-shapes): types only here
export type { Menu, MenuAction, MenuNode, Role, RoleHolder };

export const SYSTEM = 'QE';

/** A menu as the menu dialog edits it (the system is QE's). */
export type MenuInput = Omit<MenuCreateBody, 'system'>;

/** An action as the action dialog edits it (of the menu it is added to). */
export type ActionInput = Omit<ActionCreateBody, 'menuId'>;

/** A role as the role form sends it. */
export type RoleInput = RoleBody;

/** A holder of a role (GET /v1/roles/:id/users), or a person of the user picker (whose master lists may not say username and user type). */
export type RoleUser = Pick<RoleHolder, 'id' | 'code' | 'nameHk' | 'nameEn'> & Partial<Pick<RoleHolder, 'username' | 'userType'>>;

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

  inquireMenu: (menuId: number) => request<Menu>('/v1/menus/actions/inquire', { query: { menuId } }),
  createMenu: (m: MenuInput) => request<MenuCreated>('/v1/menus/actions/create', { method: 'POST', body: { ...m, system: SYSTEM } satisfies MenuCreateBody }),
  editMenu: (menuId: number, m: MenuInput) => request<null>('/v1/menus/actions/edit', { method: 'POST', body: { ...m, menuId } satisfies MenuEditBody }),
  deleteMenu: (menuId: number) => request<null>('/v1/menus/actions/delete', { method: 'POST', body: { menuId } satisfies MenuDeleteBody }),
  updateSort: (menus: MenuSortBody['menus']) => request<null>('/v1/menus/actions/update-sort', { method: 'POST', body: { menus } satisfies MenuSortBody }),

  inquireAction: (actionId: number) => request<MenuAction>('/v1/actions/actions/inquire', { query: { actionId } }),
  createAction: (menuId: number, a: ActionInput) => request<ActionCreated>('/v1/actions/actions/create', { method: 'POST', body: { ...a, menuId } satisfies ActionCreateBody }),
  editAction: (actionId: number, a: ActionInput) => request<null>('/v1/actions/actions/edit', { method: 'POST', body: { ...a, actionId } satisfies ActionEditBody }),
  deleteAction: (actionId: number) => request<null>('/v1/actions/actions/delete', { method: 'POST', body: { actionId } satisfies ActionDeleteBody }),

  roles: () => request<RolePage>('/v1/roles').then((p) => p.list),
  role: (roleId: number) => request<Role>(`/v1/roles/${roleId}`, { ignoreErr: true }),
  roleActions: (roleId: number) => request<RoleActions>('/v1/roles/actions/action-list', { query: { roleId, system: SYSTEM } }),
  selectActions: (roleId: number, actions: number[]) => request<null>('/v1/roles/actions/select-action', { method: 'POST', body: { actions, roleId, system: SYSTEM } satisfies RoleActionsBody }),
  roleUsers: (roleId: number) => request<RoleHolderPage>(`/v1/roles/${roleId}/users`).then((p) => p.list),

  userRoles: (userId: number) => request<UserRoles>(`/v1/users/${userId}/roles`).then((r) => r.roleIds),
  setUserRoles: (userId: number, roleIds: number[]) => request<null>(`/v1/users/${userId}/roles`, { method: 'PUT', body: { roleIds } satisfies UserRolesBody }),

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
