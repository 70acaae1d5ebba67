import { Button, Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { Link } from 'react-router-dom';
import { CenteredCard } from '../auth/CenteredCard';

/** /404: no route matched, or the user may not open it. */
export function NotFoundPage() {
  const translate = useTranslate();
  return (
    <CenteredCard title={translate('qe.notFound.title')}>
      <Typography sx={{ mb: 2 }} data-testid="not-found">
        {translate('qe.notFound.body')}
      </Typography>
      <Button component={Link} to="/" variant="contained">
        {translate('qe.notFound.home')}
      </Button>
    </CenteredCard>
  );
}
