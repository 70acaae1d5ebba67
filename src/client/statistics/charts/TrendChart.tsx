import { Box } from '@mui/material';
import { LineElement, PointElement, Chart } from 'chart.js';
import { Line } from 'react-chartjs-2';
import { colour, shorten } from './setup';

Chart.register(LineElement, PointElement);

export interface TrendChartProps {
  /** what the chart is about, for screen readers (the question's title); the table beside it has the numbers */
  label: string;
  /** the school years, oldest first */
  years: string[];
  /** one line per option, scale point or grid cell: its percent each year (null: not asked, withheld) */
  lines: { label: string; percents: (number | null)[] }[];
}

/** A question's shares year by year: a line per option, in percent, gaps where a year has none. */
export default function TrendChart({ label, years, lines }: TrendChartProps) {
  return (
    <Box sx={{ position: 'relative', height: 220, width: '100%' }} data-testid="trend-chart">
      <Line
        role="img"
        aria-label={label}
        data={{
          labels: years,
          datasets: lines.map((l, i) => ({ label: shorten(l.label), data: l.percents, borderColor: colour(i), backgroundColor: colour(i), spanGaps: false })),
        }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } }, tooltip: { callbacks: { label: (ctx) => ` ${ctx.dataset.label}: ${ctx.parsed.y}%` } } },
          scales: { y: { beginAtZero: true, suggestedMax: 100, ticks: { callback: (v) => `${v}%` } } },
        }}
        fallbackContent={label}
      />
    </Box>
  );
}
