import { useEffect, useState, type ReactNode } from 'react';
import { Autocomplete, Box, Chip, CircularProgress, TextField } from '@mui/material';
import { useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { AudienceOption } from './api';

/** An option's name in the current language, with its code. */
export function optionName(option: AudienceOption, locale: string): string {
  const name = (locale === 'en' ? option.nameEn || option.nameHk : option.nameHk || option.nameEn) ?? '';
  return option.code ? `${name} (${option.code})` : name;
}

const DEBOUNCE_MS = 250;

/**
 * A searchable multi picker whose choices come from the server (the text typed is sent as `q`),
 * each shown with how many people it covers when the server says so.
 */
export function OptionsAutocomplete({
  load,
  value,
  onChange,
  label,
  disabled,
  error,
  helperText,
  testId,
  reloadKey,
}: {
  load: (q: string) => Promise<AudienceOption[]>;
  value: AudienceOption[];
  onChange: (value: AudienceOption[]) => void;
  label: string;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  testId?: string;
  /** changing it drops the choices loaded so far (another kind of option) */
  reloadKey?: string;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<AudienceOption[]>([]);
  const [loading, setLoading] = useState(false);

  // a new kind starts with no choices and no search text
  const [seenKey, setSeenKey] = useState(reloadKey);
  if (seenKey !== reloadKey) {
    setSeenKey(reloadKey);
    setOptions([]);
    setInput('');
  }

  useEffect(() => {
    if (!open) return;
    let current = true;
    const timer = setTimeout(() => {
      setLoading(true);
      load(input.trim())
        .then((list) => current && setOptions(list))
        .catch(() => current && setOptions([]))
        .finally(() => current && setLoading(false));
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [open, input, load, reloadKey]);

  const countText = (o: AudienceOption) => (o.count === undefined ? '' : ` · ${translate('qe.questionnaire.target.people', { smart_count: o.count })}`);

  return (
    <Autocomplete
      multiple
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={options}
      value={value}
      onChange={(_, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_, text, reason) => {
        if (reason !== 'reset') setInput(text);
      }}
      // the server has filtered them by the text typed
      filterOptions={(x) => x}
      filterSelectedOptions
      disableCloseOnSelect
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(o) => optionName(o, locale)}
      loading={loading}
      disabled={disabled}
      noOptionsText={translate('qe.questionnaire.target.noOptions')}
      loadingText={translate('ra.page.loading')}
      renderOption={(props, o) => {
        const { key, ...rest } = props;
        return (
          <Box component="li" key={key} {...rest}>
            {optionName(o, locale)}
            {countText(o)}
          </Box>
        );
      }}
      renderValue={(chosen, getItemProps) =>
        chosen.map((o, index) => {
          const { key, onDelete, ...itemProps } = getItemProps({ index });
          return <Chip size="small" key={key} label={optionName(o, locale)} {...itemProps} onDelete={disabled ? undefined : onDelete} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          error={error}
          helperText={helperText}
          size="small"
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId },
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {loading ? <CircularProgress color="inherit" size={16} aria-hidden /> : null}
                  {params.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
      fullWidth
      sx={{ minWidth: 260, flex: 1 }}
    />
  );
}
