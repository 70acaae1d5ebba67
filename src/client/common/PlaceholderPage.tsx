import { Card, CardContent, Typography } from '@mui/material';
import ConstructionIcon from '@mui/icons-material/Construction';
import { Title, useTranslate } from 'react-admin';

/** A screen of the route table that a later piece of work builds: it says so and does nothing else. */
export function PlaceholderPage({ titleKey, area }: { titleKey: string; area: string }) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate(titleKey)} />
      <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <ConstructionIcon color="disabled" fontSize="large" />
        <div>
          <Typography variant="h6" component="h1">
            {translate(titleKey)}
          </Typography>
          <Typography color="text.secondary" data-testid="placeholder">
            {translate('qe.placeholder.body', { area: translate(area) })}
          </Typography>
        </div>
      </CardContent>
    </Card>
  );
}
