import { useState } from 'react';
import { Alert, Box, Button, InputAdornment, LinearProgress, List, ListItem, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslate } from '../../i18n/translate';
import type { StatisticsFilter } from '../../../shared/statistics/types';
import { fetchTexts, filterQuery, STATISTICS, TEXT_PAGE_SIZES } from '../api';
import { useDebounced } from './useDebounced';
import { WithheldNotice } from './WithheldNotice';
import { Pager } from './Pager';
import { TextTerms } from './TextTerms';

export interface TextAnswersProps {
  id: number;
  filter: StatisticsFilter;
  questionId: string;
  /** a text question's answers, or the 'other' texts of a choice question */
  part: 'answer' | 'other';
}

/**
 * The text answers of one question (GET /v1/statistics/{id}/texts): searched as the user types
 * (debounced, case-insensitive on the server) and paged. The same list shows the 'other' texts
 * of a choice question.
 */
export function TextAnswers({ id, filter, questionId, part }: TextAnswersProps) {
  const translate = useTranslate();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim());
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(TEXT_PAGE_SIZES[0]);
  // a frequent word or phrase chosen above the list: only the answers that use it
  const [term, setTerm] = useState<string | null>(null);
  // a new search or term starts at its first page
  const searched = `${q}\u0000${term ?? ''}`;
  const [pageOf, setPageOf] = useState(searched);
  if (pageOf !== searched) {
    setPageOf(searched);
    setPage(0);
  }
  const query = useQuery({
    queryKey: [STATISTICS, 'texts', id, questionId, part, filterQuery(filter), q, term, page, size],
    queryFn: () => fetchTexts(id, filter, { questionId, part, q, term: term ?? undefined, page: page + 1, size }),
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const data = query.data;
  const label = translate(part === 'other' ? 'qe.statistics.texts.searchOther' : 'qe.statistics.texts.search');

  if (data?.withheld) return <WithheldNotice withheld={data.withheld} />;
  return (
    <Box data-testid={`texts-${questionId}-${part}`}>
      <TextTerms id={id} filter={filter} questionId={questionId} part={part} chosen={term} onChoose={setTerm} />
      {term && (
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }} data-testid="texts-term">
          <Typography variant="body2" role="status">{translate('qe.statistics.texts.usingTerm', { term })}</Typography>
          <Button size="small" onClick={() => setTerm(null)} data-testid="texts-all">
            {translate('qe.statistics.texts.allAnswers')}
          </Button>
        </Box>
      )}
      <TextField
        size="small"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder={label}
        slotProps={{ htmlInput: { 'aria-label': label, 'data-testid': 'texts-search' }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
        sx={{ width: '100%', maxWidth: 360, mb: 1 }}
      />
      <Box sx={{ minHeight: 4 }}>{query.isFetching && <LinearProgress />}</Box>
      {query.isError ? (
        <Alert severity="error">{(query.error as Error)?.message || translate('qe.error.tryLater')}</Alert>
      ) : data && data.list.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', py: 1 }} data-testid="texts-empty">
          {translate(q ? 'qe.statistics.texts.noMatch' : 'qe.statistics.texts.none')}
        </Typography>
      ) : (
        <List dense disablePadding sx={{ bgcolor: 'action.hover', borderRadius: 1 }}>
          {(data?.list ?? []).map((t, i) => (
            <ListItem key={`${t.replyId}-${i}`} divider={i < (data?.list.length ?? 0) - 1} data-testid="text-answer">
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {t.text}
              </Typography>
            </ListItem>
          ))}
        </List>
      )}
      {data && data.total > 0 && (
        <Pager total={data.total} page={page} size={size} sizes={TEXT_PAGE_SIZES} onPage={setPage} onSize={setSize} />
      )}
    </Box>
  );
}
