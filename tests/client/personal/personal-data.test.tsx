import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { ConfirmStatusTag } from '../../../src/client/personal/ConfirmStatusTag';
import { MyPersonalDataPage } from '../../../src/client/personal/MyPersonalDataPage';
import { ApprovalQueuePage } from '../../../src/client/personal/ApprovalQueuePage';
import { shouldAskForPersonalData } from '../../../src/client/personal/StaffPersonalPrompt';
import { STAFF_EDIT_PERSONAL_KEY } from '../../../src/client/providers/session';
import type { PermissionEntry } from '../../../src/shared/permissions';
import { fakeData, fakeFetch, renderAt } from '../questionnaires/support';
import { AdminContext } from 'react-admin';

const EMPTY = { tel: null, gender: null, birthday: null, identityCardType: null, identityCardId: null, avatar: null };
const ASKED = { tel: '2123 4567', gender: 'F', birthday: '1985-04-02', identityCardType: 'HKID', identityCardId: 'C668***(9)', avatar: null };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('staff personal data screens', () => {
  beforeEach(async () => {
    await i18nProvider.changeLocale('zh-hk');
  });

  it('shows each status with its tag: WAITTING warning, CONFIRM success, REJECT danger', () => {
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <ConfirmStatusTag status="WAITTING" />
        <ConfirmStatusTag status="CONFIRM" />
        <ConfirmStatusTag status="REJECT" />
      </AdminContext>,
    );
    const tags = screen.getAllByTestId('confirm-status');
    expect(tags.map((t) => t.textContent)).toEqual(['待審批', '已確認', '已拒絕']);
    expect(tags[0].className).toMatch(/MuiChip-colorWarning/);
    expect(tags[1].className).toMatch(/MuiChip-colorSuccess/);
    expect(tags[2].className).toMatch(/MuiChip-colorError/);
  });

  it('my page shows a rejected request with its reason, and submits a change for approval', async () => {
    const calls = fakeFetch((call) => {
      if (call.path === '/v1/my/personal-data' && call.method === 'GET') {
        return { current: EMPTY, request: { id: 4, status: 'REJECT', values: ASKED, reason: '請填寫辦公室電話', createdAt: '2026-11-20T01:00:00.000Z', decidedAt: '2026-11-21T01:00:00.000Z' } };
      }
      return { id: 5, status: 'WAITTING' };
    });
    renderAt('/personal-data/mine', <MyPersonalDataPage />, fakeData([]), ['personal-data.personal', 'personal-data.apply']);
    expect((await screen.findByTestId('confirm-status')).textContent).toBe('已拒絕');
    expect(screen.getByTestId('personal-reject-reason').textContent).toContain('請填寫辦公室電話');
    expect(within(screen.getByTestId('personal-request')).getByText('C668***(9)')).toBeTruthy();

    fireEvent.change(screen.getByTestId('personal-tel'), { target: { value: '3999 1234' } });
    fireEvent.change(screen.getByTestId('personal-card-no'), { target: { value: 'C668668(9)' } });
    fireEvent.click(screen.getByTestId('personal-submit'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    // the form started from the rejected request, corrected rather than typed again
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ tel: '3999 1234', gender: 'F', birthday: '1985-04-02', identityCardType: 'HKID', identityCardNo: 'C668668(9)', avatar: null });
    await waitFor(() => expect(localStorage.getItem(STAFF_EDIT_PERSONAL_KEY)).toBe('1'));
  });

  it("the approver's queue shows old -> new values and rejects with a reason", async () => {
    const item = { id: 7, userId: 3, userNo: 'T001', nameHk: '陳老師', nameEn: 'Chan', userType: 'TEACHER', status: 'WAITTING', values: ASKED, current: EMPTY, reason: null, createdAt: '2026-11-20T01:00:00.000Z', decidedAt: null };
    const calls = fakeFetch((call) => (call.path === '/v1/personal-data-requests' ? { list: call.query.get('status') === 'WAITTING' ? [item] : [], total: 1 } : { id: 7, status: 'REJECT' }));
    renderAt('/personal-data/approve', <ApprovalQueuePage />, fakeData([]), ['personal-data.approve']);
    const card = await screen.findByTestId('personal-request-card');
    expect(within(card).getByText(/陳老師/)).toBeTruthy();
    expect(within(card).getByTestId('confirm-status').textContent).toBe('待審批');
    const tel = within(card).getByTestId('change-tel');
    expect(tel.textContent).toContain('—');
    expect(tel.textContent).toContain('2123 4567');
    expect(within(card).getByTestId('change-identityCardId').textContent).toContain('C668***(9)');
    // unchanged items are not listed
    expect(within(card).queryByTestId('change-avatar')).toBeNull();

    fireEvent.click(within(card).getByTestId('personal-reject'));
    fireEvent.click(await screen.findByTestId('personal-reject-submit'));
    expect(await screen.findByText('必填')).toBeTruthy();
    fireEvent.change(screen.getByTestId('personal-reject-reason-input'), { target: { value: '請提供正確電話' } });
    fireEvent.click(screen.getByTestId('personal-reject-submit'));
    await waitFor(() => expect(calls.some((c) => c.path === '/v1/personal-data-requests/7/reject')).toBe(true));
    expect(calls.find((c) => c.path === '/v1/personal-data-requests/7/reject')!.body).toEqual({ reason: '請提供正確電話' });
  });

  it('asks staff once after login while their data is unconfirmed (the staff-edit-personal flag)', () => {
    const entry = (codes: string[]): PermissionEntry[] => [
      { code: 'personal-data', actions: ['view', 'personal', 'apply', 'approve'].map((code) => ({ code })), permission_content: '1111', permission_selection: ['view', 'personal', 'apply', 'approve'].map((a) => (codes.includes(a) ? '1' : '0')).join(''), permission_mark_cn: '', permission_mark_en: '' },
    ];
    const staff = { userType: 'TEACHER', permissions: entry(['view', 'personal', 'apply']) };
    expect(shouldAskForPersonalData({ ...staff, personalDataStatus: null }, null)).toBe(true);
    expect(shouldAskForPersonalData({ ...staff, personalDataStatus: 'REJECT' }, null)).toBe(true);
    expect(shouldAskForPersonalData({ ...staff, personalDataStatus: 'WAITTING' }, null)).toBe(false);
    expect(shouldAskForPersonalData({ ...staff, personalDataStatus: 'CONFIRM' }, null)).toBe(false);
    expect(shouldAskForPersonalData({ ...staff, personalDataStatus: null }, '1')).toBe(false);
    expect(shouldAskForPersonalData({ userType: 'TEACHER', permissions: entry(['view']), personalDataStatus: null }, null)).toBe(false);
    expect(shouldAskForPersonalData({ userType: 'STUDENT', permissions: entry(['view', 'personal', 'apply']), personalDataStatus: null }, null)).toBe(false);
  });
});
