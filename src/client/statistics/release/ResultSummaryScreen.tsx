import { Alert, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useQuery } from '@tanstack/react-query';
import { Title, useLocale } from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslate } from '../../i18n/translate';
import type { SummaryQuestion } from '../../../shared/calls/result-releases';
import type { QuestionStatistics } from '../../../shared/statistics/types';
import { titleIn } from '../../../shared/questionnaire/languages';
import { formatDateTime } from '../../common/schoolClock';
import { Loading } from '../../common/Loading';
import { RecordNotFound } from '../../common/RecordNotFound';
import { ChoiceSummary, GridSummary, ScaleSummary } from '../detail/Summaries';
import { questionTypeKey } from '../labels';
import { fetchMySummary } from './api';

const NO_FILTER = {};

/** The figures of one question as the statistics charts draw them (they take the detail's question). */
function Figures({ id, question }: { id: number; question: SummaryQuestion }) {
  const summary = question.summary;
  if (!summary) return null;
  const asDetail = { ...question, required: false, summary } as QuestionStatistics;
  if (summary.kind === 'choices') return <ChoiceSummary id={id} filter={NO_FILTER} question={asDetail} summary={summary} otherTexts={false} />;
  if (summary.kind === 'grid') return <GridSummary question={asDetail} summary={summary} />;
  return <ScaleSummary question={asDetail} summary={summary} />;
}

/** The text answers staff marked shown, or a line saying there are none. */
function ShownTexts({ question }: { question: SummaryQuestion }) {
  const translate = useTranslate();
  if (!question.texts) return null;
  if (!question.texts.length)
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="summary-no-texts">
        {translate('qe.resultRelease.summary.noTexts')}
      </Typography>
    );
  return (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={translate('qe.resultRelease.summary.texts', { title: question.title })} data-testid="summary-texts">
      {question.texts.map((text, i) => (
        <Box component="li" key={i} sx={{ p: 1.5, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="summary-text">
          {text}
        </Box>
      ))}
    </Stack>
  );
}

/**
 * QuestionnaireFillingResults: a summary released to me (GET /v1/my/result-summaries/{id};
 * docs/product-rules.md#results-released) — the charts of the choice, scale and grid questions and
 * the text answers marked shown, in my language, made for a phone. Not released to me, or
 * withdrawn: the server's refusal (738) in my language.
 */
export function ResultSummaryScreen() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const locale = useLocale();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({ queryKey: ['my', 'result-summaries', id, locale], queryFn: () => fetchMySummary(id), enabled: valid, retry: false, refetchOnWindowFocus: false });
  const title = translate('qe.menu.QuestionnaireFillingResults');
  const back = (
    <Button startIcon={<ArrowBackIcon />} onClick={() => navigate('/questionnaire-filling/list')} sx={{ alignSelf: 'flex-start' }} data-testid="summary-back">
      {translate('qe.resultRelease.summary.back')}
    </Button>
  );
  if (!valid) return <RecordNotFound title={title} />;
  if (query.isError)
    return (
      <Stack spacing={1} sx={{ py: 1 }}>
        <Title title={title} />
        {back}
        <Alert severity="info" data-testid="summary-refused">
          {(query.error as Error)?.message || translate('qe.error.tryLater')}
        </Alert>
      </Stack>
    );
  if (query.isPending) return <Loading />;
  const summary = query.data;
  const q = summary.questionnaire;
  return (
    <Stack spacing={2} sx={{ py: 1, minWidth: 0 }} data-testid="result-summary">
      <Title title={title} />
      {back}
      <Paper variant="outlined" sx={{ p: 2, borderTop: 6, borderTopColor: 'primary.main' }}>
        <Typography component="h2" variant="h5" sx={{ overflowWrap: 'anywhere' }} data-testid="summary-title">
          {titleIn(q, locale === 'en' ? 'en' : 'zh-hk')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
          {translate('qe.resultRelease.summary.facts', { replies: summary.replyCount, end: formatDateTime(q.endDate), at: formatDateTime(q.releasedAt) })}
        </Typography>
      </Paper>
      {summary.questions.map((question) => (
        <Paper key={question.id} variant="outlined" component="section" aria-labelledby={`summary-q-${question.id}`} sx={{ p: 2, minWidth: 0 }} data-testid={`summary-question-${question.id}`}>
          {question.sectionTitle && (
            <Typography variant="overline" component="div" sx={{ color: 'text.secondary', lineHeight: 1.5, overflowWrap: 'anywhere' }}>
              {question.sectionTitle}
            </Typography>
          )}
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
            <Typography component="h3" variant="subtitle1" id={`summary-q-${question.id}`} sx={{ fontWeight: 500, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', flex: '1 1 200px' }}>
              {translate('qe.statistics.question.title', { n: question.number, title: question.title })}
            </Typography>
            <Chip size="small" variant="outlined" label={translate(questionTypeKey(question.type))} />
          </Box>
          <Typography variant="body2" sx={{ mt: 1, mb: 1, fontWeight: 500 }}>
            {translate('qe.statistics.question.answered', { n: question.answered })}
          </Typography>
          <Figures id={q.id} question={question} />
          <ShownTexts question={question} />
        </Paper>
      ))}
    </Stack>
  );
}

