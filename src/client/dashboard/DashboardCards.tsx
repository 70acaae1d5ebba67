import type { ReactElement } from 'react';
import { Grid } from '@mui/material';
import type { UserInfo } from '../providers/authProvider';
import { DashboardError, DashboardLoading } from './DashboardStatus';
import { RunningCard } from './RunningCard';
import { SchoolCard } from './SchoolCard';
import { ToAnswerCard } from './ToAnswerCard';
import { useDashboard, type Dashboard } from './useDashboard';

type CardName = keyof Dashboard;

/**
 * A student's first concern is what to answer; staff's the questionnaires in progress (after the
 * school's figures for whoever manages them all, above a list that may be long), then their own answers.
 */
const orderFor = (userType: UserInfo['userType']): CardName[] => (userType === 'STUDENT' ? ['toAnswer', 'running', 'school'] : ['school', 'running', 'toAnswer']);

/** The cards of the data the server gave (a card it answers null does not serve this user), in the user's order. */
export function cardsOf(data: Dashboard, userType: UserInfo['userType']): { name: CardName; card: ReactElement }[] {
  const out: { name: CardName; card: ReactElement }[] = [];
  for (const name of orderFor(userType)) {
    if (name === 'toAnswer' && data.toAnswer) out.push({ name, card: <ToAnswerCard data={data.toAnswer} /> });
    if (name === 'running' && data.running) out.push({ name, card: <RunningCard data={data.running} /> });
    if (name === 'school' && data.school) out.push({ name, card: <SchoolCard data={data.school} /> });
  }
  return out;
}

/**
 * What the user should do next, from one call: one column on a phone, two on a wide screen
 * (a card alone, or the last of an odd number, takes the whole row).
 */
export function DashboardCards({ user }: { user: Pick<UserInfo, 'userId' | 'userType'> }) {
  const query = useDashboard(user.userId);
  if (query.isPending) return <DashboardLoading />;
  if (query.isError) return <DashboardError onRetry={() => void query.refetch()} />;
  const cards = cardsOf(query.data, user.userType);
  return (
    <Grid container spacing={2} data-testid="dashboard-cards">
      {cards.map(({ name, card }, i) => (
        <Grid key={name} size={{ xs: 12, md: cards.length % 2 === 1 && i === cards.length - 1 ? 12 : 6 }} sx={{ minWidth: 0 }}>
          {card}
        </Grid>
      ))}
    </Grid>
  );
}
