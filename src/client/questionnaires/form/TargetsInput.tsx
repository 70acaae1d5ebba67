import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box, Button, Chip, FormControl, FormHelperText, FormLabel, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useInput, useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { AudienceCount, Target, TargetKind } from '../../../shared/questionnaire/types';
import { questionnaireApi, type AudienceOption, type OptionKind } from './api';
import { fieldKey, PICK_KINDS, pickKey, targetKindKey, type PickKind } from './labels';
import { optionName, OptionsAutocomplete } from './OptionsAutocomplete';
import { normaliseTargets, WHOLE_KINDS } from './values';

const keyOf = (kind: TargetKind, id: number) => `${kind}:${id}`;
const kindOfPick = (pick: PickKind): TargetKind => (pick === 'TEACHER' || pick === 'STUDENT' ? 'USERS' : pick);
const isWhole = (pick: PickKind) => WHOLE_KINDS.includes(pick as TargetKind);

/** Looks up the names and counts of chosen ids the picker has not seen (a saved questionnaire): a person may be a teacher or a student. */
async function lookUp(kind: TargetKind, ids: number[]): Promise<AudienceOption[]> {
  if (kind === 'USERS') {
    const teachers = await questionnaireApi.audienceOptions('TEACHER', { ids });
    const found = new Set(teachers.map((t) => t.id));
    const rest = ids.filter((id) => !found.has(id));
    return rest.length ? [...teachers, ...(await questionnaireApi.audienceOptions('STUDENT', { ids: rest }))] : teachers;
  }
  return questionnaireApi.audienceOptions(kind as OptionKind, { ids });
}

/** Choose a kind, and for all but "all teachers / all students" the groups, grades, classes or people of it; then add them. */
function TargetAdder({ present, onAdd }: { present: (kind: TargetKind) => boolean; onAdd: (kind: TargetKind, chosen: AudienceOption[]) => void }) {
  const translate = useTranslate();
  const [pick, setPick] = useState<PickKind>('ALL_TEACHERS');
  const [chosen, setChosen] = useState<AudienceOption[]>([]);
  const load = useCallback((q: string) => questionnaireApi.audienceOptions(pick as OptionKind, { q }), [pick]);
  const whole = isWhole(pick);
  const add = () => {
    onAdd(kindOfPick(pick), chosen);
    setChosen([]);
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap', mt: 1 }} data-testid="target-adder">
      <TextField
        select
        fullWidth={false}
        size="small"
        label={translate('qe.questionnaire.target.kind')}
        value={pick}
        onChange={(e) => {
          setPick(e.target.value as PickKind);
          setChosen([]);
        }}
        slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'target-kind' }, inputLabel: { shrink: true } }}
        sx={{ width: 200, flexShrink: 0 }}
      >
        {PICK_KINDS.map((p) => (
          <option key={p} value={p}>
            {translate(pickKey(p))}
          </option>
        ))}
      </TextField>
      {!whole && <OptionsAutocomplete load={load} value={chosen} onChange={setChosen} label={translate('qe.questionnaire.target.search')} reloadKey={pick} testId="target-options" />}
      <Button variant="outlined" startIcon={<AddIcon />} onClick={add} disabled={whole ? present(kindOfPick(pick)) : chosen.length === 0} data-testid="target-add" sx={{ mt: 0.25 }}>
        {translate('qe.questionnaire.target.add')}
      </Button>
    </Box>
  );
}

/**
 * Target users (targets): the choices as chips — all teachers, all students, teacher groups,
 * grades, classes and chosen people — each with how many people it covers, and the total
 * without duplicates as POST /v1/questionnaires/audience-count answers whenever the choice
 * changes. Kept as one target per kind (ids merged).
 */
export function TargetsInput({ disabled, schoolYearId }: { disabled?: boolean; schoolYearId?: number | null }) {
  const translate = useTranslate();
  const locale = useLocale();
  const { field, fieldState, isRequired } = useInput({ source: 'targets' });
  const raw = JSON.stringify(field.value ?? []);
  const targets = useMemo(() => normaliseTargets(JSON.parse(raw) as Target[]), [raw]);
  const targetsKey = JSON.stringify(targets);

  // names and counts of chosen ids, from the picker's answers or looked up by id
  const [known, setKnown] = useState<Map<string, AudienceOption>>(() => new Map());
  const asked = useRef(new Set<string>());
  const remember = useCallback((kind: TargetKind, options: AudienceOption[]) => setKnown((prev) => new Map([...prev, ...options.map((o) => [keyOf(kind, o.id), o] as const)])), []);

  useEffect(() => {
    for (const t of JSON.parse(targetsKey) as Target[]) {
      const missing = (t.ids ?? []).filter((id) => !asked.current.has(keyOf(t.kind, id)));
      if (missing.length === 0) continue;
      missing.forEach((id) => asked.current.add(keyOf(t.kind, id)));
      lookUp(t.kind, missing)
        .then((list) => remember(t.kind, list))
        .catch(() => undefined);
    }
  }, [targetsKey, remember]);

  // the server's count for exactly these choices (an answer for an earlier choice is dropped)
  const [count, setCount] = useState<{ key: string; answer: AudienceCount | null } | null>(null);
  useEffect(() => {
    const chosen = JSON.parse(targetsKey) as Target[];
    if (chosen.length === 0) return;
    let current = true;
    questionnaireApi
      .audienceCount(chosen, schoolYearId)
      .then((answer) => current && setCount({ key: targetsKey, answer }))
      .catch(() => current && setCount({ key: targetsKey, answer: null }));
    return () => {
      current = false;
    };
  }, [targetsKey, schoolYearId]);
  const answer = count?.key === targetsKey ? count.answer : undefined;

  const change = (next: Target[]) => {
    field.onChange(normaliseTargets(next));
    field.onBlur();
  };
  const remove = (kind: TargetKind, id?: number) =>
    change(id === undefined ? targets.filter((t) => t.kind !== kind) : targets.map((t) => (t.kind === kind ? { ...t, ids: (t.ids ?? []).filter((x) => x !== id) } : t)));
  const add = (kind: TargetKind, chosen: AudienceOption[]) => {
    remember(kind, chosen);
    change([...targets, WHOLE_KINDS.includes(kind) ? { kind } : { kind, ids: chosen.map((o) => o.id) }]);
  };

  const people = (n: number | undefined) => (n === undefined ? '…' : translate('qe.questionnaire.target.people', { smart_count: n }));
  const wholeCount = (kind: TargetKind) => (answer ? answer.targets.find((t) => t.kind === kind)?.count : undefined);
  const onDelete = (kind: TargetKind, id?: number) => (disabled ? undefined : () => remove(kind, id));

  const total = targets.length === 0 ? 0 : answer === undefined ? undefined : answer === null ? null : answer.total;
  const error = fieldState.error?.message;

  return (
    <FormControl error={Boolean(error)} fullWidth component="fieldset" sx={{ my: 1 }} data-testid="input-targets">
      <FormLabel component="legend" required={isRequired}>
        {translate(fieldKey('targets'))}
      </FormLabel>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }} data-testid="target-chips">
        {targets.length === 0 && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {translate('qe.questionnaire.target.none')}
          </Typography>
        )}
        {targets.flatMap((t) =>
          WHOLE_KINDS.includes(t.kind)
            ? [<Chip key={t.kind} color="primary" variant="outlined" label={`${translate(targetKindKey(t.kind))} · ${people(wholeCount(t.kind))}`} onDelete={onDelete(t.kind)} data-testid={`target-${t.kind}`} />]
            : (t.ids ?? []).map((id) => {
                const option = known.get(keyOf(t.kind, id));
                const name = option ? optionName(option, locale) : `#${id}`;
                return (
                  <Chip
                    key={keyOf(t.kind, id)}
                    variant="outlined"
                    label={translate('qe.questionnaire.target.chip', { kind: translate(targetKindKey(t.kind)), name, count: people(option?.count) })}
                    onDelete={onDelete(t.kind, id)}
                    data-testid={`target-${t.kind}-${id}`}
                  />
                );
              }),
        )}
      </Box>
      <Typography variant="body2" sx={{ mt: 1, fontWeight: 500 }} data-testid="audience-total">
        {total === undefined ? translate('qe.questionnaire.target.counting') : total === null ? translate('qe.questionnaire.target.countFailed') : translate('qe.questionnaire.target.total', { smart_count: total })}
      </Typography>
      {!disabled && <TargetAdder present={(kind) => targets.some((t) => t.kind === kind)} onAdd={add} />}
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}
