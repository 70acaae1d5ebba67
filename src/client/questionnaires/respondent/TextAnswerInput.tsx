import type { ChangeEvent } from 'react';
import { TextField } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import { ANSWER_LIMITS } from '../../../shared/questionnaire/answers';
import { DateTimeText } from '../../common/DateTimeText';
import type { AnswerInputProps } from './ChoiceInput';

/** SHORT_TEXT, PARAGRAPH, DATE and TIME: a text field (dates and times in our format; a blank answer is no answer). */
export function TextAnswerInput({ question, value, onChange, readOnly, labelId, error }: AnswerInputProps) {
  const translate = useTranslate();
  const text = typeof value === 'string' ? value : '';
  const set = (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(e.target.value === '' ? undefined : e.target.value);
  const html = { 'aria-labelledby': labelId, 'aria-required': question.required, readOnly };
  switch (question.type) {
    case 'DATE':
    case 'TIME':
      return (
        <DateTimeText
          kind={question.type === 'DATE' ? 'date' : 'time'}
          value={text}
          onChange={(t) => onChange(t === '' ? undefined : t)}
          error={error}
          readOnly={readOnly}
          size="small"
          fullWidth={false}
          sx={{ minWidth: 180 }}
          htmlInput={{ ...html, 'data-testid': `answer-${question.type.toLowerCase()}` }}
        />
      );
    case 'PARAGRAPH':
      return (
        <TextField
          multiline
          minRows={3}
          fullWidth
          value={text}
          onChange={set}
          error={error}
          placeholder={readOnly ? undefined : translate('qe.question.longAnswer')}
          slotProps={{ htmlInput: { ...html, maxLength: ANSWER_LIMITS.PARAGRAPH } }}
        />
      );
    default: {
      const numeric = question.textRule?.kind === 'number';
      return (
        <TextField
          fullWidth
          variant="standard"
          value={text}
          onChange={set}
          error={error}
          placeholder={readOnly ? undefined : translate('qe.question.shortAnswer')}
          slotProps={{ htmlInput: { ...html, maxLength: ANSWER_LIMITS.SHORT_TEXT, inputMode: numeric ? 'decimal' : undefined } }}
        />
      );
    }
  }
}
