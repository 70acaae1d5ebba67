/**
 * The charts of the PDF reports: a bar chart of a choices, grid or scale summary, and a trend
 * (a line per option across years) for the comparison, drawn by chart.js on an off-screen canvas
 * and answered as a PNG image for the page (png.ts).
 */
import { Chart, LineElement, PointElement, type ChartConfiguration } from 'chart.js';
import type { QuestionSummary } from '../../../shared/statistics/types';
import { gridCells } from '../../../shared/statistics/rows';
import { assertNever } from '../../../shared/exhaustive';
import { colour, shorten } from '../charts/setup';
import { PDF_FONT } from './font';
import { rgbPng } from './png';

Chart.register(LineElement, PointElement);

const WHITE_BACKGROUND = {
  id: 'qeWhiteBackground',
  beforeDraw(chart: Chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** Draws one chart on an off-screen canvas, without animation, and answers it as an RGB PNG (png.ts; null without a canvas). */
function drawChart(config: ChartConfiguration<'bar'> | ChartConfiguration<'line'>, width: number, height: number): Uint8Array | null {
  if (typeof document === 'undefined') return null;
  const holder = document.createElement('div');
  holder.style.cssText = `position:fixed;left:-20000px;top:0;width:${width}px;height:${height}px;`;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  holder.appendChild(canvas);
  document.body.appendChild(holder);
  try {
    const context = canvas.getContext('2d');
    if (!context) return null;
    const chart = new Chart(context, {
      ...config,
      options: { ...config.options, animation: false, responsive: false, maintainAspectRatio: false, devicePixelRatio: 1 },
      plugins: [WHITE_BACKGROUND],
    } as ChartConfiguration);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    chart.destroy();
    return rgbPng(pixels, canvas.width, canvas.height);
  } catch {
    return null;
  } finally {
    holder.remove();
  }
}

const chartFont = { family: `${PDF_FONT}, "Noto Sans CJK TC", "Noto Sans TC", sans-serif`, size: 24 };
export const CHART_W = 1000;

function barChart(labels: string[], datasets: { label: string; data: number[]; backgroundColor: string }[], horizontal: boolean, legend: boolean, height: number, stacked = false): Uint8Array | null {
  const countAxis = { beginAtZero: true, stacked, ticks: { precision: 0, font: chartFont } };
  const labelAxis = { stacked, ticks: { font: chartFont, autoSkip: false } };
  return drawChart(
    {
      type: 'bar',
      data: { labels: labels.map((l) => shorten(l, 30)), datasets },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        plugins: { legend: { display: legend, position: 'bottom', labels: { font: chartFont, boxWidth: 18 } }, tooltip: { enabled: false } },
        scales: horizontal ? { x: countAxis, y: labelAxis } : { x: labelAxis, y: countAxis },
      },
    },
    CHART_W,
    height,
  );
}

export function chartOf(summary: QuestionSummary, otherLabel: string): { png: Uint8Array; height: number } | null {
  let height: number;
  let png: Uint8Array | null;
  switch (summary.kind) {
    case 'choices':
      if (!summary.choices.length) return null;
      height = Math.min(900, 60 + summary.choices.length * 46);
      png = barChart(summary.choices.map((c) => c.label || otherLabel), [{ label: '', data: summary.choices.map((c) => c.count), backgroundColor: colour(0) }], true, false, height);
      break;
    case 'grid': {
      if (!summary.rows.length || !summary.columns.length) return null;
      height = Math.min(1000, 110 + summary.rows.length * 50);
      const cells = summary.rows.map((r) => gridCells(summary, r));
      png = barChart(
        summary.rows.map((r) => r.label),
        summary.columns.map((col, i) => ({ label: shorten(col.label, 30), data: cells.map((row) => row[i].count), backgroundColor: colour(i) })),
        true,
        true,
        height,
        true,
      );
      break;
    }
    case 'scale':
      if (!summary.points.length) return null;
      height = 380;
      png = barChart(summary.points.map((p) => p.value), [{ label: '', data: summary.points.map((p) => p.count), backgroundColor: colour(0) }], false, false, height);
      break;
    case 'distribution':
    case 'texts':
      return null;
    default:
      return assertNever(summary, 'summary kind');
  }
  return png ? { png, height } : null;
}

/** The comparison's trend of one question: a line per option, scale point or grid cell, its percent each year (gaps where a year has none). */
export function trendChartOf(years: string[], lines: { label: string; percents: (number | null)[] }[]): { png: Uint8Array; height: number } | null {
  if (!lines.length || years.length < 2) return null;
  const height = 460 + Math.ceil(lines.length / 3) * 34;
  const png = drawChart(
    {
      type: 'line',
      data: {
        labels: years,
        datasets: lines.map((l, i) => ({ label: shorten(l.label, 30), data: l.percents, borderColor: colour(i), backgroundColor: colour(i), borderWidth: 4, pointRadius: 6, spanGaps: false })),
      },
      options: {
        plugins: { legend: { display: true, position: 'bottom', labels: { font: chartFont, boxWidth: 18 } }, tooltip: { enabled: false } },
        scales: {
          x: { ticks: { font: chartFont } },
          y: { beginAtZero: true, suggestedMax: 100, ticks: { font: chartFont, callback: (v) => `${v}%` } },
        },
      },
    },
    CHART_W,
    height,
  );
  return png ? { png, height } : null;
}
