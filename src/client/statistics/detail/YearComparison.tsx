import { Alert, Box, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { StatisticsComparison, StatisticsDetail, StatisticsFilter } from '../../../shared/statistics/types';
import { comparisonColumns, trendLines, yearNameOf, type ComparisonFigure } from '../../../shared/statistics/comparison';
import { fetchComparison, filterQuery, STATISTICS } from '../api';
import { formatPercent } from '../labels';
import { ScrollRegion } from '../../common/ScrollRegion';
import { Loading } from '../../common/Loading';
import { VISUALLY_HIDDEN } from '../../common/visuallyHidden';
import { ExportButton, useMayStatistics } from './ExportButton';
import { ComparisonPdfButton } from '../pdf/ComparisonPdfButton';
import { LazyTrendChart } from '../charts/lazy';
import type { Lang } from '../../../shared/i18n/text';

type Member = StatisticsComparison['series'][number];
type Row = StatisticsComparison['questions'][number];

/** A year's figure as the screen shows it: percent (count), a mean or median, or a dash. */
function shown(figure: ComparisonFigure): string {
  if (figure === null) return '—';
  if (typeof figure === 'number') return String(figure);
  return `${formatPercent(figure.percent)} (${figure.count})`;
}

/** One question, a row per year: its figures, "not asked that year" or "withheld". */
function QuestionYears({ row, series, mean, median }: { row: Row; series: Member[]; mean: string; median: string }) {
  const translate = useTranslate();
  const locale = useLocale();
  const titleId = useId();
  const columns = comparisonColumns(row);
  const span = 2 + columns.length;
  const trend = trendLines(row, series);
  const yearName = (m: Member) => yearNameOf(m, locale === 'en' ? 'en' : 'zh-hk');
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2, minWidth: 0 }} data-testid={`years-question-${row.id}`}>
      <Typography component="h3" variant="subtitle1" id={titleId} sx={{ fontWeight: 500, overflowWrap: 'anywhere', mb: 1 }}>
        {row.title}
      </Typography>
      <ScrollRegion label={translate('qe.statistics.years.caption', { title: row.title })}>
        <Table size="small">
          <Box component="caption" sx={VISUALLY_HIDDEN}>
            {translate('qe.statistics.years.caption', { title: row.title })}
          </Box>
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">{translate('qe.statistics.years.year')}</TableCell>
              <TableCell component="th" scope="col" align="right">{translate('qe.statistics.years.answered')}</TableCell>
              {columns.map((c) => (
                <TableCell key={c.key} component="th" scope="col" align="right">{c.label ?? (c.kind === 'mean' ? mean : median)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {series.map((m, i) => {
              const q = row.years[i];
              const head = <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>{yearName(m)}</TableCell>;
              if (!q || m.withheld) {
                const text = !q ? translate('qe.statistics.years.notAsked') : translate('qe.statistics.years.withheld', { n: m.withheld!.minGroupSize });
                return (
                  <TableRow key={m.questionnaire.id} data-testid="years-row">
                    {head}
                    <TableCell colSpan={span - 1} sx={{ color: 'text.secondary' }}>{text}</TableCell>
                  </TableRow>
                );
              }
              return (
                <TableRow key={m.questionnaire.id} data-testid="years-row">
                  {head}
                  <TableCell align="right">{q.answered}</TableCell>
                  {columns.map((c) => (
                    <TableCell key={c.key} align="right" sx={{ whiteSpace: 'nowrap' }}>{shown(c.figure(q))}</TableCell>
                  ))}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </ScrollRegion>
      {trend.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <LazyTrendChart label={translate('qe.statistics.years.trend', { title: row.title })} years={series.map(yearName)} lines={trend} />
        </Box>
      )}
    </Paper>
  );
}

/**
 * "Across years": the questionnaire's series (itself and those copied from it or it from them)
 * year by year, for the detail's filter (GET /v1/statistics/{id}/comparison): per question, a row
 * per year with how many answered and its figures (`comparisonColumns`): each option's, scale
 * point's or grid cell's percent and count, a scale's mean and median. A question one year did not ask says so; a withheld year says why.
 */
export function YearComparison({ id, filter, groups, title, language }: { id: number; filter: StatisticsFilter; groups: StatisticsDetail['groups']; title: string; language?: Lang }) {
  const translate = useTranslate();
  const mayPrint = useMayStatistics('print');
  const query = useQuery({
    queryKey: [STATISTICS, 'comparison', id, filterQuery(filter), useLocale()],
    queryFn: () => fetchComparison(id, filter),
    retry: false,
    refetchOnWindowFocus: false,
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <Alert severity="error">{(query.error as Error)?.message || translate('qe.error.tryLater')}</Alert>;
  const { series, questions } = query.data;
  if (series.length < 2) {
    return (
      <Typography sx={{ color: 'text.secondary' }} data-testid="years-only">
        {translate('qe.statistics.years.only')}
      </Typography>
    );
  }
  const mean = translate('qe.statistics.scale.mean');
  const median = translate('qe.statistics.scale.median');
  return (
    <Stack spacing={2} data-testid="statistics-years">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>{translate('qe.statistics.years.intro')}</Typography>
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0, alignItems: 'center' }}>
          <ExportButton id={id} title={title} filter={filter} language={language} comparison />
          {mayPrint && <ComparisonPdfButton id={id} comparison={query.data} groups={groups} filter={filter} title={title} language={language} />}
        </Stack>
      </Stack>
      {questions.map((row) => (
        <QuestionYears key={row.id} row={row} series={series} mean={mean} median={median} />
      ))}
    </Stack>
  );
}
