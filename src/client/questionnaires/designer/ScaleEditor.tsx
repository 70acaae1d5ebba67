import type { ChangeEvent } from 'react';
import { Box, TextField, Typography } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import type { LinearScale } from '../../../shared/questionnaire/definition';
import { SCALE_LABEL_MAX } from '../../../shared/questionnaire/question-types/linear-scale';
import { useProblems } from './problems';

const MAXES = [2, 3, 4, 5, 6, 7, 8, 9, 10];

/** LINEAR_SCALE: from 0 or 1 to 2–10, and the labels of both ends. */
export function ScaleEditor({ scale, onChange, path }: { scale: LinearScale | undefined; onChange: (scale: LinearScale) => void; path: string }) {
  const translate = useTranslate();
  const problem = useProblems().at(path);
  const s = scale ?? { min: 1, max: 5 };
  const set = (patch: Partial<LinearScale>) => {
    const next = { ...s, ...patch };
    if (!next.minLabel) delete next.minLabel;
    if (!next.maxLabel) delete next.maxLabel;
    onChange(next);
  };
  const select = (label: string, value: number, choices: number[], change: (n: number) => void, testId: string) => (
    <TextField
      fullWidth={false}
      select
      size="small"
      label={label}
      value={value}
      onChange={(e: ChangeEvent<HTMLInputElement>) => change(Number(e.target.value))}
      sx={{ width: 100 }}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
    >
      {choices.map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </TextField>
  );
  return (
    <Box data-testid="scale-editor">
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        {select(translate('qe.designer.scale.min'), s.min, [0, 1], (min) => set({ min }), 'scale-min')}
        <Typography sx={{ color: 'text.secondary' }}>–</Typography>
        {select(translate('qe.designer.scale.max'), s.max, MAXES, (max) => set({ max }), 'scale-max')}
      </Box>
      <Box sx={{ display: 'flex', gap: 2, mt: 2, flexWrap: 'wrap' }}>
        <TextField
          fullWidth={false}
          size="small"
          label={translate('qe.designer.scale.endLabel', { n: s.min })}
          value={s.minLabel ?? ''}
          onChange={(e: ChangeEvent<HTMLInputElement>) => set({ minLabel: e.target.value })}
          sx={{ flex: '1 1 200px' }}
          slotProps={{ htmlInput: { maxLength: SCALE_LABEL_MAX } }}
        />
        <TextField
          fullWidth={false}
          size="small"
          label={translate('qe.designer.scale.endLabel', { n: s.max })}
          value={s.maxLabel ?? ''}
          onChange={(e: ChangeEvent<HTMLInputElement>) => set({ maxLabel: e.target.value })}
          sx={{ flex: '1 1 200px' }}
          slotProps={{ htmlInput: { maxLength: SCALE_LABEL_MAX } }}
        />
      </Box>
      {problem && (
        <Typography variant="caption" sx={{ color: 'error.main' }} role="alert">
          {problem}
        </Typography>
      )}
    </Box>
  );
}
