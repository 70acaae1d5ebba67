import { useCallback } from 'react';
import { useLocale, type RaRecord } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { composedKey } from '../../shared/i18n/keys';
import type { MessageKey } from '../../shared/i18n/keys';

/**
 * The message keys of an entity's fields and enum values. They are built from the schema,
 * so tests/client/master/labels.test.ts walks every entity to prove each one exists in both
 * message files.
 *
 * A field's label is `qe.fields.{entity}.{property}`, or the shared `qe.fields.common.{property}`
 * when the entity has no wording of its own; a child row's field (a term of a school year) is
 * `qe.fields.{entity}.{property}Item.{field}`, or the shared one.
 */
export const fieldKey = (entityKey: string, property: string) => composedKey(`qe.fields.${entityKey}.${property}`);
export const childFieldKey = (entityKey: string, property: string, field: string) => composedKey(`qe.fields.${entityKey}.${property}Item.${field}`);
export const commonFieldKey = (property: string) => composedKey(`qe.fields.common.${property}`);
export const enumKey = (entityKey: string, property: string, value: string | number) => composedKey(`qe.enums.${entityKey}.${property}.${value}`);

/** The keys a label may come from, the first that exists wins. */
export function labelKeys(entityKey: string, property: string, child?: string): MessageKey[] {
  return child === undefined ? [fieldKey(entityKey, property), commonFieldKey(property)] : [childFieldKey(entityKey, property, child), commonFieldKey(child)];
}

/** (property, child?) → the field's label in the current language. */
export function useFieldLabel(entityKey: string) {
  const translate = useTranslate();
  return useCallback(
    (property: string, child?: string) => {
      const [own, common] = labelKeys(entityKey, property, child);
      return translate(own, { _: translate(common, { _: child ?? property }) });
    },
    [translate, entityKey],
  );
}

/** The name of a record with two names (nameHk / nameEn) in the current language (docs/conventions.md#naming). */
export function recordName(record: RaRecord | undefined | null, locale: string, label?: string): string {
  if (!record) return '';
  const hk = record.nameHk as string | undefined;
  const en = record.nameEn as string | undefined;
  if (hk !== undefined || en !== undefined) return (locale === 'en' ? en || hk : hk || en) ?? '';
  const value = label ? record[label] : (record.name ?? record.code ?? record.id);
  return value == null ? '' : String(value);
}

export function useRecordName() {
  const locale = useLocale();
  return useCallback((record: RaRecord | undefined | null, label?: string) => recordName(record, locale, label), [locale]);
}
