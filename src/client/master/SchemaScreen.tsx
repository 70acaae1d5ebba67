import { useMemo } from 'react';
import { Box } from '@mui/material';
import EditIcon from '@mui/icons-material/EditOutlined';
import ListIcon from '@mui/icons-material/List';
import { Button, Create, Edit, Show, SimpleForm, Toolbar, TopToolbar, useLocale, useNotify, useRecordContext } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { missingNames, type MasterEntity } from '../../shared/master/entity';
import { AssignRolesButton } from '../developer/AssignRolesButton';
import { ClearGoogleButton } from '../google/ClearGoogleButton';
import { useMayDo } from './access';
import { SchemaInput } from './inputs';
import { ResetPasswordButton } from './ResetPasswordButton';
import { masterPath } from './paths';
import { defaultValues, formProperties, toPayload, type FormMode } from './schema';
import { schemaResolver } from './validation';
import { useRequiredLanguages } from '../auth/useSchoolInfo';
import { RecordNotFound } from '../common/RecordNotFound';
import { refreshSchoolYears } from '../common/useSchoolYears';
import { isYearly, ScreenSchoolYear, withSchoolYear } from './schoolYear';
import { composedKey } from '../../shared/i18n/keys';
import { QeSaveButton } from '../common/QeSaveButton';
import { LinkedSignIns } from '../sign-in/LinkedSignIns';

export type ScreenType = 'view' | 'add' | 'edit';

/** The fields required in a form: the create schema's, except secrets on edit (they are left alone there). */
export function requiredFields(entity: MasterEntity, mode: FormMode, requiredLanguages: readonly string[] = ['zh-hk', 'en']): Set<string> {
  const required = [...(entity.create.required ?? []), ...missingNames(entity.schema, {}, requiredLanguages)];
  return new Set(mode === 'add' ? required : required.filter((name) => !entity.schema.properties[name]?.writeOnly));
}

function FormToolbar({ entity, mode }: { entity: MasterEntity; mode: 'add' | 'edit' }) {
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <QeSaveButton data-testid="master-save" />
      {mode === 'edit' && entity.meta.account && (
        <Box sx={{ display: 'flex', gap: 1 }}>
          <AssignRolesButton />
          <ResetPasswordButton meta={entity.meta} />
        </Box>
      )}
    </Toolbar>
  );
}

/**
 * The form of an entity, composed from its schema: one input per property, chosen by its type
 * (inputs.tsx); validated by the schema's own rules (validation.ts) with "required" on blur;
 * read-only (disabled) for view, which also shows the computed values.
 */
export function SchemaForm({ entity, mode }: { entity: MasterEntity; mode: FormMode }) {
  const lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const languages = useRequiredLanguages();
  const resolver = useMemo(() => (mode === 'view' ? undefined : schemaResolver(entity, mode, lang, languages)), [entity, mode, lang, languages]);
  const defaults = useMemo(() => (mode === 'add' ? defaultValues(entity.create) : undefined), [entity, mode]);
  const required = requiredFields(entity, mode, languages);
  return (
    <SimpleForm
      resolver={resolver}
      mode="onBlur"
      defaultValues={defaults}
      warnWhenUnsavedChanges={mode !== 'view'}
      toolbar={mode === 'view' ? false : <FormToolbar entity={entity} mode={mode} />}
      data-testid={`form-${entity.meta.resource}`}
      sx={{ maxWidth: 760 }}
    >
      {formProperties(entity, mode).map((name) => (
        <SchemaInput key={name} entityKey={entity.key} name={name} prop={entity.schema.properties[name]} mode={mode} required={required.has(name)} />
      ))}
    </SimpleForm>
  );
}

function BackToList({ entity }: { entity: MasterEntity }) {
  const navigate = useNavigate();
  return (
    <Button label="qe.master.backToList" onClick={() => navigate(masterPath(entity.meta.route, 'list'))}>
      <ListIcon />
    </Button>
  );
}

/** The screen's top bar: back to the list, and the school year of an entity with per-year values. */
function ScreenActions({ entity }: { entity: MasterEntity }) {
  return (
    <TopToolbar sx={{ alignItems: 'center' }}>
      <BackToList entity={entity} />
      {isYearly(entity) && <ScreenSchoolYear />}
    </TopToolbar>
  );
}

function ViewActions({ entity }: { entity: MasterEntity }) {
  const record = useRecordContext();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const mayEdit = useMayDo(entity.meta, 'edit');
  return (
    <TopToolbar sx={{ alignItems: 'center' }}>
      <BackToList entity={entity} />
      {isYearly(entity) && <ScreenSchoolYear />}
      {entity.meta.account && <AssignRolesButton />}
      {entity.meta.account && <ClearGoogleButton />}
      {mayEdit && record && (
        <Button label="qe.master.edit" onClick={() => navigate(withSchoolYear(masterPath(entity.meta.route, 'edit', record.id), params.get('schoolYearId')))} data-testid="master-edit">
          <EditIcon />
        </Button>
      )}
    </TopToolbar>
  );
}


/**
 * View, add and edit of a master entity: one screen told apart by `type` (docs/product-rules.md#screens-and-routes), the record's
 * id in the `?id=` query parameter. Edit is pessimistic, so the server's 422 field errors land
 * on their fields; after a save the list opens with a success message. An account's view and edit
 * list its linked sign-ins below the form (sign-in/LinkedSignIns.tsx).
 */
export function SchemaScreen({ entity, type }: { entity: MasterEntity; type: ScreenType }) {
  const { meta } = entity;
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const title = translate(composedKey(`qe.menu.${meta.name}`));
  const listPath = masterPath(meta.route, 'list');
  const onLoadError = () => {
    notify('qe.error.recordNotFound', { type: 'error' });
    navigate(listPath);
  };
  const queryClient = useQueryClient();
  // the year whose per-year values (a student's class and number) the screen reads and saves
  const yearMeta = { schoolYearId: params.get('schoolYearId') ?? undefined };
  const mutationOptions = {
    meta: yearMeta,
    // every screen's school-year choices come from the user's info: a year added or changed shows at once
    onSettled: meta.resource === 'school-years' ? () => void refreshSchoolYears(queryClient) : undefined,
  };

  if (type === 'add') {
    return (
      <Create
        resource={meta.resource}
        title={title}
        redirect={listPath}
        transform={(data: Record<string, unknown>) => toPayload(entity, 'add', data)}
        mutationOptions={mutationOptions}
        actions={<ScreenActions entity={entity} />}
        disableAuthentication
      >
        <SchemaForm entity={entity} mode="add" />
      </Create>
    );
  }
  if (!id) return <RecordNotFound title={title} />;
  if (type === 'edit') {
    return (
      <Edit
        resource={meta.resource}
        id={id}
        title={title}
        mutationMode="pessimistic"
        redirect={listPath}
        transform={(data: Record<string, unknown>) => toPayload(entity, 'edit', data)}
        queryOptions={{ onError: onLoadError, meta: yearMeta }}
        mutationOptions={mutationOptions}
        actions={<ScreenActions entity={entity} />}
        disableAuthentication
      >
        <SchemaForm entity={entity} mode="edit" />
        {/* an account's links to the school's identity providers, beside what its schema describes */}
        {meta.account && <LinkedSignIns meta={meta} />}
      </Edit>
    );
  }
  return (
    <Show resource={meta.resource} id={id} title={title} queryOptions={{ onError: onLoadError, meta: yearMeta }} actions={<ViewActions entity={entity} />} disableAuthentication>
      <Box data-testid={`view-${meta.resource}`}>
        <SchemaForm entity={entity} mode="view" />
      </Box>
      {meta.account && <LinkedSignIns meta={meta} />}
    </Show>
  );
}
