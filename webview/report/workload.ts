// Renders a workload report: the answers first, the curve (chart and table), the measured point, and each
// statement's pages. All text goes through the DOM helpers; the numbers come from the shared view-model.
import type { WorkloadReport } from '../../src/shared/workload-report';
import { workloadView } from '../../src/shared/workload-view';
import { contents, el, section, table } from './dom';
import { curveChart } from './charts';

export function renderWorkload(root: HTMLElement, report: WorkloadReport): void {
  const v = workloadView(report);
  const header = el('header', {}, el('h1', {}, v.title), el('p', { class: 'meta' }, v.meta));
  const answers = section('Answer', 'answer-h', el('ul', { class: 'answers', role: 'list' }, ...v.answers.map((a) => el('li', {}, a))));
  const current = v.curve.findIndex((p) => p.current);
  const now = current >= 0 ? `, the pool now (${v.curve[current].size}) at ${v.curve[current].hit}` : '';
  const canvas = el('canvas', {
    role: 'img',
    'aria-label':
      `line chart of the predicted hit ratio by pool size${now}` +
      (v.measured ? ', with the measured point' : '') +
      (v.curve.some((p) => p.throughput !== null) ? ', and predicted transactions per second' : '') +
      (v.target?.index != null && v.target.index >= 0 ? ', the smallest pool for the target circled' : ''),
  });
  const measuredIndex = v.measured ? v.curve.findIndex((p) => p.poolBytes === v.measured!.poolBytes) : -1;
  queueMicrotask(() =>
    curveChart(canvas, {
      labels: v.curve.map((p) => p.size),
      predicted: v.curve.map((p) => p.hitRatio),
      currentIndex: current,
      measured: v.measured && measuredIndex >= 0 ? { index: measuredIndex, hitRatio: v.measured.hitRatio } : null,
      transactionsPerSecond: v.curve.some((p) => p.transactionsPerSecond !== null) ? v.curve.map((p) => p.transactionsPerSecond) : null,
      target: v.target && v.target.index !== null && v.target.index >= 0 ? { index: v.target.index, label: 'smallest pool for the target' } : null,
    }),
  );
  const withRate = v.curve.some((p) => p.readsPerSecond !== null);
  const withThroughput = v.curve.some((p) => p.throughput !== null);
  const rows = v.curve.map((p) => [
    p.current ? `${p.size} (now)` : p.size,
    p.hit,
    p.reads,
    ...(withRate ? [p.readsPerSecond ?? ''] : []),
    ...(withThroughput ? [p.throughput ?? '', p.latency ?? ''] : []),
  ]);
  const curveTable = table(
    [
      'pool',
      'hit ratio',
      'pages read per transaction',
      ...(withRate ? ['pages read per second'] : []),
      ...(withThroughput ? ['transactions per second (band)', 'latency mean / p95'] : []),
    ],
    rows,
    'Predicted steady state by pool size',
  );
  const curve = section('Pool-size curve', 'curve-h', el('div', { class: 'chart' }, canvas), curveTable);
  const parts = [answers, curve];
  if (v.measured) {
    parts.push(
      section(
        'Measured on the server',
        'measured-h',
        el('p', {}, v.measured.text),
        ...(v.measured.predicted ? [el('p', {}, v.measured.predicted)] : []),
        ...(v.measured.costs ? [el('p', {}, v.measured.costs)] : []),
      ),
    );
  }
  const stmtRows = v.statements.map((s) => [
    s.where,
    el('code', {}, s.sql.length > 90 ? `${s.sql.slice(0, 89)}…` : s.sql),
    s.share,
    s.notModelled ? el('span', { class: 'not-modelled', title: s.notModelled }, 'not modelled') : s.requests,
    s.notModelled ? el('span', { class: 'not-modelled', title: s.notModelled }, 'not modelled') : s.reads,
  ]);
  const stmtNotes = v.statements.flatMap((s) => [
    ...(s.notModelled ? [`${s.where}: not modelled: ${s.notModelled}`] : []),
    ...s.notes.map((n) => `${s.where}: ${n}`),
  ]);
  parts.push(
    section(
      'Statements at the pool now',
      'statements-h',
      table(['statement', 'SQL', '% of statement executions', 'pages requested', 'pages read'], stmtRows, 'Per execution, at the pool now', 2),
      ...(stmtNotes.length ? [el('ul', { class: 'notes' }, ...stmtNotes.map((n) => el('li', {}, n)))] : []),
    ),
  );
  if (v.notes.length) parts.push(section('How this was predicted', 'notes-h', el('ul', { class: 'notes' }, ...v.notes.map((n) => el('li', {}, n)))));
  root.replaceChildren(header, contents(parts), ...parts);
}
