import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Collapse,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import EditIcon from '@mui/icons-material/EditOutlined';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Confirm, Title, useLocale, useNotify, useTranslate } from 'react-admin';
import { ACTIONS } from '../../shared/permissions';
import { useHolds } from '../master/access';
import { developerApi, type MenuAction, type MenuNode } from './api';
import { FieldsDialog, type FieldDef, type Values } from './FieldsDialog';
import { sortedMenus } from './permissionGrid';

const POINTER = { activationConstraint: { distance: 5 } };
const KEYBOARD = { coordinateGetter: sortableKeyboardCoordinates };
const CODE = /^[A-Za-z0-9_*.-]+$/;
const GROUPS = [201, 202, 203, 204, 205, 206];
const SORT_STEP = 10;

type Editing =
  | { kind: 'menu'; menu?: MenuNode; initial: Values }
  | { kind: 'action'; menu: MenuNode; action?: MenuAction; initial: Values };
type Deleting = { kind: 'menu'; menu: MenuNode } | { kind: 'action'; action: MenuAction };

/** The menus in a new order, numbered again 10, 20, 30…: what update-sort saves. */
export function renumber(menus: MenuNode[]): MenuNode[] {
  return menus.map((m, i) => ({ ...m, sort: (i + 1) * SORT_STEP }));
}

function MenuRow({
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

/**
 * developerMenu: the menus (pages) of system QE in their order, each with its actions; add,
 * edit and delete both in dialogs, and reorder the menus by drag (pointer, touch or keyboard:
 * Space on the handle, arrows, Space) or the up/down buttons — each move saved at once
 * through update-sort. Deleting a menu that roles use says how many roles lose it.
 */
export function MenuScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const en = useLocale() === 'en';
  const may = { add: useHolds('menu', 'add'), edit: useHolds('menu', 'edit'), delete: useHolds('menu', 'delete') };
  const [menus, setMenus] = useState<MenuNode[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [openIds, setOpenIds] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const sensors = useSensors(useSensor(PointerSensor, POINTER), useSensor(KeyboardSensor, KEYBOARD));

  const load = useCallback(async () => {
    try {
      setMenus(sortedMenus(await developerApi.tree()));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const nameOf = useCallback((m: MenuNode) => (en ? m.nameEn : m.nameHk), [en]);

  /** A new order: shown at once, saved through update-sort (only the menus whose sort changed); reloaded if refused. */
  const reorder = async (next: MenuNode[], moved: MenuNode) => {
    const before = menus ?? [];
    const numbered = renumber(next);
    setMenus(numbered);
    const position = numbered.findIndex((m) => m.menuId === moved.menuId) + 1;
    setAnnouncement(translate('qe.developer.menu.movedTo', { name: nameOf(moved), position, count: numbered.length }));
    const changed = numbered.filter((m) => before.find((b) => b.menuId === m.menuId)?.sort !== m.sort);
    if (!changed.length) return;
    try {
      await developerApi.updateSort(changed.map((m) => ({ menuId: m.menuId, sort: m.sort })));
    } catch {
      await load();
    }
  };

  const move = (menu: MenuNode, delta: -1 | 1) => {
    if (!menus) return;
    const from = menus.findIndex((m) => m.menuId === menu.menuId);
    const to = from + delta;
    if (to < 0 || to >= menus.length) return;
    void reorder(arrayMove(menus, from, to), menu);
    // keep the focus on the pressed button (or its twin once the menu reached an end)
    setTimeout(() => {
      const last = to === 0 || to === menus.length - 1;
      const button = document.querySelector<HTMLButtonElement>(`[data-move="${menu.menuId}:${(delta < 0) !== last ? 'up' : 'down'}"]`);
      button?.focus();
    });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!menus || !over || active.id === over.id) return;
    const from = menus.findIndex((m) => m.menuId === active.id);
    const to = menus.findIndex((m) => m.menuId === over.id);
    if (from < 0 || to < 0) return;
    void reorder(arrayMove(menus, from, to), menus[from]);
  };

  const announcements: Announcements = useMemo(() => {
    const named = (id: unknown) => {
      const m = menus?.find((x) => x.menuId === id);
      return m ? nameOf(m) : '';
    };
    const at = (id: unknown) => (menus?.findIndex((x) => x.menuId === id) ?? -1) + 1;
    const count = menus?.length ?? 0;
    return {
      onDragStart: ({ active }) => translate('qe.developer.menu.pickedUp', { name: named(active.id), position: at(active.id), count }),
      onDragOver: ({ active, over }) => (over ? translate('qe.developer.menu.over', { name: named(active.id), position: at(over.id), count }) : undefined),
      onDragEnd: ({ active, over }) => (over ? translate('qe.developer.menu.dropped', { name: named(active.id), position: at(over.id), count }) : undefined),
      onDragCancel: ({ active }) => translate('qe.developer.menu.cancelled', { name: named(active.id) }),
    };
  }, [menus, nameOf, translate]);

  const openMenuDialog = async (menu?: MenuNode) => {
    if (!menu) {
      const next = ((menus ?? []).reduce((n, m) => Math.max(n, m.sort), 0) || 0) + SORT_STEP;
      return setEditing({ kind: 'menu', initial: { code: '', name: '', nameEn: '', sort: String(Math.min(next, 100000)) } });
    }
    const fresh = await developerApi.inquireMenu(menu.menuId).catch(() => null);
    if (!fresh) return load();
    setEditing({ kind: 'menu', menu, initial: { code: fresh.code, name: fresh.nameHk, nameEn: fresh.nameEn, sort: String(fresh.sort) } });
  };

  const openActionDialog = async (menu: MenuNode, action?: MenuAction) => {
    if (!action) {
      const next = menu.actions.reduce((n, a) => Math.max(n, a.sort), -1) + 1;
      return setEditing({ kind: 'action', menu, initial: { code: '', group: '201', name: '', nameEn: '', sort: String(next) } });
    }
    const fresh = await developerApi.inquireAction(action.actionId).catch(() => null);
    if (!fresh) return load();
    setEditing({ kind: 'action', menu, action, initial: { code: fresh.code, group: String(fresh.group), name: fresh.nameHk, nameEn: fresh.nameEn, sort: String(fresh.sort) } });
  };

  const save = async (values: Values) => {
    if (!editing) return;
    const base = { code: values.code, name: values.name, nameEn: values.nameEn || values.name, sort: Number(values.sort || 0) };
    if (editing.kind === 'menu') {
      if (editing.menu) await developerApi.editMenu(editing.menu.menuId, base);
      else await developerApi.createMenu(base);
    } else {
      const input = { ...base, group: Number(values.group) };
      if (editing.action) await developerApi.editAction(editing.action.actionId, input);
      else {
        await developerApi.createAction(editing.menu.menuId, input);
        setOpenIds((ids) => new Set(ids).add(editing.menu.menuId));
      }
    }
    setEditing(null);
    notify('qe.success.operation', { type: 'success' });
    await load();
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      if (deleting.kind === 'menu') await developerApi.deleteMenu(deleting.menu.menuId);
      else await developerApi.deleteAction(deleting.action.actionId);
      notify('qe.success.deleted', { type: 'success' });
    } catch {
      // request() has shown the server's message (709: own developer access)
    } finally {
      setBusy(false);
      setDeleting(null);
      await load();
    }
  };

  const codeRule = { pattern: CODE, patternMessage: translate('qe.developer.form.codePattern'), maxLength: 50 };
  const commonFields: FieldDef[] = [
    { name: 'name', label: translate('qe.developer.form.nameHk'), required: true, maxLength: 100 },
    { name: 'nameEn', label: translate('qe.developer.form.nameEn'), required: true, maxLength: 100 },
    { name: 'sort', label: translate('qe.developer.form.sort'), kind: 'integer', min: 0, max: 100000 },
  ];
  const menuFields: FieldDef[] = [{ name: 'code', label: translate('qe.developer.form.menuCode'), required: true, ...codeRule }, ...commonFields];
  const groupLabel = (g: number) =>
    `${g} — ${ACTIONS.filter((a) => a.group === g)
      .map((a) => (en ? a.nameEn : a.nameHk))
      .join(en ? ', ' : '、')}`;
  const actionFields: FieldDef[] = [
    {
      name: 'code',
      label: translate('qe.developer.form.actionCode'),
      required: true,
      kind: 'suggest',
      suggestions: ACTIONS.map((a) => a.code),
      // a code of the catalogue brings its group and names
      onPick: (code, v) => {
        const def = ACTIONS.find((a) => a.code === code);
        return def ? { ...v, group: String(def.group), name: v.name || def.nameHk, nameEn: v.nameEn || def.nameEn } : v;
      },
      ...codeRule,
    },
    { name: 'group', label: translate('qe.developer.form.group'), kind: 'select', required: true, choices: GROUPS.map((g) => ({ value: g, label: groupLabel(g) })) },
    ...commonFields,
  ];

  const title = translate('qe.menu.developerMenu');
  if (failed) {
    return (
      <Card sx={{ mt: 2 }}>
        <Title title={title} />
        <CardContent>
          <Alert severity="error" action={<Button onClick={load}>{translate('qe.developer.retry')}</Button>}>
            {translate('qe.error.tryLater')}
          </Alert>
        </CardContent>
      </Card>
    );
  }
  if (!menus) {
    return (
      <Box sx={{ p: 4, display: 'flex', justifyContent: 'center' }}>
        <Title title={title} />
        <CircularProgress />
      </Box>
    );
  }

  const deletingMenu = deleting?.kind === 'menu' ? deleting.menu : null;
  return (
    <Card sx={{ mt: 2 }} data-testid="developer-menu">
      <Title title={title} />
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2, justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {translate(may.edit ? 'qe.developer.menu.hint' : 'qe.developer.menu.hintReadOnly')}
          </Typography>
          <Stack direction="row" spacing={1}>
            <Button onClick={() => setOpenIds(openIds.size === menus.length ? new Set() : new Set(menus.map((m) => m.menuId)))} data-testid="menu-expand-all">
              {translate(openIds.size === menus.length ? 'qe.developer.menu.collapseAll' : 'qe.developer.menu.expandAll')}
            </Button>
            {may.add && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => openMenuDialog()} data-testid="menu-add">
                {translate('qe.developer.menu.add')}
              </Button>
            )}
          </Stack>
        </Stack>
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: { draggable: translate('qe.developer.menu.instructions') } }}>
          <SortableContext items={menus.map((m) => m.menuId)} strategy={verticalListSortingStrategy}>
            <Stack spacing={1} data-testid="menu-tree">
              {menus.map((m, i) => (
                <MenuRow
                  key={m.menuId}
                  menu={m}
                  index={i}
                  count={menus.length}
                  open={openIds.has(m.menuId)}
                  onToggle={() =>
                    setOpenIds((ids) => {
                      const next = new Set(ids);
                      if (!next.delete(m.menuId)) next.add(m.menuId);
                      return next;
                    })
                  }
                  onMove={(delta) => move(m, delta)}
                  onEdit={() => void openMenuDialog(m)}
                  onDelete={() => setDeleting({ kind: 'menu', menu: m })}
                  onAddAction={() => void openActionDialog(m)}
                  onEditAction={(a) => void openActionDialog(m, a)}
                  onDeleteAction={(a) => setDeleting({ kind: 'action', action: a })}
                  may={may}
                />
              ))}
            </Stack>
          </SortableContext>
        </DndContext>
        <Box aria-live="polite" sx={{ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
          {announcement}
        </Box>
      </CardContent>
      <FieldsDialog
        open={editing?.kind === 'menu'}
        title={translate(editing?.kind === 'menu' && editing.menu ? 'qe.developer.menu.edit' : 'qe.developer.menu.add')}
        fields={menuFields}
        initial={editing?.kind === 'menu' ? editing.initial : {}}
        onSubmit={save}
        onClose={() => setEditing(null)}
        testId="menu-dialog"
      />
      <FieldsDialog
        open={editing?.kind === 'action'}
        title={
          editing?.kind === 'action'
            ? `${translate(editing.action ? 'qe.developer.action.edit' : 'qe.developer.action.add')} — ${nameOf(editing.menu)}`
            : ''
        }
        fields={actionFields}
        initial={editing?.kind === 'action' ? editing.initial : {}}
        onSubmit={save}
        onClose={() => setEditing(null)}
        testId="action-dialog"
      />
      <Confirm
        isOpen={Boolean(deleting)}
        loading={busy}
        title="qe.confirm.title"
        content={
          deletingMenu ? (
            <Box data-testid="menu-delete-confirm">
              <Typography>{translate('qe.developer.menu.deleteConfirm', { name: nameOf(deletingMenu), smart_count: deletingMenu.actions.length })}</Typography>
              {deletingMenu.roleCount > 0 && (
                <Alert severity="warning" sx={{ mt: 2 }} data-testid="menu-delete-roles">
                  {translate('qe.developer.menu.rolesLose', { smart_count: deletingMenu.roleCount })}
                </Alert>
              )}
            </Box>
          ) : deleting?.kind === 'action' ? (
            translate('qe.developer.action.deleteConfirm', { code: deleting.action.code })
          ) : (
            ''
          )
        }
        confirm="qe.master.delete"
        confirmColor="warning"
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}
