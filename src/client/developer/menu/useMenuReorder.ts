/**
 * Reordering the menus by drag (pointer, touch or keyboard) or the up/down buttons: each new
 * order shown at once, saved through update-sort, and told to screen readers.
 */
import { useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { useTranslate } from '../../i18n/translate';
import { developerApi, type MenuNode } from '../api';
import { renumber } from './menuOrder';

const POINTER = { activationConstraint: { distance: 5 } };
const KEYBOARD = { coordinateGetter: sortableKeyboardCoordinates };

/** The sensors and announcements of the drag-and-drop context, its drop handler, the up/down move and the last move's announcement. */
export function useMenuReorder({
  menus,
  setMenus,
  load,
  nameOf,
}: {
  menus: MenuNode[] | null;
  setMenus: Dispatch<SetStateAction<MenuNode[] | null>>;
  load: () => Promise<void>;
  nameOf: (m: MenuNode) => string;
}) {
  const translate = useTranslate();
  const [announcement, setAnnouncement] = useState('');
  const sensors = useSensors(useSensor(PointerSensor, POINTER), useSensor(KeyboardSensor, KEYBOARD));

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

  return { sensors, announcements, announcement, move, onDragEnd };
}
