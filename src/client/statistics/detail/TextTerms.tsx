import { Box, Chip, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslate } from '../../i18n/translate';
import type { StatisticsFilter } from '../../../shared/statistics/types';
import { fetchTerms, filterQuery, STATISTICS } from '../api';
import { VISUALLY_HIDDEN } from '../../common/visuallyHidden';

export interface TextTermsProps {
  id: number;
  filter: StatisticsFilter;
  questionId: string;
  part: 'answer' | 'other';
  /** the term whose answers are shown, or null: all of them */
  chosen: string | null;
  onChoose: (term: string | null) => void;
}

/**
 * The most frequent words and phrases of a question's texts (GET /v1/statistics/{id}/terms), each
 * with how many answers use it; choosing one shows only those answers, choosing it again all.
 * Nothing shows while there are none (no texts yet, or results withheld: the list says why).
 */
export function TextTerms({ id, filter, questionId, part, chosen, onChoose }: TextTermsProps) {
  const translate = useTranslate();
  const labelId = useId();
  const query = useQuery({
    queryKey: [STATISTICS, 'terms', id, questionId, part, filterQuery(filter)],
    queryFn: () => fetchTerms(id, filter, questionId, part),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const terms = query.data?.list ?? [];
  if (!terms.length) return null;
  return (
    <Box role="group" aria-labelledby={labelId} sx={{ mb: 1.5 }} data-testid={`terms-${questionId}-${part}`}>
      <Typography id={labelId} variant="body2" sx={{ fontWeight: 500 }}>
        {translate('qe.statistics.texts.terms')}
      </Typography>
      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mb: 0.5 }}>
        {translate('qe.statistics.texts.termsHint')}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75 }}>
        {terms.map(({ term, n }) => {
          const on = term === chosen;
          return (
            <Chip
              key={term}
              component="button"
              clickable
              size="small"
              color={on ? 'primary' : 'default'}
              variant={on ? 'filled' : 'outlined'}
              aria-pressed={on}
              label={
                <>
                  {term} <Box component="span" sx={{ opacity: 0.75, fontVariantNumeric: 'tabular-nums' }}>{n}</Box>
                  {/* read out, not shown: "12 answers" (the name keeps the visible text, WCAG 2.5.3) */}
                  <Box component="span" sx={VISUALLY_HIDDEN}> {translate('qe.statistics.texts.termUses', { smart_count: n })}</Box>
                </>
              }
              onClick={() => onChoose(on ? null : term)}
              data-testid="term"
              // 24 px at least (WCAG 2.5.8)
              sx={{ minHeight: 28 }}
            />
          );
        })}
      </Stack>
    </Box>
  );
}
