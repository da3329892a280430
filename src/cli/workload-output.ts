// The readable form of a workload report: the curve with the current size marked, the sizes that serve
// 95 % and 99 % of the requests, the measured point, and each statement's share.
import type { WorkloadReport } from '../shared/workload-report';
import { percent as pct, sizeText, targetAnswer } from '../shared/workload-view';

export function workloadTable(r: WorkloadReport): string {
  const lines: string[] = [];
  lines.push(`${r.server}: ${r.scripts.map((s) => `${s.name}${s.weight !== 1 ? `@${s.weight}` : ''}`).join(', ')}`);
  lines.push(`data ${sizeText(r.data.bytes)} (${r.data.pages.toLocaleString('en-US')} pages) · pool now ${sizeText(r.currentPool.bytes)}`);
  const sim = r.simulation;
  const n = (x: number) => x.toLocaleString('en-US');
  lines.push(
    `simulated ${n(sim.warmupTransactions)} warm-up and ${n(sim.transactions)} counted transactions from an empty pool ` +
      `(${n(sim.accesses)} page requests, ${sim.seconds.toFixed(1)} s)`,
  );
  lines.push('');
  const perSec = r.curve.some((p) => p.readsPerSecond !== undefined);
  const tps = r.curve.some((p) => p.throughput !== undefined);
  lines.push(`  pool        hit ratio   reads/transaction${perSec ? '   reads/s' : ''}${tps ? '   transactions/s (band)   latency mean / p95' : ''}`);
  for (const p of r.curve) {
    const reads = `${p.readsPerTransaction.toFixed(3).padStart(17)}${p.readsPerSecond !== undefined ? p.readsPerSecond.toFixed(0).padStart(10) : ''}`;
    const speed = p.throughput
      ? `   ${throughputText(p.throughput).padStart(20)}   ${latencyText(p.throughput.latencyMeanMs, p.throughput.latencyP95Ms).padStart(18)}`
      : '';
    lines.push(
      `${p.current ? '▸ ' : '  '}${sizeText(p.poolBytes).padEnd(10)}  ${pct(p.hitRatio).padStart(9)}   ${reads}${speed}${p.current ? '   (the pool now)' : ''}`,
    );
  }
  lines.push('');
  const s99 = r.sizeFor.hitRatio99;
  const s95 = r.sizeFor.hitRatio95;
  lines.push(
    s99 !== null
      ? `≈ ${sizeText(s99)} serves 99 % of this mix's page requests from the pool.`
      : `Even ${sizeText(r.curve[r.curve.length - 1].poolBytes)} does not serve 99 % of this mix's page requests from the pool.`,
  );
  if (s95 !== null) lines.push(`≈ ${sizeText(s95)} serves 95 %.`);
  if (r.target) lines.push(targetAnswer(r.target));
  const now = r.curve.find((p) => p.current);
  const four = now && r.curve.find((p) => p.poolPages === now.poolPages * 4);
  if (now && four)
    lines.push(
      `4× the pool now (${sizeText(four.poolBytes)}): reads per transaction ${now.readsPerTransaction.toFixed(3)} → ` +
        `${four.readsPerTransaction.toFixed(3)} (hit ratio ${pct(now.hitRatio)} → ${pct(four.hitRatio)}).`,
    );
  if (r.measured) {
    const m = r.measured;
    lines.push('');
    lines.push(
      `measured at ${sizeText(m.poolBytes)}: hit ratio ${pct(m.hitRatio)}, ${m.readsPerTransaction.toFixed(3)} reads per transaction ` +
        `(${n(m.transactions)} transactions after ${n(m.warmupTransactions)} warm-up, ${m.sessions} sessions, ${m.transactionsPerSecond.toFixed(0)}/s)`,
    );
    if (now) lines.push(`predicted for the same transactions: hit ratio ${pct(now.hitRatio)}, ${now.readsPerTransaction.toFixed(3)} reads per transaction`);
    if (m.latency) lines.push(`latency per transaction: ${latencyText(m.latency.meanMs, m.latency.p95Ms)} (mean / p95)`);
    if (m.latency)
      lines.push(
        m.costs
          ? `a page read costs ${m.costs.perReadMs.toFixed(3)} ms (${m.costs.perReadMsRange.map((x) => x.toFixed(3)).join('–')}), ` +
              `a transaction without reads ${m.costs.noReadMs.toFixed(2)} ms: from ${m.costs.from}`
          : `transactions per second per pool size: not reported: ${m.costsNotReported}`,
      );
    for (const n of m.notes) lines.push(`  · ${n}`);
  }
  lines.push('');
  lines.push('statements:');
  // Shares of the statements listed: the transactions' BEGIN and END are left out of the denominator too.
  const listed = r.statements.filter((s) => s.role !== 'control').reduce((a, s) => a + s.executions, 0) || 1;
  r.statements.forEach((s, i) => {
    if (s.role === 'control') return;
    const at = now?.statements[i];
    const what = s.notModelled
      ? `not modelled: ${s.notModelled}`
      : at
        ? `${at.requestsPerExecution.toFixed(1)} pages requested, ${at.readsPerExecution.toFixed(3)} read per execution at the pool now`
        : 'not executed in the simulation';
    lines.push(`  ${s.script.replace(/#\d+$/, '')}:${s.line}  ${s.sql.replace(/\s+/g, ' ').slice(0, 70)}`);
    lines.push(`      ${pct(s.executions / listed)} of executions · ${what}`);
  });
  if (r.notes.length) {
    lines.push('');
    for (const n of r.notes) lines.push(`· ${n}`);
  }
  return lines.join('\n') + '\n';
}

function throughputText(t: { transactionsPerSecond: number; transactionsPerSecondRange: [number, number] }): string {
  const [lo, hi] = t.transactionsPerSecondRange;
  return hi - lo < 0.5 ? t.transactionsPerSecond.toFixed(0) : `${t.transactionsPerSecond.toFixed(0)} (${lo.toFixed(0)}–${hi.toFixed(0)})`;
}

function latencyText(meanMs: number, p95Ms: number): string {
  return `${meanMs.toFixed(1)} / ${p95Ms.toFixed(1)} ms`;
}
