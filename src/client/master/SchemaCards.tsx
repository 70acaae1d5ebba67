import type { ReactNode } from 'react';
import { Chip } from '@mui/material';
import { RecordContextProvider, ReferenceField, useListContext, type RaRecord } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useNavigate } from 'react-router-dom';
import { propertyMeta, type MasterEntity } from '../../shared/master/entity';
import { ListCard, ListCards } from '../common/ListCard';
import { NoData } from '../common/NoData';
import { formatDate, ReferenceName } from './columns';
import { enumKey, useFieldLabel, useRecordName } from './labels';
import { RowActions } from './RowActions';
import { masterPath } from './paths';
import { kindOf } from './schema';
import { withSchoolYear } from './schoolYear';
import { Loading } from '../common/Loading';

/** The columns that name a record: its title on a card rather than a line. */
const NAMES = ['nameHk', 'nameEn', 'name'];

/**
 * A master list on a phone: one card per record — its name as the title, its enum values as
 * chips, every other column of meta.columns as a labelled line — the whole card opening the
 * record, in the school year the list shows.
 */
export function SchemaCards({ entity, mayEdit, mayDelete }: { entity: MasterEntity; mayEdit: boolean; mayDelete: boolean }) {
  const { meta } = entity;
  const { data, isPending, filterValues } = useListContext();
  const translate = useTranslate();
  const label = useFieldLabel(entity.key);
  const nameOf = useRecordName();
  const navigate = useNavigate();
  if (isPending) return <Loading />;
  if (!data?.length) return <NoData />;
  const shown = meta.columns.filter((name) => !NAMES.includes(name));
  const line = (name: string, value: ReactNode): ReactNode => {
    if (value === '' || value == null) return null;
    if (typeof value === 'string') return translate('qe.common.line', { label: label(name), value });
    // a referenced record's name arrives once fetched: the label before it
    return (
      <>
        {translate('qe.common.line', { label: label(name), value: '' })}
        {value}
      </>
    );
  };
  const valueOf = (record: RaRecord, name: string): ReactNode => {
    const prop = entity.schema.properties[name];
    const value = record[name];
    switch (kindOf(prop)) {
      case 'date':
        return formatDate(value);
      case 'reference': {
        const reference = propertyMeta(prop).reference!;
        return value == null ? null : (
          <RecordContextProvider value={record}>
            <ReferenceField source={name} reference={reference.resource} link={false} emptyText="">
              <ReferenceName label={reference.label} />
            </ReferenceField>
          </RecordContextProvider>
        );
      }
      case 'boolean':
        return value == null ? null : translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
      case 'links':
        return Array.isArray(value) ? String(value.length) : null;
      default:
        return value == null ? null : String(value);
    }
  };
  return (
    <ListCards testId={`cards-${meta.resource}`}>
      {data.map((record) => (
        <ListCard
          key={record.id}
          id={record.id}
          testId="master-card"
          title={nameOf(record) || String(record.code ?? record.id)}
          onOpen={() => navigate(withSchoolYear(masterPath(meta.route, 'view', record.id), filterValues.schoolYearId))}
          chips={shown
            .filter((name) => kindOf(entity.schema.properties[name]) === 'enum' && record[name] != null && record[name] !== '')
            .map((name) => (
              <Chip key={name} size="small" variant="outlined" label={translate(enumKey(entity.key, name, record[name]))} />
            ))}
          lines={shown.filter((name) => kindOf(entity.schema.properties[name]) !== 'enum').map((name) => line(name, valueOf(record, name)))}
          actions={
            mayEdit || mayDelete ? (
              <RecordContextProvider value={record}>
                <RowActions entity={entity} mayEdit={mayEdit} mayDelete={mayDelete} />
              </RecordContextProvider>
            ) : undefined
          }
        />
      ))}
    </ListCards>
  );
}
