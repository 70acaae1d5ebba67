import type { ChangeEvent, KeyboardEvent, ReactNode } from 'react';
import { Box, Button, IconButton, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from '../../i18n/translate';
import type { Choice } from '../../../shared/questionnaire/definition';
import { GoToSelect, type SectionRef } from './GoToSelect';
import { moveItem, newId } from './model';
import { useProblems } from './problems';

export type ChoiceKind = 'option' | 'row' | 'column';
const MIN: Record<ChoiceKind, number> = { option: 1, row: 1, column: 2 };
export const MAX_CHOICES = 100;

/** Puts the caret in a choice's text (after it was added). */
const focusChoice = (id: string) => setTimeout(() => document.getElementById(`choice-${id}`)?.focus());

/**
 * The options of a choice question, or a grid's rows or columns: each a text with move up/down and
 * remove; Enter in a text adds the next one. With `branching`, each option has its "go to section".
 */
export function ChoiceListEditor({
  kind,
  items,
  onChange,
  path,
  marker,
  branching,
  readOnly,
  extra,
}: {
  kind: ChoiceKind;
  items: Choice[];
  onChange: (items: Choice[]) => void;
  /** where the list is in the definition (problems) */
  path: string;
  marker: (index: number) => ReactNode;
  branching?: { sections: SectionRef[]; from: number };
  readOnly?: boolean;
  /** more under the list (the "other" option) */
  extra?: ReactNode;
}) {
  const translate = useTranslate();
  const problems = useProblems();
  const label = (n: number) => translate(`qe.designer.defaults.${kind}`, { n });
  const set = (i: number, patch: Partial<Choice>) =>
    onChange(
      items.map((c, j) => {
        if (j !== i) return c;
        const next = { ...c, ...patch };
        if (next.goTo === undefined) delete next.goTo;
        return next;
      }),
    );
  const add = (after = items.length - 1) => {
    if (items.length >= MAX_CHOICES) return;
    const choice = { id: newId(), label: label(items.length + 1) };
    onChange([...items.slice(0, after + 1), choice, ...items.slice(after + 1)]);
    focusChoice(choice.id);
  };
  const onKey = (i: number) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      e.preventDefault();
      add(i);
    }
  };
  const listProblem = problems.at(path);
  return (
    <Box role="group" aria-label={translate(`qe.designer.${kind}s.title`)} data-testid={`choices-${kind}`}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {translate(`qe.designer.${kind}s.title`)}
      </Typography>
      {items.map((c, i) => {
        const p = `${path}.${i}`;
        const problem = problems.at(`${p}.label`) ?? problems.at(p) ?? problems.at(`${p}.id`);
        return (
          <Box key={c.id} sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, mb: 0.5, flexWrap: 'wrap' }} data-testid="choice">
            <Box sx={{ width: 28, pt: 1, color: 'text.disabled', display: 'flex', justifyContent: 'center', flexShrink: 0 }}>{marker(i)}</Box>
            <TextField
              fullWidth={false}
              size="small"
              variant="standard"
              value={c.label}
              onChange={(e: ChangeEvent<HTMLInputElement>) => set(i, { label: e.target.value })}
              onKeyDown={onKey(i)}
              error={Boolean(problem)}
              helperText={problem}
              disabled={readOnly}
              sx={{ flex: '1 1 200px', pt: 0.5 }}
              slotProps={{ htmlInput: { id: `choice-${c.id}`, maxLength: 500, 'aria-label': translate(`qe.designer.defaults.${kind}`, { n: i + 1 }), 'data-testid': 'choice-label' } }}
            />
            {branching && (
              <GoToSelect
                sections={branching.sections}
                from={branching.from}
                value={c.goTo}
                onChange={(goTo) => set(i, { goTo })}
                label={translate('qe.designer.where.goTo')}
                blankKey="qe.designer.goTo.continue"
                error={problems.at(`${p}.goTo`)}
                testId="choice-goto"
              />
            )}
            {!readOnly && (
              <Box sx={{ display: 'flex', flexShrink: 0 }}>
                <Tooltip title={translate('qe.designer.moveUp')}>
                  <span>
                    <IconButton size="small" disabled={i === 0} onClick={() => onChange(moveItem(items, i, -1))} aria-label={translate('qe.designer.moveUp')}>
                      <ArrowUpwardIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title={translate('qe.designer.moveDown')}>
                  <span>
                    <IconButton size="small" disabled={i === items.length - 1} onClick={() => onChange(moveItem(items, i, 1))} aria-label={translate('qe.designer.moveDown')}>
                      <ArrowDownwardIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title={translate('qe.designer.remove')}>
                  <span>
                    <IconButton
                      size="small"
                      disabled={items.length <= MIN[kind]}
                      onClick={() => onChange(items.filter((x) => x.id !== c.id))}
                      aria-label={translate('qe.designer.remove')}
                      data-testid="choice-remove"
                    >
                      <CloseIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </Box>
            )}
          </Box>
        );
      })}
      {extra}
      {!readOnly && (
        <Button size="small" startIcon={<AddIcon />} onClick={() => add()} disabled={items.length >= MAX_CHOICES} data-testid={`add-${kind}`}>
          {translate(`qe.designer.${kind}s.add`)}
        </Button>
      )}
      {listProblem && (
        <Typography variant="caption" sx={{ color: 'error.main', display: 'block' }} role="alert">
          {listProblem}
        </Typography>
      )}
    </Box>
  );
}
