import { Box } from '@mui/material';
import { Bar, Pie } from 'react-chartjs-2';
import { barHeight, colour, shorten } from './setup';

export interface ChoiceChartProps {
  /** what the chart is about, for screen readers (the question's title) */
  label: string;
  kind: 'bar' | 'pie';
  items: { label: string; count: number; percent: number }[];
}

/**
 * The counts of a choice question: horizontal bars (long option texts stay readable on a phone)
 * or a pie. The tooltip gives the count and the server's percentage.
 */
export default function ChoiceChart({ label, kind, items }: ChoiceChartProps) {
  const labels = items.map((i) => i.label);
  const tooltip = { callbacks: { label: (ctx: { dataIndex: number }) => ` ${items[ctx.dataIndex].count} (${items[ctx.dataIndex].percent}%)` } };
  if (kind === 'pie') {
    return (
      <Box sx={{ position: 'relative', height: 280, maxWidth: 480, width: '100%', mx: 'auto' }} data-testid="choice-chart" data-kind="pie">
        <Pie
          role="img"
          aria-label={label}
          data={{ labels, datasets: [{ data: items.map((i) => i.count), backgroundColor: items.map((_, i) => colour(i)) }] }}
          options={{ responsive: true, maintainAspectRatio: false, plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } }, tooltip } }}
          fallbackContent={label}
        />
      </Box>
    );
  }
  return (
    <Box sx={{ position: 'relative', height: barHeight(items.length), width: '100%' }} data-testid="choice-chart" data-kind="bar">
      <Bar
        role="img"
        aria-label={label}
        data={{ labels: labels.map((l) => shorten(l)), datasets: [{ data: items.map((i) => i.count), backgroundColor: colour(0) }] }}
        options={{
          indexAxis: 'y',
          responsive: true,
          maintainAspectRatio: false,
          plugins: { legend: { display: false }, tooltip: { ...tooltip, callbacks: { ...tooltip.callbacks, title: (ctx: { dataIndex: number }[]) => labels[ctx[0]?.dataIndex ?? 0] } } },
          scales: { x: { beginAtZero: true, ticks: { precision: 0 } } },
        }}
        fallbackContent={label}
      />
    </Box>
  );
}
