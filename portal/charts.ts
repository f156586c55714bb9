// The studio console's charts: uPlot and its stylesheet, built as an entry of their own (src/modules/portal/build.ts)
// that the studio page loads when it draws its first chart (portal/pages/studio/numbers.ts), so no other page carries
// them. A chart is drawn for the eye only: the page shows the same numbers as a table.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface LineChartSpec {
  /** one label per point of the x axis (days, YYYY-MM-DD) */
  labels: string[];
  series: Array<{ label: string; values: Array<number | null> }>;
  /** how the y axis reads: a count, seconds, or a fraction shown as a percentage */
  unit: 'count' | 'seconds' | 'share';
  /** the height of the plot, in CSS pixels */
  height?: number;
}

export interface DrawnChart {
  destroy(): void;
}

const cssVar = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

function formatY(unit: LineChartSpec['unit'], value: number): string {
  if (unit === 'share') return `${Math.round(value * 100)}%`;
  if (unit === 'seconds') {
    if (value >= 3600) return `${+(value / 3600).toFixed(1)} h`;
    if (value >= 60) return `${+(value / 60).toFixed(1)} min`;
    return `${value} s`;
  }
  return value >= 10000 ? `${+(value / 1000).toFixed(1)}k` : String(value);
}

const decades = (steps: number[]) => [1, 10, 100, 1000, 10000, 100000].flatMap((d) => steps.map((n) => n * d));
/** the y axis's steps by unit: whole counts, round durations, round percentages */
const STEPS: Record<LineChartSpec['unit'], number[]> = {
  count: decades([1, 2, 5]),
  seconds: [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800],
  share: [0.05, 0.1, 0.2, 0.25, 0.5],
};

/** A line per series over the days, as wide as `target` (and redrawn when that changes). */
export function lineChart(target: HTMLElement, spec: LineChartSpec): DrawnChart {
  const text = cssVar('--text', '#17192b');
  const grid = cssVar('--border', '#d9dbe8');
  const colours = [cssVar('--accent', '#4338ca'), cssVar('--premium', '#8a5a00'), cssVar('--ok', '#067647')];
  const xs = spec.labels.map((_, i) => i);
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const width = () => Math.max(240, Math.floor(target.clientWidth));
  const chart = new uPlot(
    {
      width: width(),
      height: spec.height ?? 200,
      scales: {
        x: { time: false },
        y: { range: (_u, _min, max) => [0, spec.unit === 'share' ? Math.max(1, max) : Math.max(1, max * 1.1)] },
      },
      cursor: { drag: { x: false, y: false } },
      legend: { live: false },
      series: [
        { label: 'Day', value: (_u, i) => spec.labels[i] ?? '' },
        ...spec.series.map((s, i) => ({
          label: s.label,
          stroke: colours[i % colours.length],
          width: 2,
          // the second line is dashed: told apart without its colour, and seen where it runs over the first
          dash: i === 1 ? [6, 4] : undefined,
          points: { show: spec.labels.length <= 31 },
          spanGaps: false,
        })),
      ],
      axes: [
        {
          ...axis,
          space: 56,
          incrs: decades([1, 2, 5]),
          values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? (spec.labels[i]?.slice(5) ?? '') : '')),
        },
        {
          ...axis,
          size: 64,
          incrs: STEPS[spec.unit],
          values: (_u, splits) => splits.map((v) => formatY(spec.unit, v)),
        },
      ],
    },
    [xs, ...spec.series.map((s) => s.values)] as uPlot.AlignedData,
    target,
  );
  const resize = new ResizeObserver(() => {
    if (width() !== chart.width) chart.setSize({ width: width(), height: chart.height });
  });
  resize.observe(target);
  return {
    destroy() {
      resize.disconnect();
      chart.destroy();
    },
  };
}

const charts = { lineChart };
export type Charts = typeof charts;

declare global {
  interface Window {
    /** set by the charts' own script when it has loaded (portal/pages/studio/numbers.ts loads it) */
    gpCharts?: Charts;
  }
}

window.gpCharts = charts;
