/** The dialogs of the developer menu screen: adding or editing a menu, adding or editing an action, and confirming a delete. */
import { Alert, Box, Typography } from '@mui/material';
import { Confirm, useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { MenuNode } from '../api';
import { FieldsDialog, type Values } from '../FieldsDialog';
import { menuDialogFields } from './menuFields';
import type { Deleting, Editing } from './useMenuEditing';

/** Deleting a menu that roles use says how many roles lose it. */
export function MenuDialogs({
  editing,
  deleting,
  busy,
  nameOf,
  onSave,
  onCloseEditing,
  onDelete,
  onCloseDeleting,
}: {
  editing: Editing | null;
  deleting: Deleting | null;
  /** a delete is under way */
  busy: boolean;
  nameOf: (m: MenuNode) => string;
  onSave: (values: Values) => Promise<void>;
  onCloseEditing: () => void;
  onDelete: () => Promise<void>;
  onCloseDeleting: () => void;
}) {
  const translate = useTranslate();
  const en = useLocale() === 'en';
  const { menuFields, actionFields } = menuDialogFields(translate, en);
  const deletingMenu = deleting?.kind === 'menu' ? deleting.menu : null;
  return (
    <>
      <FieldsDialog
        open={editing?.kind === 'menu'}
        title={translate(editing?.kind === 'menu' && editing.menu ? 'qe.developer.menu.edit' : 'qe.developer.menu.add')}
        fields={menuFields}
        initial={editing?.kind === 'menu' ? editing.initial : {}}
        onSubmit={onSave}
        onClose={onCloseEditing}
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
        onSubmit={onSave}
        onClose={onCloseEditing}
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
        onConfirm={onDelete}
        onClose={onCloseDeleting}
      />
    </>
  );
}
