import { memo } from 'react';
import { Box, FormHelperText, Paper, Typography } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import type { Question } from '../../../shared/questionnaire/definition';
import type { Answer, AnswerProblem } from '../../../shared/questionnaire/answers';
import type { AnswerInputProps } from './ChoiceInput';
import { ANSWER_INPUTS } from './inputs';
import { useAnswerProblemText } from './problemText';

/** Where a stored image is served. */
export const imageUrl = (path: string) => `/qe/storage/${path}`;

/** The input of the question's type (inputs.ts). */
function AnswerInput(props: AnswerInputProps & { errorRow?: string }) {
  const Input = ANSWER_INPUTS[props.question.type];
  return <Input {...props} />;
}

export interface QuestionCardProps {
  question: Question;
  value: Answer | undefined;
  onChange: (id: string, answer: Answer | undefined) => void;
  problem?: AnswerProblem;
  readOnly?: boolean;
}

/** One question as the respondent sees it: title with its required mark, description, image, the answer input and what is wrong with the answer. */
export const QuestionCard = memo(function QuestionCard({ question, value, onChange, problem, readOnly }: QuestionCardProps) {
  const translate = useTranslate();
  const problemText = useAnswerProblemText();
  const labelId = `q-${question.id}-title`;
  const errorId = `q-${question.id}-error`;
  return (
    <Paper
      variant="outlined"
      component="section"
      id={`q-${question.id}`}
      aria-describedby={problem ? errorId : undefined}
      data-testid={`question-${question.id}`}
      data-question-type={question.type}
      sx={{ p: { xs: 2 }, borderColor: problem ? 'error.main' : undefined, borderWidth: problem ? 2 : 1, scrollMarginTop: 80 }}
    >
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 500, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        <span id={labelId}>{question.title}</span>
        {question.required && (
          <Box component="span" aria-hidden sx={{ color: 'error.main', ml: 0.5 }} title={translate('qe.question.required')} data-testid="required-mark">
            *
          </Box>
        )}
      </Typography>
      {question.description && (
        <Typography variant="body2" sx={{ color: 'text.secondary', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: 0.5 }}>
          {question.description}
        </Typography>
      )}
      {question.image && (
        <Box component="img" src={imageUrl(question.image)} alt={translate('qe.question.image')} loading="lazy" sx={{ display: 'block', maxWidth: '100%', maxHeight: 480, mt: 1, borderRadius: 1 }} />
      )}
      <Box sx={{ mt: 1.5 }}>
        <AnswerInput question={question} value={value} onChange={(a) => onChange(question.id, a)} readOnly={readOnly} labelId={labelId} error={Boolean(problem)} errorRow={problem?.row} />
      </Box>
      {problem && (
        <FormHelperText error id={errorId} role="alert" data-testid="answer-problem" sx={{ mt: 1, fontSize: '0.875rem' }}>
          {problemText(question, problem)}
        </FormHelperText>
      )}
    </Paper>
  );
});
