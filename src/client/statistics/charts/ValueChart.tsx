import { Box } from '@mui/material';
import { Bar } from 'react-chartjs-2';
import { colour } from './setup';

export interface ValueChartProps {
  label: string;
  /** a linear scale's points, or the dates / times given */
  values: { value: string; count: number; percent: number }[];
}

/** Upright bars of a linear scale's points (or a date / time distribution), in their order. */
export default function ValueChart({ label, values }: ValueChartProps) {
  return (
    <Box sx={{ position: 'relative', height: 240, width: '100%' }} data-testid="value-chart">
      <Bar
        role="img"
        aria-label={label}
        data={{ labels: values.map((v) => v.value), datasets: [{ data: values.map((v) => v.count), backgroundColor: colour(0) }] }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          plugins: { legend: { display: false }, tooltip: { callbacks: { label: (ctx: { dataIndex: number }) => ` ${values[ctx.dataIndex].count} (${values[ctx.dataIndex].percent}%)` } } },
          scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { autoSkip: true, maxRotation: 60 } } },
        }}
        fallbackContent={label}
      />
    </Box>
  );
}
