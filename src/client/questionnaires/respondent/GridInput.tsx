import { Box, Button, Checkbox, FormControlLabel, Radio, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import type { Choice } from '../../../shared/questionnaire/definition';
import type { GridCheckboxAnswer, GridRadioAnswer } from '../../../shared/questionnaire/answers';
import type { AnswerInputProps } from './ChoiceInput';
import { useNarrow } from './useNarrow';
import { VISUALLY_HIDDEN } from '../../common/visuallyHidden';

/**
 * GRID_RADIO (one column per row) and GRID_CHECKBOX (any columns per row): a table with the
 * columns across; on a phone one block per row with its columns listed under it. `errorRow`
 * marks the row a problem is about.
 */
export function GridInput({ question, value, onChange, readOnly, labelId, errorRow }: AnswerInputProps & { errorRow?: string }) {
  const translate = useTranslate();
  const narrow = useNarrow();
  const multi = question.type === 'GRID_CHECKBOX';
  const rows = question.rows ?? [];
  const columns = question.columns ?? [];
  const grid = (value ?? {}) as Record<string, string | string[]>;
  const isOn = (row: string, col: string) => {
    const v = grid[row];
    return Array.isArray(v) ? v.includes(col) : v === col;
  };
  const set = (row: string, col: string, on: boolean) => {
    const next: Record<string, string | string[]> = { ...grid };
    if (multi) {
      const cols = new Set(Array.isArray(grid[row]) ? (grid[row] as string[]) : []);
      if (on) cols.add(col);
      else cols.delete(col);
      const ordered = columns.map((c) => c.id).filter((id) => cols.has(id));
      if (ordered.length) next[row] = ordered;
      else delete next[row];
    } else if (on) next[row] = col;
    else delete next[row];
    onChange(Object.keys(next).length ? (next as GridRadioAnswer | GridCheckboxAnswer) : undefined);
  };
  const control = (row: Choice, col: Choice, withLabel: boolean) => {
    const checked = isOn(row.id, col.id);
    const props = {
      checked,
      disabled: readOnly,
      onChange: (_: unknown, on: boolean) => set(row.id, col.id, on),
      slotProps: { input: { 'aria-label': withLabel ? undefined : `${row.label}: ${col.label}` } },
    };
    const input = multi ? <Checkbox {...props} /> : <Radio {...props} name={`${question.id}-${row.id}`} value={col.id} />;
    return withLabel ? <FormControlLabel key={col.id} control={input} label={col.label} sx={{ mr: 0 }} /> : input;
  };
  const clear = !readOnly && !question.required && Object.keys(grid).length > 0 && (
    <Button size="small" onClick={() => onChange(undefined)} sx={{ alignSelf: 'flex-start', mt: 0.5 }} data-testid="clear-answer">
      {translate('qe.question.clear')}
    </Button>
  );

  if (narrow) {
    return (
      <Box role="group" aria-labelledby={labelId} sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="grid-blocks">
        {rows.map((row) => (
          <Box
            key={row.id}
            role={multi ? 'group' : 'radiogroup'}
            aria-label={row.label}
            sx={{ border: 1, borderColor: errorRow === row.id ? 'error.main' : 'divider', borderRadius: 1, p: 1.5, display: 'flex', flexDirection: 'column' }}
          >
            <Typography variant="body2" sx={{ fontWeight: 500, mb: 0.5, color: errorRow === row.id ? 'error.main' : undefined }}>
              {row.label}
            </Typography>
            {columns.map((col) => control(row, col, true))}
          </Box>
        ))}
        {clear}
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column' }}>
      <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
        <Table size="small" aria-labelledby={labelId} data-testid="grid-table">
          <TableHead>
            <TableRow>
              <TableCell>
                <Box component="span" sx={VISUALLY_HIDDEN}>
                  {translate('qe.common.rowHeader')}
                </Box>
              </TableCell>
              {columns.map((col) => (
                <TableCell key={col.id} sx={{ textAlign: 'center !important', minWidth: 64, overflowWrap: 'anywhere' }}>
                  {col.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} role="row" sx={errorRow === row.id ? { bgcolor: 'action.hover', '& th': { color: 'error.main' } } : undefined}>
                <TableCell component="th" scope="row" sx={{ minWidth: 100, overflowWrap: 'anywhere' }}>
                  {row.label}
                </TableCell>
                {columns.map((col) => (
                  <TableCell key={col.id} sx={{ textAlign: 'center !important', p: 0 }}>
                    {control(row, col, false)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {clear}
    </Box>
  );
}
