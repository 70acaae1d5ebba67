import { Box, Button, Chip, List, ListItem, ListItemButton, Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { Link } from 'react-router-dom';
import { fillingPath } from '../filling/model';
import { DashboardCard, EmptyLine } from './DashboardCard';
import { EndDate } from './EndDate';
import type { Dashboard } from './useDashboard';
import { useLocale } from 'react-admin';
import { titleIn } from '../../shared/questionnaire/languages';

/**
 * To answer: the questionnaires open now that I have not submitted, in the server's order
 * (soonest end first), each opening the answer screen as the filling list does; "see all" leads
 * to that list when there are more than shown.
 */
export function ToAnswerCard({ data }: { data: NonNullable<Dashboard['toAnswer']> }) {
  const translate = useTranslate();
  const lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  return (
    <DashboardCard title={translate('qe.dashboard.toAnswer.title')} testId="dashboard-to-answer">
      {data.list.length === 0 ? (
        <EmptyLine text={translate('qe.dashboard.toAnswer.empty')} testId="to-answer-empty" />
      ) : (
        <List disablePadding>
          {data.list.map((q) => (
            <ListItem key={q.id} disablePadding divider>
              {/* open and not submitted: the detail (fill-in) route, as the filling list opens such a questionnaire */}
              <ListItemButton component={Link} to={fillingPath('detail', q.id)} data-testid="to-answer-item" data-id={q.id} sx={{ px: 1, display: 'block' }}>
                <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="to-answer-title">
                  {titleIn(q, lang)}
                </Typography>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                  <EndDate endDate={q.endDate} />
                  {q.type === 'ANONYMOUS' && <Chip size="small" variant="outlined" label={translate('qe.filling.anonymous')} />}
                </Box>
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
      {data.total > data.list.length && (
        <Button component={Link} to={fillingPath('list')} size="small" sx={{ mt: 1 }} data-testid="to-answer-all">
          {translate('qe.dashboard.seeAll', { count: data.total })}
        </Button>
      )}
    </DashboardCard>
  );
}
