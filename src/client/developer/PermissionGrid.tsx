import { Box, Checkbox, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useLocale } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import type { MenuNode } from './api';
import { allIds, cellAction, columnIds, gridColumns, rowIds, sortedMenus, tick, toggle, type GridColumn } from './permissionGrid';

export interface PermissionGridProps {
  tree: MenuNode[];
  selected: ReadonlySet<number>;
  onChange: (next: Set<number>) => void;
  /** read only: the user may see the role's permissions but not change them */
  disabled?: boolean;
}

/** A box for a group of actions: ticked when all are selected, indeterminate when some are. */
function GroupBox({ ids, selected, onChange, label, testId, disabled }: { ids: number[]; selected: ReadonlySet<number>; onChange: (next: Set<number>) => void; label: string; testId: string; disabled?: boolean }) {
  const state = tick(selected, ids);
  return (
    <Checkbox
      size="small"
      checked={state === 'all' && ids.length > 0}
      indeterminate={state === 'some'}
      disabled={disabled || ids.length === 0}
      onChange={() => onChange(toggle(selected, ids))}
      slotProps={{ input: { 'aria-label': label, 'data-testid': testId } as object }}
    />
  );
}

/**
 * Every page with its actions as a grid of checkboxes: one column per action of the catalogue
 * in permission-group order (201–206), a box only where the page offers that action. The first
 * column selects a whole page, the header boxes a whole column, the corner box everything.
 */
export function PermissionGrid({ tree, selected, onChange, disabled }: PermissionGridProps) {
  const translate = useTranslate();
  const en = useLocale() === 'en';
  const menus = sortedMenus(tree);
  const columns = gridColumns(menus);
  const colName = (c: GridColumn) => (en ? c.nameEn : c.nameHk);
  const pageName = (m: MenuNode) => (en ? m.nameEn : m.nameHk);
  const everything = allIds(menus);
  return (
    <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }} data-testid="permission-grid">
      <Table size="small" stickyHeader aria-label={translate('qe.developer.permission.title')}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ minWidth: 180, fontWeight: 600 }}>
              <Box sx={{ display: 'flex', alignItems: 'center' }}>
                <GroupBox ids={everything} selected={selected} onChange={onChange} disabled={disabled} label={translate('qe.developer.permission.selectAll')} testId="perm-all" />
                {translate('qe.developer.permission.page')}
              </Box>
            </TableCell>
            {columns.map((c) => (
              <TableCell key={c.code} align="center" sx={{ whiteSpace: 'nowrap', fontWeight: 600, px: 0.5 }}>
                <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
                  {c.group}
                </Typography>
                <Typography variant="body2" component="div" sx={{ fontWeight: 600 }}>
                  {colName(c)}
                </Typography>
                <GroupBox
                  ids={columnIds(menus, c.code)}
                  selected={selected}
                  onChange={onChange}
                  disabled={disabled}
                  label={translate('qe.developer.permission.selectColumn', { action: colName(c) })}
                  testId={`perm-col-${c.code}`}
                />
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {menus.map((m) => (
            <TableRow key={m.menuId} hover data-testid={`perm-row-${m.code}`}>
              <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                <Box sx={{ display: 'flex', alignItems: 'center' }}>
                  <GroupBox ids={rowIds(m)} selected={selected} onChange={onChange} disabled={disabled} label={translate('qe.developer.permission.selectRow', { page: pageName(m) })} testId={`perm-page-${m.code}`} />
                  <span>
                    {pageName(m)}{' '}
                    <Typography component="span" variant="caption" sx={{ color: 'text.secondary' }}>
                      {m.code}
                    </Typography>
                  </span>
                </Box>
              </TableCell>
              {columns.map((c) => {
                const action = cellAction(m, c.code);
                return (
                  <TableCell key={c.code} align="center" sx={{ px: 0.5 }}>
                    {action && (
                      <Checkbox
                        size="small"
                        checked={selected.has(action.actionId)}
                        disabled={disabled}
                        onChange={() => onChange(toggle(selected, [action.actionId]))}
                        slotProps={{ input: { 'aria-label': `${pageName(m)}: ${colName(c)}`, 'data-testid': `perm-${m.code}.${c.code}` } as object }}
                      />
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
