import { lazy, Suspense, type ComponentProps } from 'react';
import { Box, CircularProgress } from '@mui/material';
import type { ChoiceChartProps } from './ChoiceChart';
import type { GridChartProps } from './GridChart';
import type { ValueChartProps } from './ValueChart';
import type { TrendChartProps } from './TrendChart';

/**
 * The statistics charts, loaded on demand: chart.js and react-chartjs-2 stay out of the first
 * bundle (docs/architecture.md#the-client). Each chart module registers the chart.js parts it needs (setup.ts).
 */
const ChoiceChart = lazy(() => import('./ChoiceChart'));
const GridChart = lazy(() => import('./GridChart'));
const ValueChart = lazy(() => import('./ValueChart'));
const TrendChart = lazy(() => import('./TrendChart'));

function ChartFallback({ height = 200 }: { height?: number }) {
  return (
    <Box sx={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }} data-testid="chart-loading">
      <CircularProgress size={24} />
    </Box>
  );
}

export function LazyChoiceChart(props: ChoiceChartProps) {
  return (
    <Suspense fallback={<ChartFallback />}>
      <ChoiceChart {...props} />
    </Suspense>
  );
}

export function LazyGridChart(props: GridChartProps) {
  return (
    <Suspense fallback={<ChartFallback />}>
      <GridChart {...props} />
    </Suspense>
  );
}

export function LazyValueChart(props: ComponentProps<typeof ValueChart>) {
  return (
    <Suspense fallback={<ChartFallback />}>
      <ValueChart {...props} />
    </Suspense>
  );
}

export function LazyTrendChart(props: TrendChartProps) {
  return (
    <Suspense fallback={<ChartFallback height={220} />}>
      <TrendChart {...props} />
    </Suspense>
  );
}

export type { ChoiceChartProps, GridChartProps, TrendChartProps, ValueChartProps };
