import { Box, Button, LinearProgress, Link as MuiLink, Stack, Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { Link } from 'react-router-dom';
import { percent } from '../../shared/statistics/types';
import { statisticsPath } from '../statistics/api';
import { DashboardCard, EmptyLine } from './DashboardCard';
import { EndDate } from './EndDate';
import { SendReminderButton } from './SendReminderButton';
import { useLocale } from 'react-admin';
import { titleIn } from '../../shared/questionnaire/languages';
import { rateText, type Dashboard, type RunningQuestionnaire } from './useDashboard';

/** One running questionnaire: its title (to its statistics), end date, response rate and, where I may, "send notice". */
function RunningItem({ q }: { q: RunningQuestionnaire }) {
  const translate = useTranslate();
  const rate = rateText(q.submitted, q.respondents);
  const title = titleIn(q, useLocale() === 'en' ? 'en' : 'zh-hk');
  return (
    <Box component="li" sx={{ py: 1, borderBottom: 1, borderColor: 'divider', listStyle: 'none' }} data-testid="running-item" data-id={q.id}>
      <MuiLink component={Link} to={statisticsPath('detail', q.id)} sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="running-title">
        {title}
      </MuiLink>
      <EndDate endDate={q.endDate} />
      <Typography variant="body2" data-testid="running-rate">
        {translate('qe.dashboard.running.rate', { submitted: q.submitted, respondents: q.respondents, rate })}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={Math.min(100, percent(q.submitted, q.respondents))}
        aria-label={translate('qe.dashboard.running.rateLabel', { title, rate })}
        sx={{ my: 0.5, height: 6, borderRadius: 3 }}
      />
      {q.mayRemind && <SendReminderButton id={q.id} title={title} />}
    </Box>
  );
}

/**
 * Questionnaires in progress whose results I read (mine, those I assist; all for whoever reads
 * all results): soonest end first, as the server orders them, with how many have submitted.
 */
export function RunningCard({ data }: { data: NonNullable<Dashboard['running']> }) {
  const translate = useTranslate();
  return (
    <DashboardCard title={translate('qe.dashboard.running.title')} testId="dashboard-running">
      {data.list.length === 0 ? (
        <EmptyLine text={translate('qe.dashboard.running.empty')} testId="running-empty" />
      ) : (
        <Stack component="ul" sx={{ m: 0, p: 0 }}>
          {data.list.map((q) => (
            <RunningItem key={q.id} q={q} />
          ))}
        </Stack>
      )}
      {data.total > data.list.length && (
        <Button component={Link} to={statisticsPath('list')} size="small" sx={{ mt: 1 }} data-testid="running-all">
          {translate('qe.dashboard.seeAll', { count: data.total })}
        </Button>
      )}
    </DashboardCard>
  );
}
