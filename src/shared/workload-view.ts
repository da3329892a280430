// The workload report's view-model: what the editor's Workload report and the terminal show, from one
// place. Pure, so it is tested without a browser; the webview and the CLI only lay it out.
import type { TargetRecommendation, WorkloadReport } from './workload-report';

const MiB = 1048576;

export function sizeText(bytes: number): string {
  if (bytes >= 1024 * MiB) return `${(bytes / (1024 * MiB)).toFixed(bytes >= 10 * 1024 * MiB ? 0 : 1)} GiB`;
  return `${(bytes / MiB).toFixed(bytes >= 10 * MiB ? 0 : 1)} MiB`;
}

/** A ratio as a percentage; just under 1 never rounds up to a 100 % it is not. */
export function percent(x: number): string {
  if (x < 1 && x >= 0.99995) return '> 99.99 %';
  return `${(x * 100).toFixed(x > 0.999 && x < 1 ? 2 : 1)} %`;
}

export interface WorkloadView {
  title: string;
  meta: string;
  /** The answers first: how big a pool serves 99 % / 95 %, and what 4× the pool now would do. */
  answers: string[];
  curve: Array<{
    size: string;
    poolBytes: number;
    hitRatio: number;
    hit: string;
    reads: string;
    readsPerSecond: string | null;
    /** Predicted transactions per second (band) and latency mean / p95, after a measured run. */
    transactionsPerSecond: number | null;
    throughput: string | null;
    latency: string | null;
    current: boolean;
  }>;
  /** The target setting's answer: the recommended size's index on the curve (null: none), in words. */
  target: { index: number | null; label: string } | null;
  measured: { size: string; poolBytes: number; hitRatio: number; text: string; predicted: string | null; costs: string | null } | null;
  statements: Array<{ where: string; sql: string; share: string; requests: string; reads: string; notModelled: string | null; notes: string[] }>;
  notes: string[];
}

/** Scripts by file: one file's weighted statements once, with their weights ("mix.sql, weights 8 and 2"). */
function scriptsTitle(scripts: WorkloadReport['scripts']): string {
  const byFile = new Map<string, number[]>();
  for (const s of scripts) {
    const file = s.name.replace(/^.*[\\/]/, '').replace(/#\d+$/, '');
    byFile.set(file, [...(byFile.get(file) ?? []), s.weight]);
  }
  return [...byFile]
    .map(([file, w]) => (w.length > 1 ? `${file}, weights ${w.slice(0, -1).join(', ')} and ${w[w.length - 1]}` : w[0] !== 1 ? `${file} @${w[0]}` : file))
    .join('; ');
}

function rateText(tps: number, [lo, hi]: [number, number]): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  return hi - lo < 0.5 ? n(tps) : `${n(tps)} (${n(lo)}–${n(hi)})`;
}

function targetValue(kind: TargetRecommendation['kind'], v: number): string {
  if (kind === 'hit-ratio') return percent(v);
  if (kind === 'p95-latency-ms') return `${v.toFixed(1)} ms`;
  return `${Math.round(v).toLocaleString('en-US')} ${kind === 'reads-per-second' ? 'reads' : 'transactions'} per second`;
}

/** The target's answer in one sentence: the size, the margin, and the size below that misses. */
export function targetAnswer(t: TargetRecommendation): string {
  if (t.poolBytes === null) return `Target ${t.target}: no size on the curve: ${t.why}.`;
  const smaller = t.smallerMisses ? `; ${sizeText(t.smallerMisses.poolBytes)} gives ${targetValue(t.kind, t.smallerMisses.predicted)}` : '';
  return `Target ${t.target}: ${sizeText(t.poolBytes)} (predicted ${targetValue(t.kind, t.predicted!)}, ${t.margin} the target${smaller}).`;
}

export function workloadView(r: WorkloadReport): WorkloadView {
  const now = r.curve.find((p) => p.current);
  const answers: string[] = [];
  const largest = r.curve[r.curve.length - 1];
  const s99 = r.sizeFor.hitRatio99;
  answers.push(
    s99 !== null
      ? `≈ ${sizeText(s99)} serves 99 % of this mix's page requests from the pool.`
      : `Even ${sizeText(largest.poolBytes)} does not serve 99 % of this mix's page requests from the pool.`,
  );
  if (r.sizeFor.hitRatio95 !== null) answers.push(`≈ ${sizeText(r.sizeFor.hitRatio95)} serves 95 %.`);
  const four = now && r.curve.find((p) => p.poolPages === now.poolPages * 4);
  if (now && four) {
    const fewer = now.readsPerTransaction > 0 ? 1 - four.readsPerTransaction / now.readsPerTransaction : 0;
    answers.push(
      now.readsPerTransaction === 0
        ? `The pool now (${sizeText(now.poolBytes)}) already serves every request after warm-up: 4× would not help.`
        : `4× the pool now (${sizeText(now.poolBytes)} → ${sizeText(four.poolBytes)}): ${(fewer * 100).toFixed(0)} % fewer pages read, ` +
            `${now.readsPerTransaction.toFixed(2)} → ${four.readsPerTransaction.toFixed(2)} per transaction; ` +
            `hit ratio ${percent(now.hitRatio)} → ${percent(four.hitRatio)}.`,
    );
  }
  const target = r.target
    ? { index: r.target.poolBytes === null ? null : r.curve.findIndex((p) => p.poolBytes === r.target!.poolBytes), label: targetAnswer(r.target) }
    : null;
  if (target) answers.unshift(target.label);
  const m = r.measured;
  const shownExecutions = r.statements.filter((s) => s.role !== 'control').reduce((a, s) => a + s.executions, 0) || 1;
  return {
    title: `Workload: ${scriptsTitle(r.scripts)}`,
    meta:
      `${r.server} · data ${sizeText(r.data.bytes)} · pool now ${sizeText(r.currentPool.bytes)} · ` +
      `${r.simulation.warmupTransactions.toLocaleString('en-US')} warm-up and ${r.simulation.transactions.toLocaleString('en-US')} ` +
      'counted transactions simulated from an empty pool',
    answers,
    curve: r.curve.map((p) => ({
      size: sizeText(p.poolBytes),
      poolBytes: p.poolBytes,
      hitRatio: p.hitRatio,
      hit: percent(p.hitRatio),
      reads: p.readsPerTransaction.toFixed(3),
      readsPerSecond: p.readsPerSecond === undefined ? null : Math.round(p.readsPerSecond).toLocaleString('en-US'),
      transactionsPerSecond: p.throughput?.transactionsPerSecond ?? null,
      throughput: p.throughput ? rateText(p.throughput.transactionsPerSecond, p.throughput.transactionsPerSecondRange) : null,
      latency: p.throughput ? `${p.throughput.latencyMeanMs.toFixed(1)} / ${p.throughput.latencyP95Ms.toFixed(1)} ms` : null,
      current: p.current,
    })),
    target,
    measured: m ? measuredView(m, now) : null,
    statements: r.statements
      .map((s, i) => ({ s, at: now?.statements[i] ?? null }))
      .filter(({ s }) => s.role !== 'control')
      .map(({ s, at }) => ({
        where: `${s.script.replace(/^.*[\\/]/, '').replace(/#\d+$/, '')}:${s.line}`,
        sql: s.sql.replace(/\s+/g, ' '),
        // Of the statements shown: the transactions' BEGIN and END are left out, so they count in no share.
        share: percent(s.executions / shownExecutions),
        requests: s.notModelled ? 'not modelled' : at ? at.requestsPerExecution.toFixed(1) : 'not run',
        reads: s.notModelled ? 'not modelled' : at ? at.readsPerExecution.toFixed(3) : 'not run',
        notModelled: s.notModelled ?? null,
        notes: s.notes,
      })),
    notes: [...r.notes, ...(m?.notes ?? [])],
  };
}

/** The measured run beside the prediction, in words: its counters, what the prediction gave, what a read costs. */
function measuredView(m: NonNullable<WorkloadReport['measured']>, now: WorkloadReport['curve'][number] | undefined): NonNullable<WorkloadView['measured']> {
  return {
    size: sizeText(m.poolBytes),
    poolBytes: m.poolBytes,
    hitRatio: m.hitRatio,
    text:
      `Measured at ${sizeText(m.poolBytes)}: hit ratio ${percent(m.hitRatio)}, ${m.readsPerTransaction.toFixed(3)} pages read per transaction ` +
      `(${m.transactions.toLocaleString('en-US')} transactions after ${m.warmupTransactions.toLocaleString('en-US')} warm-up, ` +
      `${m.sessions} sessions, ${Math.round(m.transactionsPerSecond).toLocaleString('en-US')} per second).`,
    predicted: now
      ? `Predicted for the same transactions: hit ratio ${percent(now.hitRatio)}, ${now.readsPerTransaction.toFixed(3)} pages read per transaction.`
      : null,
    costs: m.latency
      ? `Latency per transaction ${m.latency.meanMs.toFixed(1)} ms (p95 ${m.latency.p95Ms.toFixed(1)} ms). ${
          m.costs
            ? `A page read costs ${m.costs.perReadMs.toFixed(3)} ms (${m.costs.perReadMsRange.map((x) => x.toFixed(3)).join('–')}), ` +
              `a transaction without reads ${m.costs.noReadMs.toFixed(2)} ms: from ${m.costs.from}.`
            : `Transactions per second by pool size: not reported: ${m.costsNotReported}.`
        }`
      : null,
  };
}
