import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { NewSchoolYearScreen } from '../../../src/client/school/new-year/NewSchoolYearScreen';
import { NewSchoolYearButton } from '../../../src/client/school/new-year/NewSchoolYearButton';
import type { RolloverPreview } from '../../../src/shared/school/rollover';
import { fakeData, fakeFetch, location, renderAt, type FetchCall } from '../questionnaires/support';

/** A school of two grades, 1A/1B → 2A/2B, grade 2 graduating. */
function preview(mapping: { fromClassId: number; toClassId: number }[] = [], switchDate: string | null = null): RolloverPreview {
  const to = (from: number, suggested: number) => mapping.find((m) => m.fromClassId === from)?.toClassId ?? suggested;
  const classes = [
    { id: 11, gradeId: 1, code: '1A', nameHk: '中一A班', nameEn: '1A' },
    { id: 12, gradeId: 1, code: '1B', nameHk: '中一B班', nameEn: '1B' },
    { id: 21, gradeId: 2, code: '2A', nameHk: '中二A班', nameEn: '2A' },
    { id: 22, gradeId: 2, code: '2B', nameHk: '中二B班', nameEn: '2B' },
  ];
  const byId = (id: number) => classes.find((c) => c.id === id)!;
  const move = (from: number, suggested: number, students: number) => {
    const t = byId(to(from, suggested));
    const f = byId(from);
    return { fromClassId: from, fromCode: f.code, fromNameHk: f.nameHk, fromNameEn: f.nameEn, students, graduates: false, toClassId: t.id, toCode: t.code, toNameHk: t.nameHk, toNameEn: t.nameEn, missing: false };
  };
  const grad = (from: number, students: number) => {
    const f = byId(from);
    return { fromClassId: from, fromCode: f.code, fromNameHk: f.nameHk, fromNameEn: f.nameEn, students, graduates: true, toClassId: null, toCode: null, toNameHk: null, toNameEn: null, missing: false };
  };
  const moves = [move(11, 21, 30), move(12, 22, 28), grad(21, 31), grad(22, 29)];
  const after = new Map<number, number>();
  for (const m of moves) if (!m.graduates) after.set(m.toClassId!, (after.get(m.toClassId!) ?? 0) + m.students);
  return {
    fromYear: { id: 1, name: '2025-2026' },
    nextYear: { id: null, name: '2026-2027', beginDate: '2026-09-01', endDate: '2027-08-31', terms: 2 },
    graduateGradeId: 2,
    grades: [{ id: 1, code: 'S1', nameHk: '中一', nameEn: 'Secondary 1' }, { id: 2, code: 'S2', nameHk: '中二', nameEn: 'Secondary 2' }],
    classes,
    moves,
    after: [...after.entries()].map(([id, students]) => ({ classId: id, code: byId(id).code, nameHk: byId(id).nameHk, nameEn: byId(id).nameEn, students })),
    promoted: 58,
    graduates: 60,
    alreadyPlaced: 0,
    missingClasses: [],
    switchDate,
  };
}

const answer = (call: FetchCall) => {
  const body = (call.body ?? {}) as { mapping?: { fromClassId: number; toClassId: number }[]; switchDate?: string | null };
  if (call.path === '/v1/school-years/rollover/preview') return preview(body.mapping);
  if (call.path === '/v1/school-years/rollover') return { ...preview(body.mapping, body.switchDate ?? null), nextYear: { ...preview().nextYear, id: 9 } };
  return null;
};

const rows = (testId: string) => within(screen.getByTestId(testId)).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
const MANAGE = ['school-year.view', 'school-year.management'];

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the new school year', () => {
  it('offers the action only to holders of school-year.management', async () => {
    renderAt('/master/years/list', <NewSchoolYearButton />, fakeData([]), MANAGE);
    fireEvent.click(await screen.findByTestId('new-school-year'));
    await waitFor(() => expect(location.pathname).toBe('/master/years/new-year'));
    cleanup();
    renderAt('/master/years/list', <><NewSchoolYearButton /><span data-testid="rendered" /></>, fakeData([]), ['school-year.view', 'school-year.add']);
    await screen.findByTestId('rendered');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('new-school-year')).toBeNull();
  });

  it('shows the preview: next year, the counts, each class and where it goes, the counts after', async () => {
    fakeFetch(answer);
    renderAt('/master/years/new-year', <NewSchoolYearScreen />, fakeData([]), MANAGE);
    expect((await screen.findByTestId('new-year-summary')).textContent).toContain('2025-2026 → 2026-2027');
    expect(screen.getByTestId('new-year-promoted').textContent).toBe('58 人升班');
    expect(screen.getByTestId('new-year-graduates').textContent).toBe('60 人畢業離校');
    expect(rows('new-year-after')).toEqual([['中二A班', '30'], ['中二B班', '28']]);
    expect(within(screen.getByTestId('new-year-move-2A')).getByText('畢業離校')).toBeTruthy();
  });

  it('sends a changed mapping with the next preview, and the counts follow', async () => {
    const calls = fakeFetch(answer);
    renderAt('/master/years/new-year', <NewSchoolYearScreen />, fakeData([]), MANAGE);
    await screen.findByTestId('new-year-summary');
    fireEvent.mouseDown(within(screen.getByTestId('new-year-target-1B')).getByRole('combobox'));
    fireEvent.click(await screen.findByRole('option', { name: '中二A班' }));
    await waitFor(() => expect(rows('new-year-after')).toEqual([['中二A班', '58']]));
    const last = calls.filter((c) => c.path.endsWith('/preview')).at(-1)!;
    expect(last.body).toMatchObject({ mapping: [{ fromClassId: 12, toClassId: 21 }] });
  });

  it('runs with the switch date after a confirmation that says what happens', async () => {
    const calls = fakeFetch(answer);
    renderAt('/master/years/new-year', <NewSchoolYearScreen />, fakeData([]), MANAGE);
    await screen.findByTestId('new-year-summary');
    fireEvent.click(within(screen.getByTestId('new-year-switch-date')).getByRole('radio'));
    const date = screen.getByTestId('new-year-date');
    fireEvent.change(date, { target: { value: '2026-09' } });
    expect(await screen.findByText('請以 年-月-日 格式輸入日期（例如 2026-09-01）')).toBeTruthy();
    expect(screen.getByTestId('new-year-start')).toHaveProperty('disabled', true);
    fireEvent.change(date, { target: { value: '2099-09-01' } });
    expect(await screen.findByText('轉換日期須在下學年完結（2027-08-31）之前')).toBeTruthy();
    fireEvent.change(date, { target: { value: '2026-12-01' } });
    await waitFor(() => expect(screen.getByTestId('new-year-start')).toHaveProperty('disabled', false));
    fireEvent.click(screen.getByTestId('new-year-start'));
    const dialog = await screen.findByTestId('new-year-confirm');
    expect(dialog.textContent).toContain('58 名學生將獲編配2026-2027的班別及班號');
    expect(dialog.textContent).toContain('新學年將於 2026-12-01 成為目前學年');
    expect(calls.some((c) => c.path === '/v1/school-years/rollover')).toBe(false);
    fireEvent.click(screen.getByTestId('new-year-confirm-run'));
    await waitFor(() => expect(calls.find((c) => c.path === '/v1/school-years/rollover')?.body).toMatchObject({ switchDate: '2026-12-01', mapping: [] }));
    await waitFor(() => expect(location.pathname).toBe('/master/years/list'));
  });

  it("says why when there is nothing to roll over, in the user's language", async () => {
    fakeFetch(() => ({ status: 409, code: 727, msg: '未設定目前學年，無法升班' }));
    renderAt('/master/years/new-year', <NewSchoolYearScreen />, fakeData([]), MANAGE);
    expect((await screen.findByTestId('new-year-problem')).textContent).toContain('未設定目前學年，無法升班');
    expect(screen.queryByTestId('new-year-start')).toBeNull();
  });
});
