import { useMemo, type ChangeEvent } from 'react';
import { Box, FormControlLabel, Switch, TextField, Typography } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import type { ChoiceCountRule, Question, TextRule } from '../../../shared/questionnaire/definition';
import { compilePattern, PATTERN_MAX_LENGTH } from '../../../shared/questionnaire/pattern';
import { useProblems } from './problems';

const numberOrUndefined = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? undefined : Number(text));

function RuleSwitch({ on, onToggle, testId }: { on: boolean; onToggle: (on: boolean) => void; testId: string }) {
  const translate = useTranslate();
  return <FormControlLabel control={<Switch checked={on} onChange={(_, v) => onToggle(v)} slotProps={{ input: { 'data-testid': testId } as object }} />} label={translate('qe.designer.rule.title')} />;
}

/** CHECKBOX and GRID_CHECKBOX (per row): at least, at most or exactly N choices. */
export function ChoiceRuleEditor({ question, onChange, path }: { question: Question; onChange: (rule: ChoiceCountRule | undefined) => void; path: string }) {
  const translate = useTranslate();
  const problem = useProblems().at(path);
  const rule = question.choiceRule;
  const grid = question.type === 'GRID_CHECKBOX';
  return (
    <Box data-testid="choice-rule">
      <RuleSwitch on={Boolean(rule)} onToggle={(on) => onChange(on ? { kind: 'atLeast', count: 1 } : undefined)} testId="choice-rule-switch" />
      {rule && (
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
          <TextField
            fullWidth={false}
            select
            size="small"
            label={translate('qe.designer.rule.kind')}
            value={rule.kind}
            onChange={(e: ChangeEvent<HTMLInputElement>) => onChange({ ...rule, kind: e.target.value as ChoiceCountRule['kind'] })}
            sx={{ minWidth: 160 }}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            {(['atLeast', 'atMost', 'exactly'] as const).map((k) => (
              <option key={k} value={k}>
                {translate(`qe.designer.rule.${k}`)}
              </option>
            ))}
          </TextField>
          <TextField
            fullWidth={false}
            type="number"
            size="small"
            label={translate('qe.designer.rule.count')}
            value={rule.count}
            onChange={(e: ChangeEvent<HTMLInputElement>) => onChange({ ...rule, count: Math.trunc(Number(e.target.value) || 0) })}
            error={Boolean(problem)}
            sx={{ width: 120 }}
            slotProps={{ htmlInput: { min: 1, step: 1, 'data-testid': 'choice-rule-count' } }}
          />
          {grid && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {translate('qe.designer.rule.perRow')}
            </Typography>
          )}
        </Box>
      )}
      {problem && (
        <Typography variant="caption" sx={{ color: 'error.main', display: 'block' }} role="alert">
          {problem}
        </Typography>
      )}
    </Box>
  );
}

/** SHORT_TEXT: a length, a number range or a pattern, with an optional message of the designer's own. */
export function TextRuleEditor({ question, onChange, path }: { question: Question; onChange: (rule: TextRule | undefined) => void; path: string }) {
  const translate = useTranslate();
  const problem = useProblems().at(path);
  const rule = question.textRule;
  // the pattern is judged as it is typed, by the engine that will check the answers (the save check says it again)
  const source = rule?.kind === 'pattern' ? rule.pattern : undefined;
  const fault = useMemo(() => {
    const compiled = source ? compilePattern(source) : null;
    return compiled?.ok === false ? compiled.fault : null;
  }, [source]);
  const faultText = fault ? translate(`qe.designer.problems.${fault}`) : null;
  const set = (patch: Partial<TextRule>) => {
    const next: TextRule = { ...(rule ?? { kind: 'length' }), ...patch };
    for (const key of Object.keys(next) as (keyof TextRule)[]) if (next[key] === undefined || next[key] === '') delete next[key];
    onChange(next);
  };
  const bound = (key: 'min' | 'max') => (
    <TextField
      fullWidth={false}
      type="number"
      size="small"
      label={translate(`qe.designer.rule.${key}${rule?.kind === 'length' ? 'Length' : ''}`)}
      value={rule?.[key] ?? ''}
      onChange={(e: ChangeEvent<HTMLInputElement>) => set({ [key]: numberOrUndefined(e.target.value) })}
      sx={{ width: 140 }}
      slotProps={{ htmlInput: { min: rule?.kind === 'length' ? 0 : undefined, 'data-testid': `text-rule-${key}` } }}
    />
  );
  return (
    <Box data-testid="text-rule">
      <RuleSwitch on={Boolean(rule)} onToggle={(on) => onChange(on ? { kind: 'length' } : undefined)} testId="text-rule-switch" />
      {rule && (
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', mt: 1 }}>
          <TextField
            fullWidth={false}
            select
            size="small"
            label={translate('qe.designer.rule.kind')}
            value={rule.kind}
            onChange={(e: ChangeEvent<HTMLInputElement>) => onChange({ kind: e.target.value as TextRule['kind'], ...(rule.message ? { message: rule.message } : {}) })}
            sx={{ minWidth: 160 }}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'text-rule-kind' } }}
          >
            {(['length', 'number', 'pattern'] as const).map((k) => (
              <option key={k} value={k}>
                {translate(`qe.designer.rule.${k}`)}
              </option>
            ))}
          </TextField>
          {rule.kind === 'pattern' ? (
            <TextField
              fullWidth={false}
              size="small"
              label={translate('qe.designer.rule.pattern')}
              value={rule.pattern ?? ''}
              onChange={(e: ChangeEvent<HTMLInputElement>) => set({ pattern: e.target.value })}
              error={Boolean(faultText)}
              helperText={faultText ?? translate('qe.designer.rule.patternHelp')}
              sx={{ flex: '1 1 220px' }}
              slotProps={{ htmlInput: { maxLength: PATTERN_MAX_LENGTH, spellCheck: false, 'data-testid': 'text-rule-pattern' } }}
            />
          ) : (
            <>
              {bound('min')}
              {bound('max')}
            </>
          )}
          <TextField
            fullWidth={false}
            size="small"
            label={translate('qe.designer.rule.message')}
            value={rule.message ?? ''}
            onChange={(e: ChangeEvent<HTMLInputElement>) => set({ message: e.target.value })}
            sx={{ flex: '1 1 220px' }}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
        </Box>
      )}
      {problem && problem !== faultText && (
        <Typography variant="caption" sx={{ color: 'error.main', display: 'block' }} role="alert">
          {problem}
        </Typography>
      )}
    </Box>
  );
}
