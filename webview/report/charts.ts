// Charts with Chart.js (tree-shaken): measured vs predicted per run, and the what-if curves.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import type { Report } from '../../src/shared/report';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip, LineController, LineElement, PointElement);

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function palette() {
  return {
    text: themeColor('--vscode-foreground', '#333'),
    grid: themeColor('--vscode-panel-border', '#8884'),
    measured: [themeColor('--vscode-charts-blue', '#3794ff'), themeColor('--vscode-charts-orange', '#d18616'), themeColor('--vscode-charts-purple', '#b180d7')],
    predicted: themeColor('--vscode-charts-green', '#89d185'),
    line: themeColor('--vscode-charts-red', '#f14c4c'),
  };
}

export function runsChart(canvas: HTMLCanvasElement, report: Report): Chart {
  const c = palette();
  const labels = report.runs.map((r) => `run ${r.run}${r.cold ? ' (cold)' : ''}`);
  const metrics = [
    ['logical', (r: Report['runs'][number]) => r.measured.logicalReads, (r: Report['runs'][number]) => r.predicted.logicalReads],
    ['physical', (r: Report['runs'][number]) => r.measured.physicalReads, (r: Report['runs'][number]) => r.predicted.physicalReads],
    ['read-ahead', (r: Report['runs'][number]) => r.measured.readAhead, (r: Report['runs'][number]) => r.predicted.readAhead],
  ] as const;
  const datasets = metrics.flatMap(([name, measured, predicted], i) => [
    { label: `${name} measured`, data: report.runs.map((r) => measured(r)), backgroundColor: c.measured[i] },
    { label: `${name} predicted`, data: report.runs.map((r) => predicted(r)), backgroundColor: c.predicted, borderColor: c.measured[i], borderWidth: 2 },
  ]);
  return new Chart(canvas, {
    type: 'bar',
    data: { labels, datasets: datasets.filter((d) => d.data.some((v) => v !== null)) },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { labels: { color: c.text } } },
      scales: { x: { ticks: { color: c.text }, grid: { color: c.grid } }, y: { ticks: { color: c.text }, grid: { color: c.grid }, title: { display: true, text: 'pages', color: c.text } } },
    },
  });
}

export function whatIfChart(canvas: HTMLCanvasElement, series: NonNullable<Report['whatIf']>['series'][number]): Chart {
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
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { labels: { color: c.text } } },
      scales: {
        x: { ticks: { color: c.text }, grid: { color: c.grid }, title: { display: true, text: series.setting, color: c.text } },
        y: { min: 0, max: 100, ticks: { color: c.text }, grid: { color: c.grid } },
      },
    },
  });
}
