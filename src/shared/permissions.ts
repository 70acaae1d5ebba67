/**
 * Pages (menus) and their actions: the permission model of docs/product-rules.md#roles-and-default-permissions
 * (docs/recipes/add-permission.md).
 * The server seeds its menus and actions from this list; the client's route table names
 * the same codes. A permission is written `page.action` (form.view); `*` means any
 * logged-in user; `public` (server only) means no login at all. The names of pages, actions and
 * default roles are texts of the message files (qe.permissions.pages.<code>,
 * qe.permissions.actions.<code>, qe.userType.<userType> in src/shared/i18n/server-en.ts and
 * server-zh-hk.ts), filled in below.
 */
import { masterEntities } from './generated/master-entities.js';
import type { ServerMessages } from './i18n/server-en.js';
import { serverNames, type ServerKey } from './i18n/text.js';
import { masterPages, type MasterPage } from './master/pages.js';

export type UserType = 'SUPER_ADMIN' | 'ADMIN' | 'TEACHER' | 'STUDENT';
export const USER_TYPES: UserType[] = ['SUPER_ADMIN', 'ADMIN', 'TEACHER', 'STUDENT'];

type ActionCode = keyof ServerMessages['qe']['permissions']['actions'];
type PageCode = keyof ServerMessages['qe']['permissions']['pages'];

/** A text in both languages, as the database keeps names (name_hk, name_en); the key is checked. */
const names = (key: ServerKey) => serverNames(key);

export interface ActionDef {
  code: string;
  /** permission group 201–206: the order the permission grid shows columns in */
  group: number;
  nameHk: string;
  nameEn: string;
}

const action = (code: ActionCode, group: number): ActionDef => ({ code, group, ...names(`qe.permissions.actions.${code}`) });

/** The page-level actions, in their display order. */
export const ACTIONS: ActionDef[] = [
  action('view', 201),
  action('personal', 201),
  action('add', 202),
  action('edit', 202),
  action('delete', 202),
  action('import', 203),
  action('export', 203),
  action('print', 203),
  action('upload', 203),
  action('download', 203),
  action('backup', 204),
  action('restore', 204),
  action('apply', 205),
  action('approve', 205),
  action('assign-roles', 206),
  action('management', 206),
];

export interface PageDef {
  code: string;
  nameHk: string;
  nameEn: string;
  actions: string[];
}

const page = (code: PageCode, actions: ActionCode[]): PageDef => ({ code, ...names(`qe.permissions.pages.${code}`), actions });

const MASTER_PAGES: MasterPage[] = masterPages(Object.values(masterEntities));

/** Every page code with the actions it offers, in menu order. */
export const PAGES: PageDef[] = [
  page('form', ['view', 'add', 'edit', 'delete', 'management']),
  // the school's questionnaire templates: teachers save and use them, administrators edit and retire them
  page('form-template', ['view', 'add', 'edit', 'delete']),
  // the school's question bank: teachers search it and save questions to it; administrators edit, retire and restore them
  page('question-bank', ['view', 'add', 'edit', 'delete']),
  page('form-input', ['view']),
  page('data-statistics', ['view', 'export', 'print', 'management']),
  // the master-data pages, from their schemas (x-qe.page): a new entity brings its own
  ...MASTER_PAGES,
  page('menu', ['view', 'add', 'edit', 'delete']),
  page('role', ['view', 'add', 'edit', 'delete', 'assign-roles']),
  page('help', ['view']),
  page('google-account', ['view']),
  page('school', ['view', 'edit']),
  // staff personal data: Personal sees one's own, Apply asks for a change, Approve decides others' requests
  page('personal-data', ['view', 'personal', 'apply', 'approve']),
  // backups hold every password hash and the mail settings: the super administrator's alone by default
  page('backup', ['view', 'backup', 'restore', 'delete']),
  // sign-in with the school's accounts: the providers, their test and the password login per user
  // type decide who can get in, so they are the super administrator's alone by default
  page('sign-in', ['view', 'edit']),
];

const all = (code: string) => PAGES.find((p) => p.code === code)!.actions.map((a) => `${code}.${a}`);
/** The master-data pages' actions a user type holds out of the box, as their schemas say. */
const heldBy = (userType: UserType, pages: MasterPage[] = MASTER_PAGES) => pages.filter((p) => (p.grantedTo as readonly string[]).includes(userType)).flatMap((p) => p.actions.map((a) => `${p.code}.${a}`));

/** What each default role holds out of the box; editable in the developer area. */
export const DEFAULT_ROLE_PERMISSIONS: Record<UserType, string[]> = {
  SUPER_ADMIN: PAGES.flatMap((p) => all(p.code)),
  ADMIN: [
    ...all('form'),
    ...all('form-template'),
    ...all('question-bank'),
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
    'form-template.view',
    'form-template.add',
    'question-bank.view',
    'question-bank.add',
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

/** The roles a new install starts with, one per user type, named as the user type. */
export const DEFAULT_ROLES: { userType: UserType; roleCode: string; nameHk: string; nameEn: string }[] = [
  { userType: 'SUPER_ADMIN', roleCode: 'SUPER_ADMIN', ...names('qe.userType.SUPER_ADMIN') },
  { userType: 'ADMIN', roleCode: 'ADMIN', ...names('qe.userType.ADMIN') },
  { userType: 'TEACHER', roleCode: 'TEACHER', ...names('qe.userType.TEACHER') },
  { userType: 'STUDENT', roleCode: 'STUDENT', ...names('qe.userType.STUDENT') },
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
