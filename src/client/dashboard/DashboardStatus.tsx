import { Alert, Button, Card, CardContent, LinearProgress, Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';

/** While the home screen's call runs: a bar and a line saying what is coming. */
export function DashboardLoading() {
  const translate = useTranslate();
  return (
    <Card data-testid="dashboard-loading">
      <CardContent>
        <LinearProgress aria-label={translate('qe.dashboard.loading')} />
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {translate('qe.dashboard.loading')}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** The call failed: say so, and offer to try again (the greeting and shortcuts stay usable). */
export function DashboardError({ onRetry }: { onRetry: () => void }) {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      data-testid="dashboard-error"
      action={
        <Button color="inherit" size="small" onClick={onRetry} data-testid="dashboard-retry">
          {translate('qe.dashboard.retry')}
        </Button>
      }
    >
      {translate('qe.error.tryLater')}
    </Alert>
  );
}
