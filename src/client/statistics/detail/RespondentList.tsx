import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { Alert, Box, Chip, InputAdornment, LinearProgress, MenuItem, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { AnonymousRespondent, NamedRespondent, StatisticsFilter } from '../../../shared/statistics/types';
import { fetchRespondents, filterQuery, RESPONDENT_PAGE_SIZES, STATISTICS, type RespondentQuery } from '../api';
import { formatWhen, nameOf, respondentStatusKey, roleKey, statisticsFieldKey } from '../labels';
import { ReplyDialog } from './ReplyDialog';
import { useDebounced } from './useDebounced';
import { WithheldNotice } from './WithheldNotice';
import { Pager } from './Pager';

const STATUSES = ['SUBMITTED', 'NOT_SUBMITTED'] as const;

function StatusTag({ status }: { status: NamedRespondent['status'] }) {
  const translate = useTranslate();
  return <Chip size="small" variant={status === 'SUBMITTED' ? 'outlined' : 'filled'} color={status === 'SUBMITTED' ? 'success' : 'warning'} label={translate(respondentStatusKey(status))} />;
}

/** A row that opens a reply: by click, and by Enter or Space for keyboard users. */
function rowProps(open: (() => void) | undefined) {
  if (!open) return {};
  return {
    hover: true,
    tabIndex: 0,
    role: 'button',
    onClick: open,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open();
      }
    },
    sx: { cursor: 'pointer' },
  };
}

function Counts({ items }: { items: { label: string; value: number; testId: string }[] }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
      {items.map((i) => (
        <Chip key={i.testId} variant="outlined" label={`${i.label}: ${i.value}`} data-testid={i.testId} />
      ))}
    </Box>
  );
}

/**
 * Who has answered (GET /v1/statistics/{id}/respondents) under the detail's filter. Named: role,
 * name, user no, class and class number, submitted or not — filtered by status, searched by name
 * or user no; anonymous: 'anonymous N' per reply and how many have not submitted, never a name.
 * A reply opens read only.
 */
export function RespondentList({ id, filter, title }: { id: number; filter: StatisticsFilter; title: string }) {
  const translate = useTranslate();
  const locale = useLocale();
  const [status, setStatus] = useState<RespondentQuery['status']>();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim());
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(RESPONDENT_PAGE_SIZES[0]);
  const [opened, setOpened] = useState<{ replyId: string; who: string } | null>(null);
  const [pageOf, setPageOf] = useState({ q, status });
  if (pageOf.q !== q || pageOf.status !== status) {
    setPageOf({ q, status });
    setPage(0);
  }
  const query = useQuery({
    queryKey: [STATISTICS, 'respondents', id, filterQuery(filter), status, q, page, size],
    queryFn: () => fetchRespondents(id, filter, { status, q, page: page + 1, size }),
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const data = query.data;
  const anonymousName = (n: number) => translate('qe.statistics.respondents.anonymous', { n });
  const searchLabel = translate('qe.statistics.respondents.search');

  let body: ReactNode = null;
  if (query.isError) body = <Alert severity="error">{(query.error as Error)?.message || translate('qe.error.tryLater')}</Alert>;
  else if (data?.anonymous) {
    body = (
      <>
        <Counts
          items={[
            { label: translate('qe.statistics.respondents.submittedCount'), value: data.total, testId: 'count-submitted' },
            { label: translate('qe.statistics.respondents.notSubmittedCount'), value: data.notSubmittedNum, testId: 'count-not-submitted' },
          ]}
        />
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {translate('qe.statistics.respondents.anonymousNote')}
        </Typography>
        {data.withheld ? (
          <WithheldNotice withheld={data.withheld} />
        ) : (
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" data-testid="respondents-anonymous">
              <TableHead>
                <TableRow>
                  <TableCell>{translate(statisticsFieldKey('respondent'))}</TableCell>
                  <TableCell>{translate(statisticsFieldKey('submittedAt'))}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.list.map((r: AnonymousRespondent) => (
                  <TableRow key={r.replyId} data-testid="respondent-row" {...rowProps(() => setOpened({ replyId: r.replyId, who: anonymousName(r.number) }))}>
                    <TableCell>{anonymousName(r.number)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatWhen(r.submittedOn)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </>
    );
  } else if (data) {
    const label = (name: string) => translate(statisticsFieldKey(name));
    body = (
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="respondents-named" sx={{ '& th, & td': { px: 1 } }}>
          <TableHead>
            <TableRow>
              {['role', 'name', 'userNo', 'class', 'classNumber', 'respondentStatus', 'submittedAt'].map((name) => (
                <TableCell key={name} sx={{ whiteSpace: 'nowrap' }}>
                  {label(name)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {data.list.map((r: NamedRespondent) => {
              const name = nameOf(r, locale);
              const replyId = r.replyId;
              return (
                <TableRow key={r.feedbackId} data-testid="respondent-row" {...rowProps(replyId ? () => setOpened({ replyId, who: name }) : undefined)}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{translate(roleKey(r.role))}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 96 }}>{name}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.userNo ?? ''}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{nameOf(r.class, locale)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.classNumber ?? ''}</TableCell>
                  <TableCell>
                    <StatusTag status={r.status} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatWhen(r.submittedAt)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    );
  }

  const empty = data && !data.list.length && !(data.anonymous && data.withheld);
  return (
    <Box data-testid="respondent-list">
      {data && !data.anonymous && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
          <TextField
            select
            size="small"
            label={translate(statisticsFieldKey('respondentStatus'))}
            value={status ?? ''}
            onChange={(e) => setStatus((e.target.value || undefined) as RespondentQuery['status'])}
            sx={{ flex: '1 1 150px', maxWidth: { sm: 220 } }}
            data-testid="respondent-status"
          >
            <MenuItem value="">{translate('qe.statistics.filter.all')}</MenuItem>
            {STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {translate(respondentStatusKey(s))}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={searchLabel}
            slotProps={{ htmlInput: { 'aria-label': searchLabel }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
            sx={{ flex: '1 1 200px', maxWidth: { sm: 360 } }}
          />
        </Box>
      )}
      <Box sx={{ minHeight: 4 }}>{query.isFetching && <LinearProgress />}</Box>
      {body}
      {empty && (
        <Typography sx={{ color: 'text.secondary', py: 1 }} data-testid="respondents-empty">
          {translate('qe.statistics.respondents.none')}
        </Typography>
      )}
      {data && data.total > 0 && !(data.anonymous && data.withheld) && (
        <Pager total={data.total} page={page} size={size} sizes={RESPONDENT_PAGE_SIZES} onPage={setPage} onSize={setSize} />
      )}
      {opened && <ReplyDialog id={id} replyId={opened.replyId} who={opened.who} title={title} onClose={() => setOpened(null)} />}
    </Box>
  );
}
