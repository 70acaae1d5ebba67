/**
 * Pages (menus) and their actions: the permission model of docs/product-rules.md#roles-and-default-permissions
 * (docs/recipes/add-permission.md).
 * The server seeds its menus and actions from this list; the client's route table names
 * the same codes. A permission is written `page.action` (form.view); `*` means any
 * logged-in user; `public` (server only) means no login at all.
 */
import { masterEntities } from './generated/master-entities.js';
import { masterPages, type MasterPage } from './master/pages.js';

export type UserType = 'SUPER_ADMIN' | 'ADMIN' | 'TEACHER' | 'STUDENT';
export const USER_TYPES: UserType[] = ['SUPER_ADMIN', 'ADMIN', 'TEACHER', 'STUDENT'];

export interface ActionDef {
  code: string;
  /** permission group 201–206: the order the permission grid shows columns in */
  group: number;
  nameHk: string;
  nameEn: string;
}

/** The page-level actions, in their display order. */
export const ACTIONS: ActionDef[] = [
  { code: 'view', group: 201, nameHk: '查看', nameEn: 'View' },
  { code: 'personal', group: 201, nameHk: '個人', nameEn: 'Personal' },
  { code: 'add', group: 202, nameHk: '新增', nameEn: 'Add' },
  { code: 'edit', group: 202, nameHk: '編輯', nameEn: 'Edit' },
  { code: 'delete', group: 202, nameHk: '刪除', nameEn: 'Delete' },
  { code: 'import', group: 203, nameHk: '匯入', nameEn: 'Import' },
  { code: 'export', group: 203, nameHk: '匯出', nameEn: 'Export' },
  { code: 'print', group: 203, nameHk: '列印', nameEn: 'Print' },
  { code: 'upload', group: 203, nameHk: '上載', nameEn: 'T (upload)' },
  { code: 'download', group: 203, nameHk: '下載', nameEn: 'W (download)' },
  { code: 'backup', group: 204, nameHk: '備份', nameEn: 'Backup' },
  { code: 'restore', group: 204, nameHk: '還原', nameEn: 'Restore' },
  { code: 'apply', group: 205, nameHk: '申請', nameEn: 'Apply' },
  { code: 'approve', group: 205, nameHk: '審批', nameEn: 'Approve' },
  { code: 'assign-roles', group: 206, nameHk: '分配角色', nameEn: 'Assign roles' },
  { code: 'management', group: 206, nameHk: '管理', nameEn: 'Management' },
];

export interface PageDef {
  code: string;
  nameHk: string;
  nameEn: string;
  actions: string[];
}

const MASTER_PAGES: MasterPage[] = masterPages(Object.values(masterEntities));

/** Every page code with the actions it offers, in menu order. */
export const PAGES: PageDef[] = [
  { code: 'form', nameHk: '問卷設計', nameEn: 'Questionnaire design', actions: ['view', 'add', 'edit', 'delete', 'management'] },
  { code: 'form-input', nameHk: '填寫問卷', nameEn: 'Fill in questionnaires', actions: ['view'] },
  { code: 'data-statistics', nameHk: '數據統計', nameEn: 'Data statistics', actions: ['view', 'export', 'print', 'management'] },
  // the master-data pages, from their schemas (x-qe.page): a new entity brings its own
  ...MASTER_PAGES,
  { code: 'menu', nameHk: '選單及操作', nameEn: 'Menus and actions', actions: ['view', 'add', 'edit', 'delete'] },
  { code: 'role', nameHk: '角色', nameEn: 'Roles', actions: ['view', 'add', 'edit', 'delete', 'assign-roles'] },
  { code: 'help', nameHk: '使用說明', nameEn: 'Help', actions: ['view'] },
  { code: 'google-account', nameHk: 'Google 帳戶', nameEn: 'Google account', actions: ['view'] },
  { code: 'school', nameHk: '學校設定', nameEn: 'School settings', actions: ['view', 'edit'] },
  // staff personal data: Personal sees one's own, Apply asks for a change, Approve decides others' requests
  { code: 'personal-data', nameHk: '個人資料', nameEn: 'Personal data', actions: ['view', 'personal', 'apply', 'approve'] },
  // backups hold every password hash and the mail settings: the super administrator's alone by default
  { code: 'backup', nameHk: '備份及還原', nameEn: 'Backup and restore', actions: ['view', 'backup', 'restore', 'delete'] },
];

const all = (code: string) => PAGES.find((p) => p.code === code)!.actions.map((a) => `${code}.${a}`);
/** The master-data pages' actions a user type holds out of the box, as their schemas say. */
const heldBy = (userType: UserType, pages: MasterPage[] = MASTER_PAGES) => pages.filter((p) => (p.grantedTo as readonly string[]).includes(userType)).flatMap((p) => p.actions.map((a) => `${p.code}.${a}`));

/** What each default role holds out of the box; editable in the developer area. */
export const DEFAULT_ROLE_PERMISSIONS: Record<UserType, string[]> = {
  SUPER_ADMIN: PAGES.flatMap((p) => all(p.code)),
  ADMIN: [
    ...all('form'),
    'form-input.view',
    ...all('data-statistics'),
    ...heldBy('ADMIN'),
    'role.view',
    'help.view',
    'google-account.view',
    ...all('school'),
    ...all('personal-data'),
  ],
  TEACHER: [
    ...heldBy('TEACHER'),
    'form.view',
    'form.add',
    'form.edit',
    'form.delete',
    'form-input.view',
    'data-statistics.view',
    'data-statistics.export',
    'data-statistics.print',
    'help.view',
    'google-account.view',
    'personal-data.view',
    'personal-data.personal',
    'personal-data.apply',
  ],
  STUDENT: [...heldBy('STUDENT'), 'form-input.view', 'help.view'],
};

/**
 * The pages and out-of-the-box grants with the pages of master-data entities served beside the
 * generated ones (an app built with extra entities, as the codegen test builds one).
 */
export function permissionModel(extra: MasterPage[] = []): { pages: PageDef[]; defaults: Record<UserType, string[]> } {
  const added = extra.filter((p) => !PAGES.some((q) => q.code === p.code));
  const actionsOf = (pages: PageDef[]) => pages.flatMap((p) => p.actions.map((a) => `${p.code}.${a}`));
  const defaults = Object.fromEntries(USER_TYPES.map((t) => [t, [...DEFAULT_ROLE_PERMISSIONS[t], ...(t === 'SUPER_ADMIN' ? actionsOf(added) : heldBy(t, added))]])) as Record<UserType, string[]>;
  return { pages: [...PAGES, ...added], defaults };
}

export const DEFAULT_ROLES: { userType: UserType; roleCode: string; nameHk: string; nameEn: string }[] = [
  { userType: 'SUPER_ADMIN', roleCode: 'SUPER_ADMIN', nameHk: '超級管理員', nameEn: 'Super administrator' },
  { userType: 'ADMIN', roleCode: 'ADMIN', nameHk: '管理員', nameEn: 'Administrator' },
  { userType: 'TEACHER', roleCode: 'TEACHER', nameHk: '教師', nameEn: 'Teacher' },
  { userType: 'STUDENT', roleCode: 'STUDENT', nameHk: '學生', nameEn: 'Student' },
];

/** One page of the permission list (docs/product-rules.md#records-and-fields). */
export interface PermissionEntry {
  code: string;
  actions: { code: string }[];
  /** one 0/1 per action: the action exists on this page for this system */
  permission_content: string;
  /** one 0/1 per action: the user holds it */
  permission_selection: string;
  permission_mark_cn: string;
  permission_mark_en: string;
}

/** A user has an action if it is marked selected for the page. */
export function hasPermission(entries: PermissionEntry[] | undefined, required: string): boolean {
  if (required === '*') return true;
  if (!entries) return false;
  const dot = required.lastIndexOf('.');
  const page = required.slice(0, dot);
  const action = required.slice(dot + 1);
  const entry = entries.find((e) => e.code === page);
  if (!entry) return false;
  const i = entry.actions.findIndex((a) => a.code === action);
  return i >= 0 && entry.permission_selection[i] === '1';
}

/** Flattens a permission list to `page.action` codes. */
export function permissionCodes(entries: PermissionEntry[]): string[] {
  return entries.flatMap((e) => e.actions.filter((_, i) => e.permission_selection[i] === '1').map((a) => `${e.code}.${a.code}`));
}
