import { Box, Link, Paper, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useLocale } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from '../i18n/translate';
import { titleIn } from '../../shared/questionnaire/languages';
import { formatDateTime } from '../common/schoolClock';
import { MY_SUMMARIES_KEY, fetchMySummaries, resultsPath } from '../statistics/release/api';

/**
 * "Results released to me" above my questionnaire list (docs/product-rules.md#results-released):
 * the summaries of finished questionnaires released to me — as a respondent who replied, a chosen
 * member of staff, or the person in charge — each a "Results" entry that opens it. Nothing when
 * none is released to me.
 */
export function ReleasedResults() {
  const translate = useTranslate();
  const locale = useLocale();
  const query = useQuery({ queryKey: MY_SUMMARIES_KEY, queryFn: fetchMySummaries, retry: false });
  const list = query.data?.list ?? [];
  if (!list.length) return null;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="released-results-title" sx={{ p: 2, mt: 1, minWidth: 0 }} data-testid="released-results">
      <Typography id="released-results-title" component="h2" variant="subtitle1" sx={{ fontWeight: 500, mb: 1 }}>
        {translate('qe.resultRelease.mine.title')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {list.map((q) => {
          const title = titleIn(q, locale === 'en' ? 'en' : 'zh-hk');
          return (
            <Box component="li" key={q.id} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'baseline', minWidth: 0 }} data-testid="released-result">
              <Typography component="span" sx={{ overflowWrap: 'anywhere', flex: '1 1 180px' }}>
                {title}
              </Typography>
              <Typography component="span" variant="caption" sx={{ color: 'text.secondary' }}>
                {translate('qe.resultRelease.mine.releasedAt', { at: formatDateTime(q.releasedAt) })}
              </Typography>
              <Link component={RouterLink} to={resultsPath(q.id)} aria-label={translate('qe.resultRelease.mine.openLabel', { title })} data-testid="released-result-open">
                {translate('qe.resultRelease.mine.open')}
              </Link>
            </Box>
          );
        })}
      </Box>
    </Paper>
  );
}
