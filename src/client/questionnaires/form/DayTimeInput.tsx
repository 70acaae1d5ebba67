import type { ReactNode } from 'react';
import type { SxProps, Theme } from '@mui/material';
import { FieldTitle, InputHelperText, useInput, type Validator } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { DateTimeText, isDateTimeText } from '../../common/DateTimeText';
import { formatDateTime } from '../../common/schoolClock';

/** A timestamp as the server sends it; a typed text never has the T (DateTimeText makes it a space). */
const isIso = (value: string) => /^\d{4}-\d{2}-\d{2}T/.test(value);

/** A date-time typed but not (yet) a whole, real yyyy-MM-dd HH:mm. */
export const dayTimeFormat = (value: unknown) => (typeof value === 'string' && value !== '' && !isIso(value) && !isDateTimeText('datetime', value) ? 'qe.common.dateTimeFormat' : undefined);

export interface DayTimeInputProps {
  source: string;
  label?: ReactNode;
  disabled?: boolean;
  helperText?: ReactNode;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
  validate?: Validator | Validator[];
}

/**
 * A react-admin input of a date-time (a questionnaire's open and end dates): the form holds the
 * server's ISO timestamp, shown as yyyy-MM-dd HH:mm on the school's clock, or the text typed once
 * changed (toIso reads it on the school's clock, not the browser's). The input element keeps the source as its name (the browser tests find it so).
 */
export function DayTimeInput({ source, label, disabled, helperText, fullWidth, sx, validate = [] }: DayTimeInputProps) {
  const { trigger } = useFormContext();
  const { id, field, fieldState, isRequired } = useInput({
    source,
    disabled,
    validate: [dayTimeFormat, ...[validate].flat()],
    format: (value: unknown) => (typeof value === 'string' ? value : ''),
    parse: (text: string) => (text === '' ? null : text),
  });
  const value = field.value as string;
  const { invalid, error } = fieldState;
  return (
    <DateTimeText
      kind="datetime"
      id={id}
      name={field.name}
      inputRef={field.ref}
      className={`ra-input ra-input-${source}`}
      value={isIso(value) ? formatDateTime(value) : value}
      onChange={(next) => {
        field.onChange(next);
        // a shown error goes as soon as it is mended (a time from the picker comes without a blur)
        if (invalid) void trigger(field.name);
      }}
      onBlur={field.onBlur}
      label={label === '' || label === false ? undefined : <FieldTitle label={label} source={source} isRequired={isRequired} />}
      error={invalid}
      helperText={helperText !== false || invalid ? <InputHelperText error={error?.message} helperText={helperText} /> : undefined}
      disabled={disabled}
      fullWidth={fullWidth}
      sx={sx}
    />
  );
}
