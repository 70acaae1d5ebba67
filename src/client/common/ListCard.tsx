import type { ReactNode } from 'react';
import { Box, Card, CardActionArea, CardActions, CardContent, Stack, Typography } from '@mui/material';

/** A phone's list: the cards one under another. */
export function ListCards({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Stack spacing={1} sx={{ p: 1 }} data-testid={testId}>
      {children}
    </Stack>
  );
}

/**
 * One row of a list as a card on a phone: its title, chips, and labelled lines; the whole card
 * opens it. Its own actions (edit, delete) sit under it, beside the card's button, not in it.
 */
export function ListCard({ id, testId, title, chips, lines, onOpen, actions }: { id: number | string; testId: string; title: string; chips: ReactNode; lines: ReactNode[]; onOpen: () => void; actions?: ReactNode }) {
  return (
    <Card variant="outlined" data-testid={testId} data-id={id}>
      <CardActionArea onClick={onOpen}>
        <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 500, overflowWrap: 'anywhere', mb: 0.5 }}>
            {title}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 0.5 }}>{chips}</Box>
          {lines.map((line, i) =>
            line ? (
              <Typography key={i} variant="body2" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
                {line}
              </Typography>
            ) : null,
          )}
        </CardContent>
      </CardActionArea>
      {actions && <CardActions sx={{ justifyContent: 'flex-end', pt: 0, pb: 0.5, px: 1 }}>{actions}</CardActions>}
    </Card>
  );
}
