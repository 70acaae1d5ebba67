import { memo } from 'react';
import { Box, Chip, Paper, Typography } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import type { QuestionStatistics, StatisticsFilter } from '../../../shared/statistics/types';
import { assertNever } from '../../../shared/exhaustive';
import { imageUrl } from '../../questionnaires/respondent/QuestionCard';
import { questionTypeKey } from '../labels';
import { ChoiceSummary, DistributionSummary, GridSummary, ScaleSummary } from './Summaries';
import { TextAnswers } from './TextAnswers';

function Summary({ id, filter, question }: { id: number; filter: StatisticsFilter; question: QuestionStatistics }) {
  const summary = question.summary;
  if (!summary) return null;
  switch (summary.kind) {
    case 'choices':
      return <ChoiceSummary id={id} filter={filter} question={question} summary={summary} />;
    case 'grid':
      return <GridSummary question={question} summary={summary} />;
    case 'scale':
      return <ScaleSummary question={question} summary={summary} />;
    case 'distribution':
      return <DistributionSummary question={question} summary={summary} />;
    case 'texts':
      return summary.base > 0 ? <TextAnswers id={id} filter={filter} questionId={question.id} part="answer" /> : null;
    default:
      return assertNever(summary, 'summary kind');
  }
}

/**
 * One question's results: its number, title, type, description and image as the respondent saw
 * them, how many answered it, and the summary that fits its type. A withheld summary (null) shows
 * nothing: the notice above the results says why.
 */
export const QuestionResult = memo(function QuestionResult({ id, filter, question }: { id: number; filter: StatisticsFilter; question: QuestionStatistics }) {
  const translate = useTranslate();
  const titleId = `stat-q-${question.id}-title`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2, minWidth: 0 }} data-testid={`stat-question-${question.id}`} data-question-type={question.type}>
      {question.sectionTitle && (
        <Typography variant="overline" component="div" sx={{ color: 'text.secondary', lineHeight: 1.5, overflowWrap: 'anywhere' }}>
          {question.sectionTitle}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <Typography component="h3" variant="subtitle1" id={titleId} sx={{ fontWeight: 500, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', flex: '1 1 240px' }}>
          {translate('qe.statistics.question.title', { n: question.number, title: question.title })}
        </Typography>
        <Chip size="small" variant="outlined" label={translate(questionTypeKey(question.type))} data-testid="question-type" />
      </Box>
      {question.description && (
        <Typography variant="body2" sx={{ color: 'text.secondary', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: 0.5 }}>
          {question.description}
        </Typography>
      )}
      {question.image && (
        <Box component="img" src={imageUrl(question.image)} alt={question.title} loading="lazy" sx={{ display: 'block', maxWidth: '100%', maxHeight: 320, objectFit: 'contain', mt: 1, borderRadius: 1 }} />
      )}
      <Typography variant="body2" sx={{ mt: 1, mb: 1, fontWeight: 500 }} data-testid="answered">
        {translate('qe.statistics.question.answered', { n: question.answered })}
      </Typography>
      <Summary id={id} filter={filter} question={question} />
    </Paper>
  );
});
