import type { ReactNode } from 'react';
import { Card, CardContent, Typography } from '@mui/material';

/** One card of the home screen: a heading (h2, under the greeting's h1) and what it shows. */
export function DashboardCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const headingId = `${testId}-title`;
  return (
    <Card component="section" aria-labelledby={headingId} data-testid={testId} sx={{ height: '100%', minWidth: 0 }}>
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** A card's empty state: one quiet line. */
export function EmptyLine({ text, testId }: { text: string; testId: string }) {
  return (
    <Typography color="text.secondary" data-testid={testId}>
      {text}
    </Typography>
  );
}
