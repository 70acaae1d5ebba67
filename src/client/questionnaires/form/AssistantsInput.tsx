import { useCallback, useEffect, useRef, useState } from 'react';
import { useInput } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { questionnaireApi, type AudienceOption } from './api';
import { fieldKey } from './labels';
import { OptionsAutocomplete } from './OptionsAutocomplete';

/** Assistants (assistantIds): a searchable multi picker over GET /v1/staff-options; the names of ids already chosen are looked up by id. */
export function AssistantsInput({ disabled }: { disabled?: boolean }) {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source: 'assistantIds' });
  const ids: number[] = Array.isArray(field.value) ? field.value.map(Number) : [];
  const idsKey = ids.join(',');
  const [known, setKnown] = useState<Map<number, AudienceOption>>(() => new Map());
  const asked = useRef(new Set<number>());

  useEffect(() => {
    const missing = idsKey
      .split(',')
      .filter(Boolean)
      .map(Number)
      .filter((id) => !asked.current.has(id));
    if (missing.length === 0) return;
    missing.forEach((id) => asked.current.add(id));
    questionnaireApi
      .staffOptions({ ids: missing })
      .then((list) => setKnown((prev) => new Map([...prev, ...list.map((o) => [o.id, o] as const)])))
      .catch(() => undefined);
  }, [idsKey]);

  const load = useCallback((q: string) => questionnaireApi.staffOptions({ q }), []);
  const value = ids.map((id) => known.get(id) ?? { id, code: null, nameHk: `#${id}`, nameEn: `#${id}` });

  return (
    <OptionsAutocomplete
      load={load}
      value={value}
      onChange={(chosen) => {
        setKnown((prev) => new Map([...prev, ...chosen.map((o) => [o.id, o] as const)]));
        field.onChange(chosen.map((o) => o.id));
      }}
      label={translate(fieldKey('assistants'))}
      disabled={disabled}
      error={Boolean(fieldState.error)}
      helperText={fieldState.error?.message}
      testId="input-assistants"
    />
  );
}
