import { ArrayInput, AutocompleteArrayInput, AutocompleteInput, BooleanInput, NumberInput, PasswordInput, ReferenceArrayInput, ReferenceInput, SelectInput, SimpleFormIterator, TextInput } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { filterFor } from '../../shared/input-filters';
import { DayInput } from './DayInput';
import { propertyMeta, type PropertySchema } from '../../shared/master/entity';
import { useInputFilter } from './inputFilter';
import { enumKey, useFieldLabel, useRecordName } from './labels';
import { itemSchema, kindOf, type FormMode } from './schema';

export interface SchemaInputProps {
  entityKey: string;
  /** the property; inside a child row, the row's field */
  name: string;
  prop: PropertySchema;
  mode: FormMode;
  required?: boolean;
  /** the `children` property this input is a row field of */
  parent?: string;
  helperText?: string;
}

/** The translated choices of an enum property. */
export function useEnumChoices(entityKey: string, name: string, prop: PropertySchema) {
  const translate = useTranslate();
  // a null in the enum (an optional choice: gender) is the empty choice, not an option of its own
  return (prop.enum ?? []).filter((value) => value !== null).map((value) => ({ id: value, name: translate(enumKey(entityKey, name, value)) }));
}

/**
 * A reference (a teacher's position, a student's class): pick one record, named in the current language.
 * Its choices open on a click or tap anywhere on the field (or ArrowDown), not on focus: react-admin
 * focuses a filter it has just added, and a list opened by that focus was shut again by the user's
 * first tap (a tap toggles it).
 */
export function ReferencePicker({ source, prop, label, disabled, required, alwaysOn }: { source: string; prop: PropertySchema; label: string; disabled?: boolean; required?: boolean; alwaysOn?: boolean }) {
  const reference = propertyMeta(prop).reference!;
  const nameOf = useRecordName();
  return (
    <ReferenceInput source={source} reference={reference.resource} alwaysOn={alwaysOn}>
      <AutocompleteInput label={label} optionText={(r) => nameOf(r, reference.label)} disabled={disabled} isRequired={required} filterToQuery={(q) => ({ q })} openOnFocus={false} />
    </ReferenceInput>
  );
}

/** Many-to-many ids (a teacher group's members): a searchable picker that shows how many are chosen. */
function LinksInput({ source, prop, label, disabled }: { source: string; prop: PropertySchema; label: string; disabled?: boolean }) {
  const links = propertyMeta(prop).links!;
  const translate = useTranslate();
  const nameOf = useRecordName();
  const value = useWatch({ name: source });
  const count = Array.isArray(value) ? value.length : 0;
  return (
    <ReferenceArrayInput source={source} reference={links.resource} perPage={50}>
      <AutocompleteArrayInput
        label={label}
        optionText={(r) => (r.code ? `${nameOf(r, links.label)} (${r.code})` : nameOf(r, links.label))}
        filterToQuery={(q) => ({ q })}
        helperText={translate('qe.master.selectedCount', { smart_count: count })}
        disabled={disabled}
        data-testid={`input-${source}`}
      />
    </ReferenceArrayInput>
  );
}

/** One-to-many rows edited in place (a school year's terms, a grade's classes). */
function ChildrenInput({ entityKey, name, prop, mode, label }: { entityKey: string; name: string; prop: PropertySchema; mode: FormMode; label: string }) {
  const items = itemSchema(prop);
  if (!items) return null;
  const view = mode === 'view';
  return (
    <ArrayInput source={name} label={label}>
      <SimpleFormIterator inline disabled={view} disableAdd={view} disableRemove={view} disableReordering disableClear>
        {Object.entries(items.properties)
          .filter(([child]) => child !== 'id')
          .map(([child, p]) => (
            <SchemaInput key={child} entityKey={entityKey} name={child} prop={p} mode={mode} parent={name} required={items.required?.includes(child)} />
          ))}
      </SimpleFormIterator>
    </ArrayInput>
  );
}

/** The input a property's schema calls for (docs/architecture.md#master-data-from-schemas): its type, format, enum and `x-qe` pick it. */
export function SchemaInput({ entityKey, name, prop, mode, required, parent, helperText }: SchemaInputProps) {
  const fieldLabel = useFieldLabel(entityKey);
  const translate = useTranslate();
  const choices = useEnumChoices(parent ? `${entityKey}.${parent}Item` : entityKey, name, prop);
  const label = parent ? fieldLabel(parent, name) : fieldLabel(name);
  const disabled = mode === 'view';
  // docs/product-rules.md#input-filters: what the property's schema does not allow is stripped as it is typed (none for names, addresses)
  const filter = useMemo(() => filterFor(prop), [prop]);
  const filtered = useInputFilter(disabled ? null : filter);
  const htmlInput = { slotProps: { htmlInput: filtered } };
  const common = { source: name, label, disabled, isRequired: required && !disabled, helperText, defaultValue: parent ? prop.default : undefined };
  switch (kindOf(prop)) {
    case 'password':
      return (
        <PasswordInput
          {...common}
          {...htmlInput}
          autoComplete="new-password"
          helperText={helperText ?? (mode === 'edit' ? translate(name === 'password' ? 'qe.master.password.keep' : 'qe.personalData.keepNumber') : undefined)}
        />
      );
    case 'reference':
      return <ReferencePicker source={name} prop={prop} label={label} disabled={disabled} required={required} />;
    case 'links':
      return <LinksInput source={name} prop={prop} label={label} disabled={disabled} />;
    case 'children':
      return <ChildrenInput entityKey={entityKey} name={name} prop={prop} mode={mode} label={label} />;
    case 'enum':
      return <SelectInput {...common} choices={choices} translateChoice={false} emptyText={required ? undefined : '—'} parse={(v: unknown) => (v === '' ? null : v)} />;
    case 'date':
      return <DayInput {...common} />;
    case 'number':
      return <NumberInput {...common} {...htmlInput} step={1} min={prop.minimum} max={prop.maximum} />;
    case 'boolean':
      return <BooleanInput source={name} label={label} disabled={disabled} helperText={helperText} />;
    case 'multiline':
      return <TextInput {...common} multiline minRows={4} />;
    default:
      return <TextInput {...common} {...htmlInput} />;
  }
}
