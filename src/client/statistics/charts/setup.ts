import { ArcElement, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';

/**
 * Only the chart.js parts the statistics charts use (bars, pies, their axes, tooltip and
 * legend): the rest of chart.js is left out of the chart chunk. This module is imported by the
 * chart components only, which are loaded lazily (charts/lazy.tsx).
 */
Chart.register(CategoryScale, LinearScale, BarElement, ArcElement, Tooltip, Legend);

/** Colours that stay apart from each other and readable on white (and for most colour-blind readers). */
export const PALETTE = ['#1976d2', '#ef6c00', '#2e7d32', '#c62828', '#6a1b9a', '#00838f', '#ad1457', '#5d4037', '#455a64', '#9e9d24', '#283593', '#00695c'];
export const colour = (i: number) => PALETTE[i % PALETTE.length];

/** Long labels (choices, grid rows) are cut on the axis; the table beside the chart holds them whole. */
export const shorten = (label: string, max = 24) => (label.length > max ? `${label.slice(0, max - 1)}…` : label);

/** The height of a horizontal bar chart: room for every bar, never taller than the screen needs. */
export const barHeight = (bars: number) => Math.min(640, Math.max(140, bars * 34 + 48));
