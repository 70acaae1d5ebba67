import type { ReactNode } from 'react';
import { Box, Chip, Paper, Typography } from '@mui/material';
import { useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { percent, type StatisticsDetail } from '../../../shared/statistics/types';
import { titleIn } from '../../../shared/questionnaire/languages';
import { typeKey } from '../../questionnaires/form/labels';
import { formatDateTime, formatDay } from '../../common/schoolClock';
import { StatusChip } from '../../questionnaires/form/StatusChip';
import { formatPercent, nameOf, statisticsFieldKey } from '../labels';

/**
 * The questionnaire's facts above its results: title, status, type, dates, and how many of the
 * respondents the filter selects have submitted (the response rate is `percent()` of those
 * counts, as the server computes it for the list). `actions` holds the export buttons.
 */
export function DetailHeader({ detail, actions }: { detail: StatisticsDetail; actions?: ReactNode }) {
  const translate = useTranslate();
  const locale = useLocale();
  const q = detail.questionnaire;
  const label = (name: string) => translate(statisticsFieldKey(name));
  const rate = detail.respondentNum > 0 ? percent(detail.submittedNum, detail.respondentNum) : null;
  const fact = (name: string, value: ReactNode, testId?: string) =>
    value === '' || value === null || value === undefined ? null : (
      <Box sx={{ minWidth: 0 }} data-testid={testId}>
        <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
          {label(name)}
        </Typography>
        <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
          {value}
        </Typography>
      </Box>
    );
  return (
    <Paper variant="outlined" sx={{ p: 2, borderTop: 6, borderTopColor: 'primary.main' }} data-testid="statistics-header">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Box sx={{ minWidth: 0, flex: '1 1 260px' }}>
          <Typography component="h2" variant="h5" sx={{ overflowWrap: 'anywhere' }} data-testid="statistics-title">
            {titleIn(q, locale === 'en' ? 'en' : 'zh-hk')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}>
            <StatusChip status={q.status} />
            <Chip size="small" variant="outlined" label={translate(typeKey(q.type))} data-testid="type-chip" />
          </Box>
        </Box>
        {actions && <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{actions}</Box>}
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))', gap: 1.5, mt: 2 }}>
        {fact('responseRate', <strong>{formatPercent(rate)}</strong>, 'fact-rate')}
        {fact('submittedNum', detail.submittedNum, 'fact-submitted')}
        {fact('respondentNum', detail.respondentNum, 'fact-respondents')}
        {fact('schoolYear', q.schoolYear?.name ?? '')}
        {fact('principal', nameOf(q.principal, locale))}
        {fact('openDate', formatDateTime(q.openDate))}
        {fact('endDate', formatDateTime(q.endDate))}
        {fact('createDate', formatDay(q.createDate))}
      </Box>
      {detail.releaseBatch !== null && q.status !== 'FINISHED' && (
        <Typography variant="body2" sx={{ mt: 1.5, color: 'text.secondary' }} data-testid="release-batch-note">
          {translate('qe.statistics.releaseBatch', { n: detail.releaseBatch })}
        </Typography>
      )}
    </Paper>
  );
}
