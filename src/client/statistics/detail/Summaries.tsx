import { useState, type ReactNode } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, ToggleButton, ToggleButtonGroup, Typography, useMediaQuery } from '@mui/material';
import BarChartIcon from '@mui/icons-material/BarChart';
import PieChartIcon from '@mui/icons-material/PieChart';
import { useTranslate } from '../../i18n/translate';
import { OTHER } from '../../../shared/questionnaire/answers';
import type { QuestionStatistics, QuestionSummary, StatisticsFilter } from '../../../shared/statistics/types';
import { gridCells, summaryLines, type SummaryLine } from '../../../shared/statistics/rows';
import { LazyChoiceChart, LazyGridChart, LazyValueChart } from '../charts/lazy';
import { formatNumber, formatPercent } from '../labels';
import { TextAnswers } from './TextAnswers';
import { VISUALLY_HIDDEN } from '../../common/visuallyHidden';

type Summary<K extends QuestionSummary['kind']> = Extract<QuestionSummary, { kind: K }>;

const numeric = { textAlign: 'right', whiteSpace: 'nowrap' } as const;

/** A small table with a caption for screen readers; scrolls sideways rather than widen a phone's page. */
function SummaryTable({ caption, head, children, testId }: { caption: string; head: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <TableContainer sx={{ overflowX: 'auto', maxWidth: '100%' }}>
      <Table size="small" data-testid={testId} sx={{ '& td, & th': { px: 1 } }}>
        <caption style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{caption}</caption>
        <TableHead>{head}</TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}

/** Table and chart side by side on a wide screen, one above the other on a phone. */
function TableAndChart({ table, chart }: { table: ReactNode; chart: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' }, gap: 2, alignItems: 'start' }}>
      <Box sx={{ minWidth: 0 }}>{table}</Box>
      <Box sx={{ minWidth: 0 }}>{chart}</Box>
    </Box>
  );
}

/** The 'other' texts of a choice question, in a dialog over the results. */
function OtherTexts({ id, filter, question }: { id: number; filter: StatisticsFilter; question: QuestionStatistics }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const phone = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid={`other-texts-${question.id}`}>
        {translate('qe.statistics.choices.showOther')}
      </Button>
      {open && (
        <Dialog open onClose={() => setOpen(false)} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby={`other-title-${question.id}`}>
          <DialogTitle id={`other-title-${question.id}`} sx={{ overflowWrap: 'anywhere' }}>
            {translate('qe.statistics.choices.otherTitle', { title: question.title })}
          </DialogTitle>
          <DialogContent>
            <TextAnswers id={id} filter={filter} questionId={question.id} part="other" />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>{translate('qe.common.close')}</Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}

/** RADIO, CHECKBOX, DROPDOWN: each choice's count and share, a bar (checkbox, dropdown) or pie (radio) chart the user may switch. */
export function ChoiceSummary({
  id,
  filter,
  question,
  summary,
  otherTexts = true,
}: {
  id: number;
  filter: StatisticsFilter;
  question: QuestionStatistics;
  summary: Summary<'choices'>;
  /** whether the 'other' texts may be opened (staff); a released summary counts them only */
  otherTexts?: boolean;
}) {
  const translate = useTranslate();
  const [kind, setKind] = useState<'bar' | 'pie'>(question.type === 'RADIO' ? 'pie' : 'bar');
  const lines = summaryLines(summary).map((c) => (c.id === OTHER ? { ...c, label: c.label || translate('qe.question.other') } : c));
  const hasOther = summary.choices.some((c) => c.id === OTHER && c.count > 0);
  const table = (
    <>
      <SummaryTable
        caption={translate('qe.statistics.choices.caption', { title: question.title })}
        testId={`choices-${question.id}`}
        head={
          <TableRow>
            <TableCell>{translate('qe.statistics.choices.option')}</TableCell>
            <TableCell sx={numeric}>{translate('qe.statistics.count')}</TableCell>
            <TableCell sx={numeric}>{translate('qe.statistics.percent')}</TableCell>
          </TableRow>
        }
      >
        {lines.map((c) => (
          <TableRow key={c.id} data-testid="choice-row">
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{c.label}</TableCell>
            <TableCell sx={numeric}>{c.count}</TableCell>
            <TableCell sx={numeric}>{formatPercent(c.percent)}</TableCell>
          </TableRow>
        ))}
      </SummaryTable>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 0.5 }}>
        {translate(question.type === 'CHECKBOX' ? 'qe.statistics.choices.baseMulti' : 'qe.statistics.choices.base', { n: summary.base })}
      </Typography>
      {hasOther && otherTexts && <OtherTexts id={id} filter={filter} question={question} />}
    </>
  );
  const chart =
    summary.base > 0 ? (
      <Box>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 0.5 }}>
          <ToggleButtonGroup size="small" exclusive value={kind} onChange={(_e, v) => v && setKind(v)} aria-label={translate('qe.statistics.chart.kind')}>
            <ToggleButton value="bar" aria-label={translate('qe.statistics.chart.bar')} title={translate('qe.statistics.chart.bar')}>
              <BarChartIcon fontSize="small" />
            </ToggleButton>
            <ToggleButton value="pie" aria-label={translate('qe.statistics.chart.pie')} title={translate('qe.statistics.chart.pie')}>
              <PieChartIcon fontSize="small" />
            </ToggleButton>
          </ToggleButtonGroup>
        </Box>
        <LazyChoiceChart label={translate('qe.statistics.chart.label', { title: question.title })} kind={kind} items={lines} />
      </Box>
    ) : null;
  return <TableAndChart table={table} chart={chart} />;
}

/** GRID_RADIO, GRID_CHECKBOX: rows × columns, each cell's count and its share of those who answered the row; a stacked bar per row. */
export function GridSummary({ question, summary }: { question: QuestionStatistics; summary: Summary<'grid'> }) {
  const translate = useTranslate();
  const answered = summary.rows.some((r) => r.base > 0);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <SummaryTable
        caption={translate('qe.statistics.grid.caption', { title: question.title })}
        testId={`grid-${question.id}`}
        head={
          <TableRow>
            <TableCell>
              <Box component="span" sx={VISUALLY_HIDDEN}>
                {translate('qe.common.rowHeader')}
              </Box>
            </TableCell>
            {summary.columns.map((c) => (
              <TableCell key={c.id} sx={{ ...numeric, whiteSpace: 'normal', minWidth: 72 }}>
                {c.label}
              </TableCell>
            ))}
            <TableCell sx={numeric}>{translate('qe.statistics.grid.answered')}</TableCell>
          </TableRow>
        }
      >
        {summary.rows.map((r) => (
          <TableRow key={r.id} data-testid="grid-row">
            <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere', minWidth: 96 }}>
              {r.label}
            </TableCell>
            {gridCells(summary, r).map((cell) => (
              <TableCell key={cell.id} sx={numeric}>
                {cell.count}
                <Typography component="span" variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
                  {formatPercent(cell.percent)}
                </Typography>
              </TableCell>
            ))}
            <TableCell sx={numeric}>{r.base}</TableCell>
          </TableRow>
        ))}
      </SummaryTable>
      {answered && <LazyGridChart label={translate('qe.statistics.chart.label', { title: question.title })} columns={summary.columns} rows={summary.rows} />}
    </Box>
  );
}

function ValueTable({ caption, lines, testId, head }: { caption: string; lines: SummaryLine[]; testId: string; head: string }) {
  const translate = useTranslate();
  return (
    <SummaryTable
      caption={caption}
      testId={testId}
      head={
        <TableRow>
          <TableCell>{head}</TableCell>
          <TableCell sx={numeric}>{translate('qe.statistics.count')}</TableCell>
          <TableCell sx={numeric}>{translate('qe.statistics.percent')}</TableCell>
        </TableRow>
      }
    >
      {lines.map((v) => (
        <TableRow key={v.id} data-testid="value-row">
          <TableCell>{v.label}</TableCell>
          <TableCell sx={numeric}>{v.count}</TableCell>
          <TableCell sx={numeric}>{formatPercent(v.percent)}</TableCell>
        </TableRow>
      ))}
    </SummaryTable>
  );
}

/** LINEAR_SCALE: mean and median, every point's count and share, bars of the points. */
export function ScaleSummary({ question, summary }: { question: QuestionStatistics; summary: Summary<'scale'> }) {
  const translate = useTranslate();
  const stat = (name: 'mean' | 'median', value: number | null) => (
    <Box data-testid={`scale-${name}`}>
      <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
        {translate(`qe.statistics.scale.${name}`)}
      </Typography>
      <Typography variant="h6" component="div">
        {formatNumber(value)}
      </Typography>
    </Box>
  );
  const ends = [summary.minLabel && `${summary.min} = ${summary.minLabel}`, summary.maxLabel && `${summary.max} = ${summary.maxLabel}`].filter(Boolean).join(' · ');
  const table = (
    <>
      <Box sx={{ display: 'flex', gap: 3, mb: 1 }}>
        {stat('mean', summary.mean)}
        {stat('median', summary.median)}
      </Box>
      {ends && (
        <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mb: 1, overflowWrap: 'anywhere' }}>
          {ends}
        </Typography>
      )}
      <ValueTable caption={translate('qe.statistics.scale.caption', { title: question.title })} lines={summaryLines(summary)} testId={`scale-${question.id}`} head={translate('qe.statistics.scale.point')} />
    </>
  );
  const chart = summary.base > 0 ? <LazyValueChart label={translate('qe.statistics.chart.label', { title: question.title })} values={summary.points} /> : null;
  return <TableAndChart table={table} chart={chart} />;
}

/** Beyond this many different dates or times, the bars would be too thin to read: the table alone. */
const MAX_CHART_VALUES = 40;

/** DATE, TIME: each value given and how many gave it, in order. */
export function DistributionSummary({ question, summary }: { question: QuestionStatistics; summary: Summary<'distribution'> }) {
  const translate = useTranslate();
  if (summary.values.length === 0) return null;
  const table = (
    <Box sx={{ maxHeight: 360, overflowY: 'auto' }}>
      <ValueTable
        caption={translate('qe.statistics.distribution.caption', { title: question.title })}
        lines={summaryLines(summary)}
        testId={`distribution-${question.id}`}
        head={translate(question.type === 'TIME' ? 'qe.statistics.distribution.time' : 'qe.statistics.distribution.date')}
      />
    </Box>
  );
  const chart = summary.values.length <= MAX_CHART_VALUES ? <LazyValueChart label={translate('qe.statistics.chart.label', { title: question.title })} values={summary.values} /> : null;
  return <TableAndChart table={table} chart={chart} />;
}
