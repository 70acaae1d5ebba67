import { useCallback, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Title, useLocale } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useHolds } from '../master/access';
import type { MenuNode } from './api';
import { MenuDialogs } from './menu/MenuDialogs';
import { MenuTree } from './menu/MenuTree';
import { useMenuEditing } from './menu/useMenuEditing';
import { useMenuReorder } from './menu/useMenuReorder';
import { useMenuTree } from './menu/useMenuTree';

/**
 * developerMenu: the menus (pages) of system QE in their order, each with its actions; add,
 * edit and delete both in dialogs, and reorder the menus by drag (pointer, touch or keyboard:
 * Space on the handle, arrows, Space) or the up/down buttons — each move saved at once
 * through update-sort. Deleting a menu that roles use says how many roles lose it.
 */
export function MenuScreen() {
  const translate = useTranslate();
  const en = useLocale() === 'en';
  const may = { add: useHolds('menu', 'add'), edit: useHolds('menu', 'edit'), delete: useHolds('menu', 'delete') };
  const { menus, setMenus, failed, load } = useMenuTree();
  const [openIds, setOpenIds] = useState<Set<number>>(new Set());

  const nameOf = useCallback((m: MenuNode) => (en ? m.nameEn : m.nameHk), [en]);

  const { sensors, announcements, announcement, move, onDragEnd } = useMenuReorder({ menus, setMenus, load, nameOf });
  const { editing, setEditing, deleting, setDeleting, busy, openMenuDialog, openActionDialog, save, remove } = useMenuEditing({ menus, load, setOpenIds });

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
        <MenuTree
          menus={menus}
          openIds={openIds}
          may={may}
          sensors={sensors}
          announcements={announcements}
          announcement={announcement}
          onDragEnd={onDragEnd}
          onToggle={(m) =>
            setOpenIds((ids) => {
              const next = new Set(ids);
              if (!next.delete(m.menuId)) next.add(m.menuId);
              return next;
            })
          }
          onMove={move}
          onEdit={(m) => void openMenuDialog(m)}
          onDelete={(m) => setDeleting({ kind: 'menu', menu: m })}
          onAddAction={(m) => void openActionDialog(m)}
          onEditAction={(m, a) => void openActionDialog(m, a)}
          onDeleteAction={(a) => setDeleting({ kind: 'action', action: a })}
        />
      </CardContent>
      <MenuDialogs
        editing={editing}
        deleting={deleting}
        busy={busy}
        nameOf={nameOf}
        onSave={save}
        onCloseEditing={() => setEditing(null)}
        onDelete={remove}
        onCloseDeleting={() => setDeleting(null)}
      />
    </Card>
  );
}
