import type { ReactElement } from 'react';
import { Chip } from '@mui/material';
import { BooleanField, DataTable, ReferenceField, useRecordContext, type RaRecord } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { propertyMeta, type MasterEntity, type PropertySchema } from '../../shared/master/entity';
import { enumKey, useRecordName } from './labels';
import { isSortable, kindOf } from './schema';
import { formatDay } from '../common/schoolClock';

/** yyyy-MM-dd (docs/conventions.md#dates-and-times) of a day or, on the school's clock, of a timestamp as the server sends it. */
export function formatDate(value: unknown): string {
  if (value == null || value === '') return '';
  const text = String(value);
  // a day (or a day with a time of no zone) as it is; a timestamp on the school's clock
  return /^\d{4}-\d{2}-\d{2}(?!T)/.test(text) ? text.slice(0, 10) : formatDay(text);
}

/** An enum value as a chip with its translated label. */
function EnumChip({ entityKey, name }: { entityKey: string; name: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const value = record?.[name];
  if (value == null || value === '') return null;
  return <Chip size="small" label={translate(enumKey(entityKey, name, value))} variant="outlined" />;
}

/** The referenced record's name in the current language (inside a ReferenceField). */
export function ReferenceName({ label }: { label: string }) {
  const record = useRecordContext();
  const nameOf = useRecordName();
  return <>{nameOf(record, label)}</>;
}

/**
 * The list column of a property, chosen by its type (docs/architecture.md#master-data-from-schemas): a date as yyyy-MM-dd, an
 * enum as a translated chip, a reference by the other record's name, counts as numbers.
 * A DataTable.Col element itself (not a component around one), as DataTable reads its props.
 */
export function column(entity: MasterEntity, name: string, label: string): ReactElement {
  const prop: PropertySchema = entity.schema.properties[name];
  // the key written out, not spread: React warns of a key inside spread props
  const common = { source: name, label, disableSort: !isSortable(prop) };
  const meta = propertyMeta(prop);
  switch (kindOf(prop)) {
    case 'date':
      return <DataTable.Col key={name} {...common} render={(r: RaRecord) => formatDate(r[name])} />;
    case 'enum':
      return (
        <DataTable.Col key={name} {...common}>
          <EnumChip entityKey={entity.key} name={name} />
        </DataTable.Col>
      );
    case 'reference':
      return (
        <DataTable.Col key={name} {...common}>
          <ReferenceField source={name} reference={meta.reference!.resource} link={false} emptyText="">
            <ReferenceName label={meta.reference!.label} />
          </ReferenceField>
        </DataTable.Col>
      );
    case 'boolean':
      return (
        <DataTable.Col key={name} {...common}>
          <BooleanField source={name} />
        </DataTable.Col>
      );
    case 'number':
      return <DataTable.Col key={name} {...common} render={(r: RaRecord) => (r[name] == null ? '' : String(r[name]))} />;
    case 'links':
      return <DataTable.Col key={name} {...common} render={(r: RaRecord) => (Array.isArray(r[name]) ? String(r[name].length) : '')} />;
    default:
      return <DataTable.Col key={name} {...common} />;
  }
}
