import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { PermissionGrid } from '../../../src/client/developer/PermissionGrid';
import { gridColumns, toggle } from '../../../src/client/developer/permissionGrid';
import type { MenuNode } from '../../../src/client/developer/api';
import { renderWith, sampleTree } from './support';

/** The grid as the permission screen holds it: every change goes through onChange into the state. */
function Harness({ tree, initial, onChange }: { tree: MenuNode[]; initial: number[]; onChange: (ids: number[]) => void }) {
  const [selected, setSelected] = useState(new Set(initial));
  return (
    <PermissionGrid
      tree={tree}
      selected={selected}
      onChange={(next) => {
        setSelected(next);
        onChange([...next].sort((a, b) => a - b));
      }}
    />
  );
}

const box = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const ids = (tree: MenuNode[], codes: string[]) =>
  codes
    .map((c) => {
      const [page, action] = c.split('.');
      return tree.find((m) => m.code === page)!.actions.find((a) => a.code === action)!.actionId;
    })
    .sort((a, b) => a - b);

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(cleanup);

describe('the permission grid', () => {
  it('shows the pages by their sort, the columns in permission-group order, and a box only where the page offers the action', async () => {
    const tree = sampleTree();
    renderWith(<Harness tree={tree} initial={[]} onChange={() => undefined} />);
    await screen.findByTestId('permission-grid');
    expect(gridColumns(tree).map((c) => c.code)).toEqual(['view', 'add', 'edit', 'assign-roles', 'management']);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual(['perm-row-form', 'perm-row-help', 'perm-row-role']);
    // help offers only view; role no add
    expect(within(rows[1]).getAllByRole('checkbox')).toHaveLength(2);
    expect(screen.queryByTestId('perm-help.add')).toBeNull();
    expect(screen.queryByTestId('perm-role.add')).toBeNull();
    expect(box('perm-form.add').checked).toBe(false);
  });

  it('selects a whole row, then clears it', async () => {
    const tree = sampleTree();
    const onChange = vi.fn();
    renderWith(<Harness tree={tree} initial={ids(tree, ['help.view'])} onChange={onChange} />);
    fireEvent.click(await screen.findByTestId('perm-page-form'));
    expect(onChange).toHaveBeenLastCalledWith(ids(tree, ['help.view', 'form.view', 'form.add', 'form.edit', 'form.management']));
    expect(box('perm-page-form').checked).toBe(true);
    fireEvent.click(box('perm-page-form'));
    expect(onChange).toHaveBeenLastCalledWith(ids(tree, ['help.view']));
  });

  it('selects a whole column: the action on every page that offers it; a partly selected column becomes fully selected', async () => {
    const tree = sampleTree();
    const onChange = vi.fn();
    renderWith(<Harness tree={tree} initial={ids(tree, ['form.view'])} onChange={onChange} />);
    const column = await screen.findByTestId('perm-col-view');
    expect(column.closest('.MuiCheckbox-root')?.classList.contains('MuiCheckbox-indeterminate')).toBe(true);
    fireEvent.click(column);
    expect(onChange).toHaveBeenLastCalledWith(ids(tree, ['form.view', 'help.view', 'role.view']));
    fireEvent.click(box('perm-col-view'));
    expect(onChange).toHaveBeenLastCalledWith([]);
    fireEvent.click(box('perm-col-assign-roles'));
    expect(onChange).toHaveBeenLastCalledWith(ids(tree, ['role.assign-roles']));
  });

  it('selects everything, clears everything, and single cells toggle their own action', async () => {
    const tree = sampleTree();
    const onChange = vi.fn();
    renderWith(<Harness tree={tree} initial={[]} onChange={onChange} />);
    fireEvent.click(await screen.findByTestId('perm-all'));
    expect(onChange).toHaveBeenLastCalledWith(tree.flatMap((m) => m.actions.map((a) => a.actionId)).sort((a, b) => a - b));
    expect(box('perm-all').checked).toBe(true);
    fireEvent.click(box('perm-form.add'));
    expect(onChange).toHaveBeenLastCalledWith(ids(tree, ['form.view', 'form.edit', 'form.management', 'help.view', 'role.view', 'role.assign-roles']));
    expect(box('perm-all').checked).toBe(false);
    fireEvent.click(box('perm-all'));
    fireEvent.click(box('perm-all'));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('toggle() selects when not all are selected, else clears, leaving the others alone', () => {
    expect([...toggle(new Set([1, 9]), [1, 2])].sort()).toEqual([1, 2, 9]);
    expect([...toggle(new Set([1, 2, 9]), [1, 2])]).toEqual([9]);
  });

  it('is read only when disabled', async () => {
    const tree = sampleTree();
    renderWith(<PermissionGrid tree={tree} selected={new Set()} onChange={() => undefined} disabled />);
    expect(((await screen.findByTestId('perm-all')) as HTMLInputElement).disabled).toBe(true);
    expect(box('perm-form.view').disabled).toBe(true);
  });
});
