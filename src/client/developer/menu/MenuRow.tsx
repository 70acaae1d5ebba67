/** One menu of the developer menu screen: its drag handle, up/down and edit buttons, and its actions in a table that opens below it. */
import { Box, Chip, Collapse, IconButton, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import EditIcon from '@mui/icons-material/EditOutlined';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { MenuAction, MenuNode } from '../api';

export function MenuRow({
  menu,
  index,
  count,
  open,
  onToggle,
  onMove,
  onEdit,
  onDelete,
  onAddAction,
  onEditAction,
  onDeleteAction,
  may,
}: {
  menu: MenuNode;
  index: number;
  count: number;
  open: boolean;
  onToggle: () => void;
  onMove: (delta: -1 | 1) => void;
  onEdit: () => void;
  onDelete: () => void;
  onAddAction: () => void;
  onEditAction: (a: MenuAction) => void;
  onDeleteAction: (a: MenuAction) => void;
  may: { add: boolean; edit: boolean; delete: boolean };
}) {
  const translate = useTranslate();
  const en = useLocale() === 'en';
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: menu.menuId, disabled: !may.edit });
  const name = en ? menu.nameEn : menu.nameHk;
  const actions = [...menu.actions].sort((a, b) => a.sort - b.sort || a.actionId - b.actionId);
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      data-testid={`menu-row-${menu.code}`}
      sx={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1, position: 'relative', zIndex: isDragging ? 2 : 'auto' }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1, py: 0.5, flexWrap: 'wrap' }}>
        {may.edit && (
          <>
            <Tooltip title={translate('qe.developer.menu.drag')}>
              <IconButton ref={setActivatorNodeRef} size="small" {...attributes} {...listeners} aria-label={translate('qe.developer.menu.dragLabel', { name })} sx={{ cursor: 'grab', touchAction: 'none' }} data-testid="menu-drag">
                <DragIndicatorIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <IconButton size="small" disabled={index === 0} onClick={() => onMove(-1)} aria-label={translate('qe.developer.menu.moveUp', { name })} data-move={`${menu.menuId}:up`} data-testid="menu-up">
              <ArrowUpwardIcon fontSize="small" />
            </IconButton>
            <IconButton size="small" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={translate('qe.developer.menu.moveDown', { name })} data-move={`${menu.menuId}:down`} data-testid="menu-down">
              <ArrowDownwardIcon fontSize="small" />
            </IconButton>
          </>
        )}
        <IconButton size="small" onClick={onToggle} aria-expanded={open} aria-label={translate(open ? 'qe.developer.menu.collapse' : 'qe.developer.menu.expand', { name })} data-testid="menu-expand">
          {open ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
        </IconButton>
        <Box sx={{ flex: 1, minWidth: 160 }}>
          <Typography component="span" sx={{ fontWeight: 600 }}>
            {name}
          </Typography>{' '}
          <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
            {menu.code}
          </Typography>
        </Box>
        <Chip size="small" variant="outlined" label={translate('qe.developer.menu.sortValue', { sort: menu.sort })} />
        <Chip size="small" variant="outlined" label={translate('qe.developer.menu.actionCount', { smart_count: menu.actions.length })} />
        <Chip size="small" variant="outlined" color={menu.roleCount ? 'primary' : 'default'} label={translate('qe.developer.menu.roleCount', { smart_count: menu.roleCount })} />
        {may.add && (
          <Tooltip title={translate('qe.developer.action.add')}>
            <IconButton size="small" onClick={onAddAction} aria-label={`${translate('qe.developer.action.add')}: ${name}`} data-testid="action-add">
              <AddIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {may.edit && (
          <Tooltip title={translate('qe.developer.menu.edit')}>
            <IconButton size="small" onClick={onEdit} aria-label={`${translate('qe.developer.menu.edit')}: ${name}`} data-testid="menu-edit">
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {may.delete && (
          <Tooltip title={translate('qe.developer.menu.delete')}>
            <IconButton size="small" onClick={onDelete} aria-label={`${translate('qe.developer.menu.delete')}: ${name}`} data-testid="menu-delete">
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      <Collapse in={open} unmountOnExit>
        <Box sx={{ px: 2, pb: 1, overflowX: 'auto' }}>
          {actions.length === 0 ? (
            <Typography variant="body2" sx={{ color: 'text.secondary', py: 1 }}>
              {translate('qe.developer.action.none')}
            </Typography>
          ) : (
            <Table size="small" aria-label={translate('qe.developer.action.title', { name })} data-testid={`actions-${menu.code}`}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('qe.developer.action.code')}</TableCell>
                  <TableCell>{translate('qe.developer.action.group')}</TableCell>
                  <TableCell>{translate('qe.developer.action.nameHk')}</TableCell>
                  <TableCell>{translate('qe.developer.action.nameEn')}</TableCell>
                  <TableCell>{translate('qe.developer.action.sort')}</TableCell>
                  {(may.edit || may.delete) && <TableCell>{translate('qe.master.actions')}</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {actions.map((a) => (
                  <TableRow key={a.actionId} data-testid={`action-row-${menu.code}.${a.code}`}>
                    <TableCell>{a.code}</TableCell>
                    <TableCell>{a.group}</TableCell>
                    <TableCell>{a.nameHk}</TableCell>
                    <TableCell>{a.nameEn}</TableCell>
                    <TableCell>{a.sort}</TableCell>
                    {(may.edit || may.delete) && (
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {may.edit && (
                          <IconButton size="small" onClick={() => onEditAction(a)} aria-label={`${translate('qe.developer.action.edit')}: ${a.code}`} data-testid="action-edit">
                            <EditIcon fontSize="small" />
                          </IconButton>
                        )}
                        {may.delete && (
                          <IconButton size="small" onClick={() => onDeleteAction(a)} aria-label={`${translate('qe.developer.action.delete')}: ${a.code}`} data-testid="action-delete">
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        )}
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Box>
      </Collapse>
    </Paper>
  );
}
