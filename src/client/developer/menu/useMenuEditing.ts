/** Adding, editing and deleting menus and actions: which dialog is open with what values, and the calls that save or delete. */
import { useState, type Dispatch, type SetStateAction } from 'react';
import { useNotify } from 'react-admin';
import { developerApi, type MenuAction, type MenuNode } from '../api';
import type { Values } from '../FieldsDialog';
import { SORT_STEP } from './menuOrder';

/** The menu or action being added (no `menu` / `action`) or edited, with the dialog's first values. */
export type Editing =
  | { kind: 'menu'; menu?: MenuNode; initial: Values }
  | { kind: 'action'; menu: MenuNode; action?: MenuAction; initial: Values };
/** The menu or action whose delete awaits confirmation. */
export type Deleting = { kind: 'menu'; menu: MenuNode } | { kind: 'action'; action: MenuAction };

/**
 * The dialogs' state and what opens, saves and deletes: an edit dialog opens on the server's
 * current values (the menus are reloaded if the item is gone), and every save or delete reloads
 * the menus; an action added opens its menu (`setOpenIds`).
 */
export function useMenuEditing({
  menus,
  load,
  setOpenIds,
}: {
  menus: MenuNode[] | null;
  load: () => Promise<void>;
  setOpenIds: Dispatch<SetStateAction<Set<number>>>;
}) {
  const notify = useNotify();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const [busy, setBusy] = useState(false);

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

  return { editing, setEditing, deleting, setDeleting, busy, openMenuDialog, openActionDialog, save, remove };
}
