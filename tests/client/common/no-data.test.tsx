import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AdminContext, ListContextProvider, memoryStore, type ListControllerResult } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { NoData } from '../../../src/client/common/NoData';
import appZhHk from '../../../src/shared/i18n/app-zh-hk';

afterEach(cleanup);

/** NoData inside a list whose filters are `filterValues`; answers the list's setFilters. */
function inList(filterValues: Record<string, unknown>) {
  const setFilters = vi.fn();
  const list = { data: [], total: 0, filterValues, displayedFilters: {}, setFilters, isPending: false } as unknown as ListControllerResult;
  render(
    <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
      <ListContextProvider value={list}>
        <NoData />
      </ListContextProvider>
    </AdminContext>,
  );
  return setFilters;
}

describe("a list's empty state", () => {
  it('says filters hide the rows and clears them, keeping the school year the list is about', () => {
    const setFilters = inList({ q: 'chan', status: '1', schoolYearId: 3 });
    expect(screen.getByTestId('no-data').textContent).toContain(appZhHk.qe.common.noFilteredData);
    fireEvent.click(screen.getByTestId('clear-filters'));
    expect(setFilters).toHaveBeenCalledWith({ schoolYearId: 3 }, {});
  });

  it('is the plain "no data" line when nothing narrows the list (the school year alone, empty values)', () => {
    inList({ schoolYearId: 3, q: '', classIds: [] });
    expect(screen.getByTestId('no-data').textContent).toBe(appZhHk.qe.common.noData);
    expect(screen.queryByTestId('clear-filters')).toBeNull();
  });

  it('is the plain line outside a list', () => {
    render(
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <NoData textKey="qe.filling.list.empty" />
      </AdminContext>,
    );
    expect(screen.getByTestId('no-data').textContent).toBe(appZhHk.qe.filling.list.empty);
  });
});
