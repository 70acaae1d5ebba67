import { Box } from '@mui/material';
import { Bar } from 'react-chartjs-2';
import { barHeight, colour, shorten } from './setup';

export interface GridChartProps {
  label: string;
  columns: { id: string; label: string }[];
  rows: { label: string; cells: { id: string; count: number; percent: number }[] }[];
}

/** A grid question: one stacked bar per row, a segment per column (its count; the tooltip adds the row's percentage). */
export default function GridChart({ label, columns, rows }: GridChartProps) {
  const cell = (row: GridChartProps['rows'][number], columnId: string) => row.cells.find((c) => c.id === columnId);
  return (
    <Box sx={{ position: 'relative', height: barHeight(rows.length) + 40, width: '100%' }} data-testid="grid-chart">
      <Bar
        role="img"
        aria-label={label}
        data={{
          labels: rows.map((r) => shorten(r.label)),
          datasets: columns.map((c, i) => ({ label: c.label, data: rows.map((r) => cell(r, c.id)?.count ?? 0), backgroundColor: colour(i) })),
        }}
        options={{
          indexAxis: 'y',
          responsive: true,
          maintainAspectRatio: false,
          plugins: {
            legend: { position: 'bottom', labels: { boxWidth: 12 } },
            tooltip: {
              callbacks: {
                title: (ctx: { dataIndex: number }[]) => rows[ctx[0]?.dataIndex ?? 0]?.label ?? '',
                label: (ctx: { dataIndex: number; datasetIndex: number }) => {
                  const found = cell(rows[ctx.dataIndex], columns[ctx.datasetIndex].id);
                  return ` ${columns[ctx.datasetIndex].label}: ${found?.count ?? 0} (${found?.percent ?? 0}%)`;
                },
              },
            },
          },
          scales: { x: { stacked: true, beginAtZero: true, ticks: { precision: 0 } }, y: { stacked: true } },
        }}
        fallbackContent={label}
      />
    </Box>
  );
}
