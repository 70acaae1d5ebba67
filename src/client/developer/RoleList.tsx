import { useState, type MouseEvent } from 'react';
import { ScrollRegion } from '../common/ScrollRegion';
import { Box, Chip, IconButton, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import SecurityIcon from '@mui/icons-material/Security';
import { Button, Confirm, DataTable, List, SearchInput, SelectInput, TopToolbar, useDelete, useLocale, useNotify, useRecordContext, type HttpError } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useNavigate } from 'react-router-dom';
import { USER_TYPES } from '../../shared/permissions';
import { useHolds } from '../master/access';
import type { Role } from './api';
import { rolePath } from './paths';

export function useUserTypeChoices() {
  const translate = useTranslate();
  return USER_TYPES.map((t) => ({ id: t, name: translate(`qe.userType.${t}`) }));
}

function ListActions() {
  const navigate = useNavigate();
  const mayAdd = useHolds('role', 'add');
  return (
    <TopToolbar>
      {mayAdd && (
        <Button label="qe.developer.role.add" onClick={() => navigate(rolePath('add'))} data-testid="role-add">
          <AddIcon />
        </Button>
      )}
    </TopToolbar>
  );
}

/** Deletes a role after a confirmation that says how many users hold it. */
function DeleteRoleButton() {
  const record = useRecordContext<Role>();
  const translate = useTranslate();
  const notify = useNotify();
  const [deleteOne, { isPending }] = useDelete();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  const run = () =>
    deleteOne(
      'roles',
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify('qe.success.deleted', { type: 'success' });
        },
        onError: (e) => {
          setOpen(false);
          notify((e as HttpError).message || 'qe.error.operationFailed', { type: 'error' });
        },
      },
    );
  return (
    <Box component="span" onClick={(e: MouseEvent) => e.stopPropagation()}>
      <Tooltip title={translate('qe.master.delete')}>
        <IconButton size="small" aria-label={`${translate('qe.master.delete')}: ${record.roleCode}`} onClick={() => setOpen(true)} data-testid="row-delete">
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Confirm
        isOpen={open}
        loading={isPending}
        title="qe.confirm.title"
        content={
          <>
            <Typography>{translate('qe.developer.role.deleteConfirm', { code: record.roleCode })}</Typography>
            {record.userCount > 0 && (
              <Typography sx={{ mt: 1, color: 'warning.main' }} data-testid="role-delete-users">
                {translate('qe.developer.role.usersLose', { smart_count: record.userCount })}
              </Typography>
            )}
          </>
        }
        confirm="qe.master.delete"
        confirmColor="warning"
        onConfirm={run}
        onClose={() => setOpen(false)}
      />
    </Box>
  );
}

function RowActions({ mayEdit, mayDelete }: { mayEdit: boolean; mayDelete: boolean }) {
  const record = useRecordContext<Role>();
  const navigate = useNavigate();
  const translate = useTranslate();
  if (!record) return null;
  const go = (screen: 'edit' | 'permission') => (e: MouseEvent) => {
    e.stopPropagation();
    navigate(rolePath(screen, record.id));
  };
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      <Tooltip title={translate('qe.developer.role.permissions')}>
        <IconButton size="small" aria-label={`${translate('qe.developer.role.permissions')}: ${record.roleCode}`} onClick={go('permission')} data-testid="row-permission">
          <SecurityIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {mayEdit && (
        <Tooltip title={translate('qe.master.edit')}>
          <IconButton size="small" aria-label={`${translate('qe.master.edit')}: ${record.roleCode}`} onClick={go('edit')} data-testid="row-edit">
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {mayDelete && <DeleteRoleButton />}
    </Box>
  );
}

/** roleList: every role of QE with its user type, code, names, remark and how many users hold it. */
export function RoleList() {
  const translate = useTranslate();
  const en = useLocale() === 'en';
  const mayEdit = useHolds('role', 'edit');
  const mayDelete = useHolds('role', 'delete');
  const userTypes = useUserTypeChoices();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('qe.master.search')} />,
    <SelectInput key="userType" source="userType" label={translate('qe.developer.role.userType')} choices={userTypes} translateChoice={false} emptyText="—" alwaysOn />,
  ];
  return (
    <List
      resource="roles"
      title={translate('qe.menu.roleList')}
      filters={filters}
      actions={<ListActions />}
      pagination={false}
      perPage={500}
      storeKey={false}
      empty={false}
      exporter={false}
      disableAuthentication
      sx={{ '& .RaList-main, & .RaList-content': { minWidth: 0 } }}
    >
      <ScrollRegion>
      <DataTable
        rowClick={(id) => rolePath('view', id)}
        bulkActionButtons={false}
        data-testid="list-roles"
        sx={{ '& .RaDataTable-headerCell': { whiteSpace: 'nowrap' } }}
      >
        <DataTable.Col source="userType" label={translate('qe.developer.role.userType')} disableSort render={(r: Role) => <Chip size="small" variant="outlined" label={translate(`qe.userType.${r.userType}`)} />} />
        <DataTable.Col source="roleCode" label={translate('qe.developer.role.roleCode')} disableSort />
        <DataTable.Col source={en ? 'nameEn' : 'nameHk'} label={translate('qe.developer.role.name')} disableSort />
        <DataTable.Col source={en ? 'nameHk' : 'nameEn'} label={translate(en ? 'qe.developer.role.nameHk' : 'qe.developer.role.nameEn')} disableSort />
        <DataTable.Col source="remark" label={translate('qe.developer.role.remark')} disableSort />
        <DataTable.Col source="userCount" label={translate('qe.developer.role.userCount')} disableSort render={(r: Role) => String(r.userCount)} />
        <DataTable.Col source="isDefault" label={translate('qe.developer.role.isDefault')} disableSort render={(r: Role) => (r.isDefault ? <Chip size="small" color="primary" label={translate('qe.developer.role.defaultYes')} data-testid="role-default" /> : null)} />
        <DataTable.Col label={translate('qe.master.actions')} disableSort>
          <RowActions mayEdit={mayEdit} mayDelete={mayDelete} />
        </DataTable.Col>
      </DataTable>
      </ScrollRegion>
    </List>
  );
}
