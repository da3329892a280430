// Charts with Chart.js (tree-shaken): measured vs predicted per run, and the what-if curves.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import type { Report } from '../../src/shared/report';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip, LineController, LineElement, PointElement);

/** Every chart drawn, with how to draw it again: a theme switch redraws them in the new theme's colours. */
const live = new Set<{ chart: Chart; make: () => Chart }>();

function tracked(make: () => Chart): Chart {
  const entry = { chart: stamped(make()), make };
  live.add(entry);
  return entry.chart;
}

/** The colour the chart draws its labels in, on its canvas (data-label-color), for a reader to check against the theme. */
function stamped(chart: Chart): Chart {
  const ticks = (chart.options.scales?.x as { ticks?: { color?: unknown } } | undefined)?.ticks;
  if (typeof ticks?.color === 'string') chart.canvas.dataset.labelColor = ticks.color;
  return chart;
}

/** Redraws the charts still on the page with the theme's colours now; forgets the others. */
export function redrawCharts(): void {
  for (const e of [...live]) {
    const onPage = e.chart.canvas?.isConnected === true;
    e.chart.destroy();
    if (onPage) e.chart = stamped(e.make());
    else live.delete(e);
  }
}

/**
 * Diagonal stripes in a colour: the predicted bars are striped, the measured ones solid, so the two tell
 * apart without colour.
 */
function stripes(color: string): CanvasPattern | string {
  const tile = document.createElement('canvas');
  tile.width = tile.height = 8;
  const g = tile.getContext('2d');
  if (!g) return color;
  g.strokeStyle = color;
  g.lineWidth = 2;
  g.beginPath();
  g.moveTo(0, 8);
  g.lineTo(8, 0);
  g.stroke();
  return g.createPattern(tile, 'repeat') ?? color;
}

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function palette() {
  return {
    text: themeColor('--vscode-foreground', '#333'),
    grid: themeColor('--vscode-panel-border', '#8884'),
    measured: [themeColor('--vscode-charts-blue', '#3794ff'), themeColor('--vscode-charts-orange', '#d18616'), themeColor('--vscode-charts-purple', '#b180d7')],
    line: themeColor('--vscode-charts-red', '#f14c4c'),
  };
}

/** A line chart's options in the theme's colours: an x axis titled by what varies, a y axis as given. */
function lineOptions(c: ReturnType<typeof palette>, xTitle: string, y: Record<string, unknown>) {
  return {
    animation: false as const,
    responsive: true,
    maintainAspectRatio: false,
    plugins: { legend: { labels: { color: c.text } } },
    scales: {
      x: { ticks: { color: c.text }, grid: { color: c.grid }, title: { display: true, text: xTitle, color: c.text } },
      y: { ticks: { color: c.text }, grid: { color: c.grid }, ...y },
    },
  };
}

export function runsChart(canvas: HTMLCanvasElement, report: Report): Chart {
  return tracked(() => drawRuns(canvas, report));
}

function drawRuns(canvas: HTMLCanvasElement, report: Report): Chart {
  const c = palette();
  const labels = report.runs.map((r) => `run ${r.run}${r.cold ? ' (cold)' : ''}`);
  const metrics = [
    ['logical', (r: Report['runs'][number]) => r.measured.logicalReads, (r: Report['runs'][number]) => r.predicted.logicalReads],
    ['physical', (r: Report['runs'][number]) => r.measured.physicalReads, (r: Report['runs'][number]) => r.predicted.physicalReads],
    ['read-ahead', (r: Report['runs'][number]) => r.measured.readAhead, (r: Report['runs'][number]) => r.predicted.readAhead],
  ] as const;
  const datasets = metrics.flatMap(([name, measured, predicted], i) => [
    { label: `${name} measured`, data: report.runs.map((r) => measured(r)), backgroundColor: c.measured[i] },
    {
      label: `${name} predicted`,
      data: report.runs.map((r) => predicted(r)),
      backgroundColor: stripes(c.measured[i]),
      borderColor: c.measured[i],
      borderWidth: 2,
    },
  ]);
  return new Chart(canvas, {
    type: 'bar',
    data: { labels, datasets: datasets.filter((d) => d.data.some((v) => v !== null)) },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { labels: { color: c.text } } },
      scales: {
        x: { ticks: { color: c.text }, grid: { color: c.grid } },
        y: { ticks: { color: c.text }, grid: { color: c.grid }, title: { display: true, text: 'pages', color: c.text } },
      },
    },
  });
}

export function whatIfChart(canvas: HTMLCanvasElement, series: NonNullable<Report['whatIf']>['series'][number]): Chart {
  return tracked(() => drawWhatIf(canvas, series));
}

function drawWhatIf(canvas: HTMLCanvasElement, series: NonNullable<Report['whatIf']>['series'][number]): Chart {
  const c = palette();
  return new Chart(canvas, {
    type: 'line',
    data: {
      labels: series.points.map((p) => (p.current ? `${p.label} (now)` : p.label)),
      datasets: [
        {
          label: 'miss ratio (%)',
          data: series.points.map((p) => Math.round(p.missRatio * 1000) / 10),
          borderColor: c.line,
          backgroundColor: c.line,
          pointRadius: series.points.map((p) => (p.current ? 7 : 3)),
        },
      ],
    },
    options: lineOptions(c, series.setting, { min: 0, max: 100 }),
  });
}

export interface CurveChartData {
  labels: string[];
  /** Hit ratio per size, 0–1. */
  predicted: number[];
  currentIndex: number;
  /** The measured point: which size, and its hit ratio. */
  measured: { index: number; hitRatio: number } | null;
  /** Predicted transactions per second per size, on an axis of their own; null before a measured run. */
  transactionsPerSecond: Array<number | null> | null;
  /** The target setting's recommended size, and the target in words. */
  target: { index: number; label: string } | null;
}

/** A workload's hit ratio by pool size: the predicted line, the pool now marked, the measured point apart. */
export function curveChart(canvas: HTMLCanvasElement, data: CurveChartData): Chart {
  return tracked(() => drawCurve(canvas, data));
}

function drawCurve(canvas: HTMLCanvasElement, d: CurveChartData): Chart {
  const c = palette();
  const pct = (x: number) => Math.round(x * 10000) / 100;
  const datasets: Array<Record<string, unknown>> = [
    {
      label: 'predicted hit ratio (%)',
      data: d.predicted.map(pct),
      borderColor: c.measured[0],
      backgroundColor: c.measured[0],
      pointRadius: 3,
    },
  ];
  // The pool now is a point of its own, named in the legend, and drawn whole: at a hit ratio of 100 % a
  // marker clipped by the chart's top edge read as a dip in a flat line.
  if (d.currentIndex >= 0) {
    datasets.push({
      label: `the pool now (${d.labels[d.currentIndex]})`,
      data: d.labels.map((_, i) => (i === d.currentIndex ? pct(d.predicted[i]) : null)),
      borderColor: c.text,
      backgroundColor: c.measured[0],
      showLine: false,
      pointRadius: 7,
      pointStyle: 'rectRot',
      clip: false,
    });
  }
  if (d.measured) {
    datasets.push({
      label: 'measured (%)',
      data: d.labels.map((_, i) => (i === d.measured!.index ? pct(d.measured!.hitRatio) : null)),
      borderColor: c.line,
      backgroundColor: c.line,
      showLine: false,
      pointRadius: 8,
      pointStyle: 'triangle',
      clip: false,
    });
  }
  if (d.target) {
    datasets.push({
      label: d.target.label,
      data: d.labels.map((_, i) => (i === d.target!.index ? pct(d.predicted[i]) : null)),
      borderColor: c.text,
      backgroundColor: 'transparent',
      showLine: false,
      pointRadius: 11,
      pointStyle: 'circle',
      borderWidth: 2,
      clip: false,
    });
  }
  const options = lineOptions(c, 'pool size', { max: 100, title: { display: true, text: 'hit ratio (%)', color: c.text } });
  if (d.transactionsPerSecond) {
    datasets.push({
      label: 'predicted transactions per second',
      data: d.transactionsPerSecond,
      borderColor: c.measured[1],
      backgroundColor: c.measured[1],
      borderDash: [6, 4],
      pointRadius: 3,
      yAxisID: 'tps',
    });
    (options.scales as Record<string, unknown>).tps = {
      position: 'right',
      beginAtZero: true,
      ticks: { color: c.text },
      grid: { drawOnChartArea: false },
      title: { display: true, text: 'transactions per second', color: c.text },
    };
  }
  return new Chart(canvas, {
    type: 'line',
    data: { labels: d.labels, datasets: datasets as never },
    options: { ...options, layout: { padding: { top: 10 } } },
  });
}
