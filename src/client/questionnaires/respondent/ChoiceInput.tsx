import type { ChangeEvent } from 'react';
import { Box, Button, Checkbox, FormControlLabel, FormGroup, Radio, RadioGroup, TextField } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import type { Translate } from '../../i18n/messages';
import type { Question } from '../../../shared/questionnaire/definition';
import { ANSWER_LIMITS, OTHER, type Answer, type MultiChoiceAnswer, type SingleChoiceAnswer } from '../../../shared/questionnaire/answers';

/** What every answer input gets: its question, the answer, a setter (undefined clears), read-only, and the id of the question's title. */
export interface AnswerInputProps {
  question: Question;
  value: Answer | undefined;
  onChange: (answer: Answer | undefined) => void;
  readOnly?: boolean;
  labelId: string;
  error?: boolean;
}

function OtherText({ label, value, onChange, readOnly, selected }: { label: string; value: string; onChange: (text: string) => void; readOnly?: boolean; selected: boolean }) {
  const translate = useTranslate();
  return (
    <TextField
      fullWidth={false}
      variant="standard"
      size="small"
      value={value}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
      placeholder={translate('qe.question.otherPlaceholder')}
      disabled={readOnly}
      sx={{ flex: 1, minWidth: 120 }}
      slotProps={{ htmlInput: { maxLength: ANSWER_LIMITS.other, 'aria-label': translate('qe.question.otherText', { label }), 'data-testid': 'other-text', tabIndex: selected ? 0 : undefined } }}
    />
  );
}

/** The "other" choice's label: the question's own, else the catalogue's in the reader's language. */
const otherLabel = (question: Question, translate: Translate) => question.otherLabel?.trim() || translate('qe.question.other');

/** A question whose answer may be cleared: the "clear selection" link of an optional radio question. */
function ClearButton({ onClick }: { onClick: () => void }) {
  const translate = useTranslate();
  return (
    <Button size="small" onClick={onClick} sx={{ alignSelf: 'flex-start', mt: 0.5 }} data-testid="clear-answer">
      {translate('qe.question.clear')}
    </Button>
  );
}

/** RADIO: one option, or "other" with a text (typing the text chooses "other"). */
export function RadioInput({ question, value, onChange, readOnly, labelId }: AnswerInputProps) {
  const translate = useTranslate();
  const answer = value as SingleChoiceAnswer | undefined;
  const choice = answer?.choice ?? '';
  const choose = (id: string) => onChange(id === OTHER ? { choice: OTHER, otherText: answer?.otherText ?? '' } : { choice: id });
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column' }}>
      <RadioGroup aria-labelledby={labelId} aria-required={question.required} value={choice} onChange={(_, v) => choose(v)}>
        {(question.options ?? []).map((o) => (
          <FormControlLabel key={o.id} value={o.id} control={<Radio />} label={o.label} disabled={readOnly} sx={{ mr: 0 }} />
        ))}
        {question.other && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <FormControlLabel value={OTHER} control={<Radio />} label={otherLabel(question, translate)} disabled={readOnly} sx={{ mr: 0 }} />
            <OtherText label={otherLabel(question, translate)} value={answer?.otherText ?? ''} selected={choice === OTHER} readOnly={readOnly} onChange={(otherText) => onChange({ choice: OTHER, otherText })} />
          </Box>
        )}
      </RadioGroup>
      {!readOnly && !question.required && choice !== '' && <ClearButton onClick={() => onChange(undefined)} />}
    </Box>
  );
}

/** CHECKBOX: any options, "other" with a text among them; the chosen ids kept in the options' order. */
export function CheckboxInput({ question, value, onChange, readOnly, labelId }: AnswerInputProps) {
  const translate = useTranslate();
  const answer = value as MultiChoiceAnswer | undefined;
  const chosen = new Set(answer?.choices ?? []);
  const order = [...(question.options ?? []).map((o) => o.id), OTHER];
  const set = (ids: Set<string>, otherText = answer?.otherText) => {
    const choices = order.filter((id) => ids.has(id));
    if (!choices.length) return onChange(undefined);
    onChange(choices.includes(OTHER) ? { choices, otherText: otherText ?? '' } : { choices });
  };
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    set(next);
  };
  return (
    <FormGroup role="group" aria-labelledby={labelId}>
      {(question.options ?? []).map((o) => (
        <FormControlLabel key={o.id} control={<Checkbox checked={chosen.has(o.id)} onChange={(_, on) => toggle(o.id, on)} />} label={o.label} disabled={readOnly} sx={{ mr: 0 }} />
      ))}
      {question.other && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <FormControlLabel control={<Checkbox checked={chosen.has(OTHER)} onChange={(_, on) => toggle(OTHER, on)} />} label={otherLabel(question, translate)} disabled={readOnly} sx={{ mr: 0 }} />
          <OtherText
            label={otherLabel(question, translate)}
            value={answer?.otherText ?? ''}
            selected={chosen.has(OTHER)}
            readOnly={readOnly}
            onChange={(text) => {
              const next = new Set(chosen);
              if (text.trim()) next.add(OTHER);
              if (!next.size) return onChange(undefined);
              set(next, text);
            }}
          />
        </Box>
      )}
    </FormGroup>
  );
}

/** DROPDOWN: the phone's own picker (a native select). */
export function DropdownInput({ question, value, onChange, readOnly, labelId, error }: AnswerInputProps) {
  const translate = useTranslate();
  const choice = (value as SingleChoiceAnswer | undefined)?.choice ?? '';
  return (
    <TextField
      fullWidth={false}
      select
      value={choice}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value ? { choice: e.target.value } : undefined)}
      disabled={readOnly}
      error={error}
      size="small"
      sx={{ minWidth: 220, maxWidth: '100%' }}
      slotProps={{ select: { native: true }, htmlInput: { 'aria-labelledby': labelId, 'aria-required': question.required } }}
    >
      <option value="">{translate('qe.question.choose')}</option>
      {(question.options ?? []).map((o) => (
        <option key={o.id} value={o.id}>
          {o.label}
        </option>
      ))}
    </TextField>
  );
}
