import { Box, FormControlLabel, Radio, RadioGroup, Typography } from '@mui/material';
import type { AnswerInputProps } from './ChoiceInput';
import { useNarrow } from './useNarrow';

/** LINEAR_SCALE: a row of radios from min to max with the end labels beside them (above them on a phone). */
export function ScaleInput({ question, value, onChange, readOnly, labelId }: AnswerInputProps) {
  const narrow = useNarrow();
  const { min = 1, max = 5, minLabel, maxLabel } = question.scale ?? {};
  const points = Array.from({ length: Math.max(0, max - min + 1) }, (_, i) => min + i);
  const end = (text: string | undefined, align: 'left' | 'right') =>
    text ? (
      <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: align, flex: narrow ? 1 : '0 1 auto', maxWidth: narrow ? '50%' : 160, overflowWrap: 'anywhere' }}>
        {text}
      </Typography>
    ) : null;
  const radios = (
    <RadioGroup
      row
      aria-labelledby={labelId}
      aria-required={question.required}
      value={typeof value === 'number' ? String(value) : ''}
      onChange={(_, v) => onChange(Number(v))}
      sx={{ flexWrap: 'nowrap', justifyContent: narrow ? 'space-between' : 'center', width: narrow ? '100%' : 'auto' }}
    >
      {points.map((n) => (
        <FormControlLabel
          key={n}
          value={String(n)}
          label={String(n)}
          labelPlacement="top"
          disabled={readOnly}
          control={<Radio size={points.length > 7 && narrow ? 'small' : 'medium'} sx={{ p: narrow ? 0.5 : 1 }} />}
          sx={{ mx: 0, minWidth: 0 }}
        />
      ))}
    </RadioGroup>
  );
  if (narrow) {
    return (
      <Box data-testid="scale">
        {(minLabel || maxLabel) && (
          <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mb: 0.5 }}>
            {end(minLabel, 'left') ?? <span />}
            {end(maxLabel, 'right')}
          </Box>
        )}
        <Box sx={{ overflowX: 'auto' }}>{radios}</Box>
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 2, overflowX: 'auto', pb: 0.5 }} data-testid="scale">
      {end(minLabel, 'right')}
      {radios}
      {end(maxLabel, 'left')}
    </Box>
  );
}
