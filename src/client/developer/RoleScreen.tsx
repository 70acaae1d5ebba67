import { Box } from '@mui/material';
import EditIcon from '@mui/icons-material/EditOutlined';
import ListIcon from '@mui/icons-material/List';
import SecurityIcon from '@mui/icons-material/Security';
import { BooleanInput, Button, Create, Edit, SelectInput, Show, SimpleForm, TextInput, Toolbar, TopToolbar, maxLength, regex, required, useNotify, useRecordContext } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useHolds } from '../master/access';
import { rolePayload, type Role } from './api';
import { ROLE_LIST, rolePath } from './paths';
import { useUserTypeChoices } from './RoleList';
import { RoleUsers } from './RoleUsers';
import { RecordNotFound } from '../common/RecordNotFound';
import { QeSaveButton } from '../common/QeSaveButton';

export type RoleScreenType = 'view' | 'add' | 'edit';

const ROLE_CODE = /^[A-Za-z0-9_-]+$/;

function RoleForm({ mode }: { mode: RoleScreenType }) {
  const translate = useTranslate();
  const userTypes = useUserTypeChoices();
  const view = mode === 'view';
  const req = view ? [] : [required()];
  return (
    <SimpleForm
      mode="onBlur"
      warnWhenUnsavedChanges={!view}
      toolbar={view ? false : <Toolbar><QeSaveButton data-testid="role-save" /></Toolbar>}
      defaultValues={mode === 'add' ? { userType: 'TEACHER' } : undefined}
      sx={{ maxWidth: 760 }}
      data-testid="form-role"
    >
      <SelectInput source="userType" label={translate('qe.developer.role.userType')} choices={userTypes} translateChoice={false} validate={req} disabled={view} />
      <TextInput source="roleCode" label={translate('qe.developer.role.roleCode')} validate={[...req, maxLength(50), regex(ROLE_CODE, 'qe.developer.form.roleCodePattern')]} disabled={view} />
      <TextInput source="nameHk" label={translate('qe.developer.role.nameHk')} validate={[...req, maxLength(100)]} disabled={view} />
      <TextInput source="nameEn" label={translate('qe.developer.role.nameEn')} validate={[...req, maxLength(100)]} disabled={view} />
      <TextInput source="remark" label={translate('qe.developer.role.remark')} validate={maxLength(500)} multiline minRows={2} disabled={view} />
      <BooleanInput source="isDefault" label={translate('qe.developer.role.isDefault')} helperText={translate('qe.developer.role.isDefaultHelp')} disabled={view} />
    </SimpleForm>
  );
}

function BackToList() {
  const navigate = useNavigate();
  return (
    <Button label="qe.master.backToList" onClick={() => navigate(ROLE_LIST)}>
      <ListIcon />
    </Button>
  );
}

function RoleActions({ mode }: { mode: RoleScreenType }) {
  const record = useRecordContext<Role>();
  const navigate = useNavigate();
  const mayEdit = useHolds('role', 'edit');
  return (
    <TopToolbar>
      <BackToList />
      {record && (
        <Button label="qe.developer.role.permissions" onClick={() => navigate(rolePath('permission', record.id))} data-testid="role-permissions">
          <SecurityIcon />
        </Button>
      )}
      {mode === 'view' && mayEdit && record && (
        <Button label="qe.master.edit" onClick={() => navigate(rolePath('edit', record.id))} data-testid="role-edit">
          <EditIcon />
        </Button>
      )}
    </TopToolbar>
  );
}

/** The role's holders, under its form (view and edit). */
function Holders() {
  const record = useRecordContext<Role>();
  if (!record) return null;
  return <RoleUsers role={record} />;
}

/**
 * roleView, roleAdd and roleEdit: one screen told apart by `type`, the role's id in `?id=`.
 * View and edit show the role's users, who can be added and removed there (role.assign-roles).
 */
export function RoleScreen({ type }: { type: RoleScreenType }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const title = translate(`qe.menu.${type === 'view' ? 'roleView' : type === 'add' ? 'roleAdd' : 'roleEdit'}`);
  const onLoadError = () => {
    notify('qe.error.recordNotFound', { type: 'error' });
    navigate(ROLE_LIST);
  };
  const transform = (data: Record<string, unknown>) => rolePayload(data);

  if (type === 'add') {
    return (
      <Create resource="roles" title={title} redirect={(_r?: string, newId?: unknown) => (newId ? rolePath('view', newId) : ROLE_LIST)} transform={transform} actions={<TopToolbar><BackToList /></TopToolbar>} disableAuthentication>
        <RoleForm mode="add" />
      </Create>
    );
  }
  if (!id) {
    return <RecordNotFound title={title} />;
  }
  if (type === 'edit') {
    return (
      <Edit resource="roles" id={id} title={title} mutationMode="pessimistic" redirect={() => rolePath('view', id)} transform={transform} queryOptions={{ onError: onLoadError }} actions={<RoleActions mode="edit" />} disableAuthentication>
        <RoleForm mode="edit" />
        <Holders />
      </Edit>
    );
  }
  return (
    <Show resource="roles" id={id} title={title} queryOptions={{ onError: onLoadError }} actions={<RoleActions mode="view" />} disableAuthentication>
      <Box data-testid="view-role">
        <RoleForm mode="view" />
      </Box>
      <Holders />
    </Show>
  );
}
