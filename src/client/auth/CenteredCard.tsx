import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';

/** The frame of the screens outside the layout (login, first run, 404): a card centred on the theme colour. */
export function CenteredCard({ title, header, children, footer }: { title: string; header?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'primary.main', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 440 }}>
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          {header}
          <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
            {title}
          </Typography>
          {children}
          {footer}
        </CardContent>
      </Card>
    </Box>
  );
}
