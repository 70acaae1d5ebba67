/** The menus in their order, one sortable row each, in the drag-and-drop context, and the live region that tells a move. */
import { Box, Stack } from '@mui/material';
import { closestCenter, DndContext, type Announcements, type DragEndEvent, type SensorDescriptor, type SensorOptions } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useTranslate } from '../../i18n/translate';
import type { MenuAction, MenuNode } from '../api';
import { MenuRow } from './MenuRow';

export function MenuTree({
  menus,
  openIds,
  may,
  sensors,
  announcements,
  announcement,
  onDragEnd,
  onToggle,
  onMove,
  onEdit,
  onDelete,
  onAddAction,
  onEditAction,
  onDeleteAction,
}: {
  menus: MenuNode[];
  openIds: ReadonlySet<number>;
  may: { add: boolean; edit: boolean; delete: boolean };
  sensors: SensorDescriptor<SensorOptions>[];
  announcements: Announcements;
  /** the last move, for screen readers */
  announcement: string;
  onDragEnd: (event: DragEndEvent) => void;
  onToggle: (menu: MenuNode) => void;
  onMove: (menu: MenuNode, delta: -1 | 1) => void;
  onEdit: (menu: MenuNode) => void;
  onDelete: (menu: MenuNode) => void;
  onAddAction: (menu: MenuNode) => void;
  onEditAction: (menu: MenuNode, action: MenuAction) => void;
  onDeleteAction: (action: MenuAction) => void;
}) {
  const translate = useTranslate();
  return (
    <>
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
                onToggle={() => onToggle(m)}
                onMove={(delta) => onMove(m, delta)}
                onEdit={() => onEdit(m)}
                onDelete={() => onDelete(m)}
                onAddAction={() => onAddAction(m)}
                onEditAction={(a) => onEditAction(m, a)}
                onDeleteAction={onDeleteAction}
                may={may}
              />
            ))}
          </Stack>
        </SortableContext>
      </DndContext>
      <Box aria-live="polite" sx={{ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
        {announcement}
      </Box>
    </>
  );
}
