import { Fragment, useMemo, type ReactNode } from 'react';
import { Card, CardContent } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SimpleForm, Title, Toolbar, useLocale, useNotify, type HttpError } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import type { MasterEntity } from '../../shared/master/entity';
import { request } from '../providers/http';
import { useMayDo } from './access';
import { SchemaInput } from './inputs';
import { requiredFields } from './SchemaScreen';
import { defaultValues, formProperties, toPayload, type FormMode } from './schema';
import { schemaResolver } from './validation';
import { useRequiredLanguages } from '../auth/useSchoolInfo';
import { composedKey } from '../../shared/i18n/keys';
import { QeSaveButton } from '../common/QeSaveButton';
import { Loading } from '../common/Loading';

type Values = Record<string, unknown>;

/** The query key of a single entity's record (tests and other screens may read or refresh it). */
export const singleQueryKey = (resource: string) => [resource, 'single'];

/**
 * An entity with one record only (meta.single, the mail setting): GET /v1/{resource} answers
 * the record or null, PUT /v1/{resource} saves it. Without `.edit` the form is read-only.
 */
export function SingleScreen({
  entity,
  helperTexts = {},
  afterInput = {},
  children,
}: {
  entity: MasterEntity;
  helperTexts?: Record<string, string>;
  /** shown inside the form right after a property's input (it may watch the form's values) */
  afterInput?: Record<string, ReactNode>;
  children?: (saved: Values | null, mayEdit: boolean) => ReactNode;
}) {
  const { meta } = entity;
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const path = `/v1/${meta.resource}`;
  const key = singleQueryKey(meta.resource);
  const { data: record, isPending, isError } = useQuery({ queryKey: key, queryFn: () => request<Values | null>(path) });
  const mayEdit = useMayDo(meta, 'edit');
  const exists = record != null;
  const mode: FormMode = !mayEdit ? 'view' : exists ? 'edit' : 'add';
  // the server validates every save of a single record with the create schema (its one PUT
  // creates or replaces it), so the form does too; a blank secret is left out and kept
  const languages = useRequiredLanguages();
  const resolver = useMemo(() => (mode === 'view' ? undefined : schemaResolver(entity, 'add', lang, languages)), [entity, mode, lang, languages]);
  const initial = useMemo(() => record ?? defaultValues(entity.create), [record, entity]);
  const required = requiredFields(entity, mode, languages);

  const save = async (values: Values) => {
    try {
      const body = toPayload(entity, 'add', values);
      const saved = await request<Values | null>(path, { method: 'PUT', body, ignoreErr: true });
      const shown = Object.fromEntries(Object.entries(body).filter(([name]) => !entity.schema.properties[name]?.writeOnly));
      queryClient.setQueryData(key, saved ?? { ...record, ...shown });
      notify('qe.master.mail.saved', { type: 'success' });
    } catch (e) {
      const error = e as HttpError;
      const fieldErrors = (error.body as { errors?: Record<string, string> } | undefined)?.errors;
      if (fieldErrors && typeof fieldErrors === 'object') return fieldErrors;
      notify(error.message || 'qe.error.operationFailed', { type: 'error' });
    }
  };

  return (
    <>
      <Title title={translate(composedKey(`qe.menu.${meta.name}`))} />
      <Card sx={{ mt: 2 }} data-testid={`single-${meta.resource}`}>
        {isPending ? (
          <Loading />
        ) : isError ? (
          <CardContent>{translate('qe.error.tryLater')}</CardContent>
        ) : (
          <SimpleForm
            record={initial}
            onSubmit={save}
            resolver={resolver}
            mode="onBlur"
            warnWhenUnsavedChanges={mode !== 'view'}
            toolbar={mode === 'view' ? false : <Toolbar><QeSaveButton data-testid="master-save" /></Toolbar>}
            sx={{ maxWidth: 760 }}
          >
            {formProperties(entity, mode).map((name) => (
              <Fragment key={name}>
                <SchemaInput entityKey={entity.key} name={name} prop={entity.schema.properties[name]} mode={mode} required={required.has(name)} helperText={helperTexts[name]} />
                {afterInput[name]}
              </Fragment>
            ))}
          </SimpleForm>
        )}
      </Card>
      {!isPending && !isError && children?.(record ?? null, mayEdit)}
    </>
  );
}
