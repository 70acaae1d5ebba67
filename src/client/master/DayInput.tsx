import type { ReactNode } from 'react';
import { FieldTitle, InputHelperText, useInput, type Validator } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { DateTimeText, isDateTimeText } from '../common/DateTimeText';

/** A day typed but not (yet) a whole, real yyyy-MM-dd. */
export const dayFormat = (value: unknown) => (typeof value === 'string' && value !== '' && !isDateTimeText('date', value) ? 'qe.common.dateFormat' : undefined);

export interface DayInputProps {
  source: string;
  label?: ReactNode;
  disabled?: boolean;
  isRequired?: boolean;
  helperText?: ReactNode;
  defaultValue?: unknown;
  validate?: Validator | Validator[];
}

/**
 * A react-admin input of a day (a property of format "date"): the text yyyy-MM-dd in the form,
 * null when empty, typed as our format or chosen in the browser's picker (DateTimeText).
 */
export function DayInput({ source, label, disabled, isRequired, helperText, defaultValue, validate = [] }: DayInputProps) {
  const { trigger } = useFormContext();
  const { id, field, fieldState, isRequired: required } = useInput({
    source,
    defaultValue,
    disabled,
    isRequired,
    validate: [dayFormat, ...[validate].flat()],
    format: (value: unknown) => (typeof value === 'string' ? value : ''),
    parse: (text: string) => (text === '' ? null : text),
  });
  const text = field.value as string;
  const { invalid, error } = fieldState;
  // a form's resolver replaces the inputs' rules (the master forms' schema says only "wrong format"): say which
  const message = invalid && dayFormat(text) ? 'qe.common.dateFormat' : error?.message;
  return (
    <DateTimeText
      kind="date"
      id={id}
      name={field.name}
      inputRef={field.ref}
      className={`ra-input ra-input-${source}`}
      value={text}
      onChange={(next) => {
        field.onChange(next);
        // a shown error goes as soon as it is mended (a day from the picker comes without a blur)
        if (invalid) void trigger(field.name);
      }}
      onBlur={field.onBlur}
      label={label === '' || label === false ? undefined : <FieldTitle label={label} source={source} isRequired={required} />}
      error={invalid}
      helperText={helperText !== false || invalid ? <InputHelperText error={message} helperText={helperText} /> : undefined}
      disabled={disabled}
    />
  );
}
