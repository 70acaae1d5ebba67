/**
 * Settings editors the types share: a list of options (RADIO, CHECKBOX, DROPDOWN), a grid's rows
 * and columns, a type's hint. Each type's module composes them.
 */
import type { ChangeEvent, ComponentType } from 'react';
import { Box, Button, FormControlLabel, IconButton, Switch, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from '../../i18n/translate';
import type { Choice, QuestionType } from '../../../shared/questionnaire/definition';
import { ChoiceListEditor } from '../designer/ChoiceListEditor';
import { useProblems } from '../designer/problems';
import { ChoiceRuleEditor } from '../designer/RuleEditor';
import type { SettingsEditorProps } from './view';

const numberMarker = (i: number) => <Typography variant="body2">{i + 1}.</Typography>;

/**
 * The options editor of a choice type: `marker` the icon before each option (their number
 * without), `other` whether an "other" can be added, `branching` whether options may lead to a section.
 */
export function optionSettings({ marker: Marker, other, branching: branches }: { marker?: ComponentType<{ fontSize?: 'small' }>; other: boolean; branching: boolean }) {
  const marker = (i: number) => (Marker ? <Marker fontSize="small" /> : numberMarker(i));
  return function OptionSettings({ question: q, path, si, sections, patch, branching, setBranching }: SettingsEditorProps) {
    const translate = useTranslate();
    return (
      <>
        <ChoiceListEditor
          kind="option"
          items={q.options ?? []}
          onChange={(options) => patch({ options })}
          path={`${path}.options`}
          marker={marker}
          branching={branching && sections ? { sections, from: si } : undefined}
          extra={
            q.other && (
              <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, mb: 0.5 }} data-testid="other-option">
                <Box sx={{ width: 28, pt: 1, display: 'flex', justifyContent: 'center', color: 'text.disabled', flexShrink: 0 }}>{marker(q.options?.length ?? 0)}</Box>
                <OtherLabelInput question={q} path={path} patch={patch} />
                <Tooltip title={translate('qe.designer.options.removeOther')}>
                  <IconButton size="small" onClick={() => patch({ other: undefined, otherLabel: undefined })} aria-label={translate('qe.designer.options.removeOther')}>
                    <CloseIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Box>
            )
          }
        />
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mt: -1.5 }}>
          {other && !q.other && (
            <Button size="small" startIcon={<AddIcon />} onClick={() => patch({ other: true })} data-testid="add-other">
              {translate('qe.designer.options.addOther')}
            </Button>
          )}
          {branches && (
            <FormControlLabel
              control={<Switch size="small" checked={branching} onChange={(_, on) => setBranching(on)} slotProps={{ input: { 'data-testid': 'branching-switch' } as object }} />}
              label={translate('qe.designer.options.branching')}
            />
          )}
        </Box>
      </>
    );
  };
}

/**
 * The label of the "other" choice, in the main language: left empty, respondents see the
 * catalogue's "Other" in their own language (the placeholder shows it).
 */
function OtherLabelInput({ question: q, path, patch }: Pick<SettingsEditorProps, 'question' | 'path' | 'patch'>) {
  const translate = useTranslate();
  const problem = useProblems().at(`${path}.otherLabel`);
  return (
    <TextField
      fullWidth={false}
      size="small"
      variant="standard"
      value={q.otherLabel ?? ''}
      placeholder={translate('qe.question.other')}
      onChange={(e: ChangeEvent<HTMLInputElement>) => patch({ otherLabel: e.target.value || undefined })}
      error={Boolean(problem)}
      helperText={problem ?? translate('qe.designer.options.otherHelp')}
      sx={{ flex: '1 1 200px', pt: 0.5 }}
      slotProps={{ htmlInput: { maxLength: 500, 'aria-label': translate('qe.designer.options.otherLabel'), 'data-testid': 'other-label' } }}
    />
  );
}

/** A grid's rows and columns, and whether each column may be chosen in one row only. */
export function GridSettings({ question: q, path, patch }: SettingsEditorProps) {
  const translate = useTranslate();
  return (
    <>
      <ChoiceListEditor kind="row" items={q.rows ?? []} onChange={(rows: Choice[]) => patch({ rows })} path={`${path}.rows`} marker={numberMarker} />
      <ChoiceListEditor kind="column" items={q.columns ?? []} onChange={(columns: Choice[]) => patch({ columns })} path={`${path}.columns`} marker={numberMarker} />
      <FormControlLabel
        control={<Switch checked={Boolean(q.onePerColumn)} onChange={(_, on) => patch({ onePerColumn: on || undefined })} slotProps={{ input: { 'data-testid': 'one-per-column' } as object }} />}
        label={translate('qe.designer.onePerColumn')}
      />
    </>
  );
}

/** The editor of how many choices an answer (a grid: each row) must have. */
export function ChoiceRuleSettings({ question, path, patch }: SettingsEditorProps) {
  return <ChoiceRuleEditor question={question} onChange={(choiceRule) => patch({ choiceRule })} path={`${path}.choiceRule`} />;
}

/** A type without settings of its own: a line on what the respondent answers (`qe.designer.question.hint.<TYPE>`). */
export function typeHint(type: Extract<QuestionType, 'PARAGRAPH' | 'DATE' | 'TIME'>) {
  return function TypeHint() {
    const translate = useTranslate();
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {translate(`qe.designer.question.hint.${type}`)}
      </Typography>
    );
  };
}
