import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { inject } from 'vitest';
import { baseUrl, launchBrowser, loginAs, newPage, url } from './browser.js';

// End to end: a super administrator takes form.add away from the TEACHER role on the
// permission screen and gives it back, and a teacher's screen and API follow on their next
// load and request; a teacher links a Google account through the popup against the loopback
// OAuth server (global-setup) and can then create a questionnaire.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('qe-token'));

async function api(token: string | null, method: string, path: string, body?: unknown): Promise<{ code: number; data: unknown }> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: unknown };
}

/** The questionnaire list has loaded and the user's rights are known (the add button never flashes up). */
async function formsListShown(page: Page) {
  await page.goto(url('/forms/list'));
  await page.locator('[data-testid="list-questionnaires"], [data-testid="no-data"]').first().waitFor();
  await page.waitForLoadState('networkidle');
}

/** On the TEACHER role's permission screen, sets form.add and saves. */
async function setTeacherFormAdd(page: Page, on: boolean) {
  await page.goto(url('/developer/role/list'));
  await page.getByRole('row', { name: /TEACHER/ }).getByTestId('row-permission').click();
  await page.waitForURL(/\/developer\/role\/permission\?id=\d+$/);
  const cell = page.getByTestId('perm-form.add');
  await expect(cell.isChecked()).resolves.toBe(!on);
  await cell.click();
  await expect(cell.isChecked()).resolves.toBe(on);
  await page.getByTestId('permission-save').click();
  await page.getByText(/權限已儲存|Permissions saved/).first().waitFor();
  await expect(page.getByTestId('permission-save').isDisabled()).resolves.toBe(true);
}

describe('developer area', () => {
  it('removing form.add from TEACHER hides the add button and refuses the call; restoring it brings both back', async () => {
    const admin = await newPage(browser);
    await loginAs(admin, 'superadmin');
    const adminToken = await tokenOf(admin);
    const roles = (await api(adminToken, 'GET', '/v1/roles')).data as { list: { id: number; roleCode: string }[] };
    const teacherRole = roles.list.find((r) => r.roleCode === 'TEACHER')!;
    const teacher = await newPage(browser);
    try {
      await setTeacherFormAdd(admin, false);
      const held = (await api(adminToken, 'GET', `/v1/roles/actions/action-list?roleId=${teacherRole.id}&system=QE`)).data as { codes: string[] };
      expect(held.codes).not.toContain('form.add');
      expect(held.codes).toContain('form.view');

      await loginAs(teacher, 'teacher01');
      await formsListShown(teacher);
      await expect(teacher.getByTestId('questionnaire-add').count()).resolves.toBe(0);
      const refused = await api(await tokenOf(teacher), 'POST', '/v1/questionnaires', { title: 'E2E 無權新增' });
      expect(refused.code).toBe(405);

      await setTeacherFormAdd(admin, true);
      // the teacher's next load shows the button again, and the call works
      await formsListShown(teacher);
      await teacher.getByTestId('questionnaire-add').waitFor();
      const allowed = await api(await tokenOf(teacher), 'POST', '/v1/questionnaires', { title: 'E2E 恢復新增' });
      expect(allowed.code).toBe(201);
    } finally {
      // whatever happened above, TEACHER holds form.add again for the other tests
      const now = (await api(adminToken, 'GET', `/v1/roles/actions/action-list?roleId=${teacherRole.id}&system=QE`)).data as { actions: number[]; codes: string[] };
      if (!now.codes.includes('form.add')) {
        const tree = (await api(adminToken, 'GET', '/v1/menu-actions/actions/tree?system=QE')).data as { code: string; actions: { actionId: number; code: string }[] }[];
        const formAdd = tree.find((m) => m.code === 'form')!.actions.find((a) => a.code === 'add')!.actionId;
        await api(adminToken, 'POST', '/v1/roles/actions/select-action', { roleId: teacherRole.id, system: 'QE', actions: [...now.actions, formAdd] });
      }
      await teacher.close();
      await admin.close();
    }
  });

  it('the menus screen lists the pages in order with their actions, and the role screen its users', async () => {
    const page = await newPage(browser);
    await loginAs(page, 'superadmin');
    await page.goto(url('/developer/menu'));
    await page.getByTestId('menu-tree').waitFor();
    const codes = await page.$$eval('[data-testid^="menu-row-"]', (els) => els.map((e) => e.getAttribute('data-testid')!.slice('menu-row-'.length)));
    expect(codes.slice(0, 5)).toEqual(['form', 'form-template', 'question-bank', 'form-input', 'data-statistics']);
    await page.getByTestId('menu-row-form').getByTestId('menu-expand').click();
    await page.getByTestId('action-row-form.add').waitFor();
    // deleting a menu used by roles warns how many lose it (cancelled here)
    await page.getByTestId('menu-row-help').getByTestId('menu-delete').click();
    await expect(page.getByTestId('menu-delete-roles').innerText()).resolves.toMatch(/4 個角色將會失去此選單/);
    await page.getByRole('button', { name: /取消|Cancel/ }).click();

    await page.goto(url('/developer/role/list'));
    await page.getByRole('row', { name: /STUDENT/ }).click();
    await page.waitForURL(/\/developer\/role\/view\?id=\d+$/);
    await page.getByTestId('role-user-student001').waitFor();
    await page.close();
  });
});

describe('developer area screens', () => {
  const rowCodes = (page: Page) => page.$$eval('[data-testid^="menu-row-"]', (els) => els.map((e) => e.getAttribute('data-testid')!.slice('menu-row-'.length)));

  it('adds a menu with an action from the catalogue, moves it by button and by keyboard drag (saved), and deletes it', async () => {
    const page = await newPage(browser);
    await loginAs(page, 'superadmin');
    await page.goto(url('/developer/menu'));
    await page.getByTestId('menu-add').click();
    await page.getByTestId('menu-dialog-code').fill('e2e-page');
    await page.getByTestId('menu-dialog-name').fill('測試頁');
    await page.getByTestId('menu-dialog-nameEn').fill('E2E page');
    await page.getByTestId('menu-dialog-save').click();
    const row = page.getByTestId('menu-row-e2e-page');
    await row.waitFor();
    expect((await rowCodes(page)).at(-1)).toBe('e2e-page');

    // an action: the catalogue's code brings its group and names
    await row.getByTestId('action-add').click();
    await page.getByTestId('action-dialog-code').fill('expo');
    await page.getByRole('option', { name: 'export' }).click();
    await expect(page.getByTestId('action-dialog-nameEn').inputValue()).resolves.toBe('Export');
    await expect(page.getByTestId('action-dialog-group').inputValue()).resolves.toBe('203');
    await page.getByTestId('action-dialog-save').click();
    await row.getByTestId('action-row-e2e-page.export').waitFor();

    // up one by the button, up one more by the keyboard on the drag handle
    const count = (await rowCodes(page)).length;
    await row.getByTestId('menu-up').click();
    await expect.poll(async () => (await rowCodes(page)).indexOf('e2e-page')).toBe(count - 2);
    await row.getByTestId('menu-drag').focus();
    // dnd-kit measures between the steps: a short pause after each key
    for (const key of ['Space', 'ArrowUp', 'Space']) {
      await page.keyboard.press(key);
      await page.waitForTimeout(300);
    }
    await expect.poll(async () => (await rowCodes(page)).indexOf('e2e-page')).toBe(count - 3);
    await page.waitForLoadState('networkidle');
    await page.reload();
    await page.getByTestId('menu-tree').waitFor();
    expect((await rowCodes(page)).indexOf('e2e-page')).toBe(count - 3);

    // a menu nobody uses is deleted without the roles warning
    await page.getByTestId('menu-row-e2e-page').getByTestId('menu-delete').click();
    await page.getByTestId('menu-delete-confirm').waitFor();
    await expect(page.getByTestId('menu-delete-roles').count()).resolves.toBe(0);
    await page.getByRole('button', { name: /刪除|Delete/ }).last().click();
    await page.getByTestId('menu-row-e2e-page').waitFor({ state: 'detached' });
    await page.close();
  });

  it('adds a role, gives it to a teacher from the role screen and from the teacher record, and deletes it', async () => {
    const page = await newPage(browser);
    await loginAs(page, 'superadmin');
    await page.goto(url('/developer/role/list'));
    await page.getByTestId('role-add').click();
    await page.waitForURL(/\/developer\/role\/add$/);
    await page.locator('input[name="roleCode"]').fill('E2E_HELPER');
    await page.locator('input[name="nameHk"]').fill('測試助手');
    await page.locator('input[name="nameEn"]').fill('E2E helper');
    await page.getByTestId('role-save').click();
    await page.waitForURL(/\/developer\/role\/view\?id=\d+$/);
    const roleId = Number(new URL(page.url()).searchParams.get('id'));

    // from the role screen: the picker searches the teachers
    await page.getByTestId('role-users-open').click();
    await page.getByTestId('role-users-search').fill('teacher02');
    await page.getByRole('option', { name: /T002|teacher02/ }).first().click();
    await page.getByTestId('role-users-add').click();
    await page.getByTestId('role-user-teacher02').waitFor();

    // from the teacher's record: the role is ticked; untick it there
    const token = await tokenOf(page);
    const teachers = (await api(token, 'GET', '/v1/teachers?q=teacher02&size=5')).data as { list: { id: number; username: string }[] };
    const teacherId = teachers.list.find((t) => t.username === 'teacher02')!.id;
    await page.goto(url(`/master/teachers/view?id=${teacherId}`));
    await page.getByTestId('assign-roles').click();
    const box = page.getByTestId('assign-role-E2E_HELPER');
    await expect.poll(() => box.isChecked()).toBe(true);
    await expect(page.getByTestId('assign-role-TEACHER').isChecked()).resolves.toBe(true);
    await box.click();
    await page.getByTestId('assign-roles-save').click();
    await page.getByTestId('assign-roles-dialog').waitFor({ state: 'hidden' });
    expect(((await api(token, 'GET', `/v1/users/${teacherId}/roles`)).data as { roleIds: number[] }).roleIds).not.toContain(roleId);

    await page.goto(url('/developer/role/list'));
    await page.getByRole('row', { name: /E2E_HELPER/ }).getByTestId('row-delete').click();
    await page.getByRole('button', { name: /刪除|Delete/ }).last().click();
    await page.getByRole('row', { name: /E2E_HELPER/ }).waitFor({ state: 'detached' });
    await page.close();
  });

  it('refuses, with its message, a permission change that would take away the user\'s own developer access', async () => {
    const page = await newPage(browser);
    await loginAs(page, 'superadmin');
    await page.goto(url('/developer/role/list'));
    await page.getByRole('row', { name: /SUPER_ADMIN/ }).getByTestId('row-permission').click();
    await page.getByTestId('perm-page-role').click();
    await page.getByTestId('permission-save').click();
    await page.getByText('此操作會令你失去角色及權限的管理權，不能執行').waitFor();
    await expect(page.getByTestId('permission-save').isEnabled()).resolves.toBe(true);
    await page.close();
  });
});

describe('Google account binding', () => {
  it('a teacher links a Google account through the popup against the loopback OAuth server, then creates a questionnaire', async () => {
    // the school requires creators to bind a Google account (possible: this QE has Google configured)
    const admin = ((await api(null, 'POST', '/v1/login', { username: 'admin', password: 'Passw0rd!' })).data as { tk: string }).tk;
    const school = (await api(admin, 'GET', '/v1/school')).data as { nameHk: string; nameEn: string; languageList: unknown[] };
    const setGoogle = (on: boolean) => api(admin, 'PUT', '/v1/school', { nameHk: school.nameHk, nameEn: school.nameEn, languageList: school.languageList, googleRequired: on });
    expect((await setGoogle(true)).code).toBe(200);
    const page = await newPage(browser);
    await loginAs(page, 'teacher15');
    const token = await tokenOf(page);
    expect((await api(token, 'POST', '/v1/questionnaires', { title: 'E2E 未連結' })).code).toBe(710);

    await page.getByTestId('google-account').click();
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: /確認|Confirm/ }).click();
    const popup = await popupOpened;
    // the provider sends the popup back to /qe/google-callback, which posts the code and closes itself
    await popup.waitForEvent('close', { timeout: 15_000 });
    await page.getByText('成功', { exact: true }).first().waitFor();
    const mail = inject('googleMail');
    await expect.poll(() => page.getByTestId('google-account').getAttribute('aria-label')).toContain(mail);
    const info = (await api(token, 'GET', '/v1/my/user-info')).data as { googleMail: string };
    expect(info.googleMail).toBe(mail);

    await page.goto(url('/forms/list'));
    await page.getByTestId('questionnaire-add').click();
    await page.waitForURL(/\/forms\/add$/);
    await page.locator('input[name="title"]').fill('E2E Google 連結後的問卷');
    await page.getByTestId('q-save').click();
    await page.waitForURL(/\/forms\/list$/);
    await page.getByRole('row', { name: /E2E Google 連結後的問卷/ }).waitFor();
    await page.close();
    expect((await setGoogle(false)).code).toBe(200);
  });
});
