import { useState } from 'react';
import { Alert, Box, Button, Checkbox, FormControlLabel, InputAdornment, LinearProgress, List, ListItem, MenuItem, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from '../../i18n/translate';
import type { StatisticsFilter } from '../../../shared/statistics/types';
import { fetchTexts, filterQuery, markTexts, STATISTICS, TEXT_PAGE_SIZES } from '../api';
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
 * of a choice question. A text question's answers are marked shown or hidden for a release
 * (PUT …/texts/marks) by those the server says may mark, and filtered by that mark.
 */
export function TextAnswers({ id, filter, questionId, part }: TextAnswersProps) {
  const translate = useTranslate();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim());
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(TEXT_PAGE_SIZES[0]);
  // a frequent word or phrase chosen above the list: only the answers that use it
  const [term, setTerm] = useState<string | null>(null);
  // the answers marked shown for a release, those not, or all (a text question's own answers only)
  const [marked, setMarked] = useState<'all' | 'shown' | 'hidden'>('all');
  const shown = part === 'answer' && marked !== 'all' ? marked === 'shown' : undefined;
  const [marking, setMarking] = useState(false);
  // the marks asked for, shown at once until the list is read again
  const [asked, setAsked] = useState<Record<string, boolean>>({});
  const queryClient = useQueryClient();
  // a new search, term or mark filter starts at its first page
  const searched = `${q}\u0000${term ?? ''}\u0000${marked}`;
  const [pageOf, setPageOf] = useState(searched);
  if (pageOf !== searched) {
    setPageOf(searched);
    setPage(0);
  }
  const query = useQuery({
    queryKey: [STATISTICS, 'texts', id, questionId, part, filterQuery(filter), q, term, shown, page, size],
    queryFn: () => fetchTexts(id, filter, { questionId, part, q, term: term ?? undefined, shown, page: page + 1, size }),
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const data = query.data;
  const label = translate(part === 'other' ? 'qe.statistics.texts.searchOther' : 'qe.statistics.texts.search');
  const mayMark = part === 'answer' && data?.mayMark === true;
  const mark = async (replyIds: string[], on: boolean) => {
    if (!replyIds.length) return;
    setMarking(true);
    setAsked((before) => ({ ...before, ...Object.fromEntries(replyIds.map((r) => [r, on])) }));
    try {
      await markTexts(id, filter, questionId, replyIds, on);
    } catch {
      // the refusal is on screen already (request's own message); the list is read again as it is
    } finally {
      setMarking(false);
      await queryClient.invalidateQueries({ queryKey: [STATISTICS, 'texts', id, questionId, part] });
      setAsked({});
    }
  };
  const markedLabel = translate('qe.statistics.texts.markedFilter');

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
      {part === 'answer' && (
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
          <TextField
            select
            size="small"
            label={markedLabel}
            value={marked}
            onChange={(e) => setMarked(e.target.value as typeof marked)}
            slotProps={{ htmlInput: { 'data-testid': 'texts-marked' } }}
            sx={{ minWidth: 120 }}
          >
            <MenuItem value="all">{translate('qe.statistics.texts.markedAll')}</MenuItem>
            <MenuItem value="shown">{translate('qe.statistics.texts.markedShown')}</MenuItem>
            <MenuItem value="hidden">{translate('qe.statistics.texts.markedHidden')}</MenuItem>
          </TextField>
          {mayMark && (
            <>
              <Button size="small" disabled={marking || !data?.list.length} onClick={() => void mark((data?.list ?? []).map((t) => t.replyId), true)} data-testid="texts-mark-all-shown">
                {translate('qe.statistics.texts.markAllShown')}
              </Button>
              <Button size="small" disabled={marking || !data?.list.length} onClick={() => void mark((data?.list ?? []).map((t) => t.replyId), false)} data-testid="texts-mark-all-hidden">
                {translate('qe.statistics.texts.markAllHidden')}
              </Button>
            </>
          )}
        </Box>
      )}
      {mayMark && (
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mb: 0.5 }}>
          {translate('qe.statistics.texts.marksHint')}
        </Typography>
      )}
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
            <ListItem key={`${t.replyId}-${i}`} divider={i < (data?.list.length ?? 0) - 1} sx={{ gap: 1, alignItems: 'flex-start' }}>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', flex: 1, minWidth: 0, pt: mayMark ? 0.75 : 0 }} data-testid="text-answer">
                {t.text}
              </Typography>
              {mayMark && (
                <FormControlLabel
                  sx={{ flexShrink: 0, mr: 0 }}
                  label={translate('qe.statistics.texts.markedShown')}
                  control={
                    <Checkbox
                      size="small"
                      checked={asked[t.replyId] ?? t.shown}
                      disabled={marking}
                      onChange={(e) => void mark([t.replyId], e.target.checked)}
                      // the visible label, then which answer (WCAG 2.5.3): the first words are enough to tell them apart
                      slotProps={{ input: { 'aria-label': translate('qe.statistics.texts.markShown', { text: t.text.trim().slice(0, 40) }), 'data-testid': 'text-answer-shown' } as object }}
                    />
                  }
                />
              )}
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
