import { useRef, type CSSProperties, type FocusEventHandler, type ReactNode, type Ref } from 'react';
import { IconButton, InputAdornment, TextField, type SxProps, type Theme } from '@mui/material';
import { useForkRef } from '@mui/material/utils';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { useTranslate } from '../i18n/translate';
import { isDate, isTime } from '../../shared/questionnaire/answers';

/** The one way of writing dates and times (docs/conventions.md#dates-and-times): yyyy-MM-dd, 24-hour HH:mm. */
export type DateTimeKind = 'date' | 'time' | 'datetime';

export const DATE_TIME_FORMATS: Record<DateTimeKind, string> = { date: 'yyyy-MM-dd', time: 'HH:mm', datetime: 'yyyy-MM-dd HH:mm' };

/** The format as a reader of the screen's language writes it (年-月-日 in zh-hk); what is typed is the same digits either way. */
const HINTS = { date: 'qe.common.dateHint', time: 'qe.common.timeHint', datetime: 'qe.common.dateTimeHint' } as const;

const NATIVE_TYPES: Record<DateTimeKind, string> = { date: 'date', time: 'time', datetime: 'datetime-local' };

/**
 * What the field keeps of what was typed (or pasted, or given by the native picker): the picker's
 * `T` as a space, only digits, `-`, `:` and spaces, at most the format's length; digits alone get
 * the format's separators as they come (2026112 → 2026-11-2), for phones' digits-only keypads.
 */
export function dateTimeText(kind: DateTimeKind, typed: string): string {
  const format = DATE_TIME_FORMATS[kind];
  const text = typed
    .replace(/T/g, ' ')
    .replace(/[^\d\-: ]/g, '')
    .trimStart()
    .slice(0, format.length);
  if (!/^\d+$/.test(text)) return text;
  // digits only (a phone's numeric keypad has no - or :): the separators go in as the digits come
  const digits = text.slice(0, format.replace(/[^yMdHm]/g, '').length);
  let out = '';
  let i = 0;
  for (const c of format) {
    if (i >= digits.length) break;
    out += /[yMdHm]/.test(c) ? digits[i++] : c;
  }
  return out;
}

/** Whether the text is complete in the kind's format and a real day / time of day (no 2026-02-30, no 24:00). */
export function isDateTimeText(kind: DateTimeKind, text: string): boolean {
  if (kind === 'date') return isDate(text);
  if (kind === 'time') return isTime(text);
  const [day, time, ...rest] = text.split(' ');
  return rest.length === 0 && isDate(day) && time !== undefined && isTime(time);
}

/** Rendered, not display:none (showPicker() throws on an element that is not rendered), yet unseen. */
const HIDDEN: CSSProperties = { position: 'absolute', right: 0, bottom: 0, width: 1, height: 1, padding: 0, border: 0, opacity: 0, pointerEvents: 'none' };

export interface DateTimeTextProps {
  kind: DateTimeKind;
  value: string;
  onChange: (text: string) => void;
  label?: ReactNode;
  error?: boolean;
  helperText?: ReactNode;
  disabled?: boolean;
  readOnly?: boolean;
  fullWidth?: boolean;
  size?: 'small' | 'medium';
  variant?: 'standard' | 'outlined' | 'filled';
  margin?: 'none' | 'dense' | 'normal';
  sx?: SxProps<Theme>;
  className?: string;
  id?: string;
  name?: string;
  inputRef?: Ref<HTMLInputElement>;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  /** attributes of the text input element: data-testid, aria-* */
  htmlInput?: Record<string, unknown>;
}

/**
 * A date, time or date-time as text in our format, instead of a native input that shows the
 * browser locale's (11/23/2026, 04:54 PM is ambiguous in Hong Kong); its button opens the
 * browser's own picker on a hidden native input, whose choice comes back as text.
 */
export function DateTimeText({ kind, value, onChange, label, error, helperText, disabled, readOnly, fullWidth, size, variant, margin, sx, className, id, name, inputRef, onBlur, htmlInput }: DateTimeTextProps) {
  const translate = useTranslate();
  const textRef = useRef<HTMLInputElement>(null);
  const nativeRef = useRef<HTMLInputElement>(null);
  const ref = useForkRef(textRef, inputRef);
  const complete = isDateTimeText(kind, value);
  const open = () => {
    try {
      nativeRef.current!.showPicker();
    } catch {
      textRef.current?.focus(); // no showPicker() (older browsers): typing is still there
    }
  };
  const pickLabel = translate(kind === 'time' ? 'qe.common.pickTime' : 'qe.common.pickDate');
  const adornment =
    disabled || readOnly ? undefined : (
      <InputAdornment position="end">
        <IconButton edge="end" size="small" aria-label={pickLabel} onClick={open}>
          {kind === 'time' ? <ScheduleIcon fontSize="small" /> : <CalendarMonthIcon fontSize="small" />}
        </IconButton>
        <input
          ref={nativeRef}
          type={NATIVE_TYPES[kind]}
          tabIndex={-1}
          aria-hidden
          value={complete ? value.replace(' ', 'T') : ''}
          onChange={(e) => onChange(dateTimeText(kind, e.target.value))}
          style={HIDDEN}
        />
      </InputAdornment>
    );
  return (
    <TextField
      id={id}
      name={name}
      inputRef={ref}
      className={className}
      label={label}
      value={value}
      onChange={(e) => onChange(dateTimeText(kind, e.target.value))}
      onBlur={onBlur}
      error={error}
      helperText={helperText}
      disabled={disabled}
      fullWidth={fullWidth}
      size={size}
      variant={variant}
      margin={margin}
      sx={sx}
      placeholder={translate(HINTS[kind])}
      autoComplete="off"
      slotProps={{
        // the placeholder shows the format, so the label stays above it
        inputLabel: { shrink: true },
        input: { endAdornment: adornment },
        htmlInput: { ...htmlInput, inputMode: 'numeric', readOnly },
      }}
    />
  );
}
