// Builds the workload report (src/shared/workload-report.ts) from a compiled workload, its trace and curve.
import type { CompiledWorkload } from './compiled';
import { sizeForHitRatio, type PoolCurve } from './curve';
import type { WorkloadTrace } from './trace';
import type { WorkloadReport } from '../shared/workload-report';
import { throughputAt } from './throughput';

export function workloadReport(w: CompiledWorkload, trace: WorkloadTrace, curve: PoolCurve, seed: number, tps: number | undefined): WorkloadReport {
  const stmts = trace.statements.map(({ script, statement }) => ({ s: w.scripts[script], st: w.scripts[script].statements[statement] }));
  const totalExec = trace.executions.reduce((a, b) => a + b, 0) || 1;
  const pages = w.relations.reduce((a, r) => a + r.pages, 0);
  const size = (t: number) => sizeForHitRatio(curve.points, t)?.poolBytes ?? null;
  const notes = [...w.notes];
  const skipped = stmts.filter((x) => x.st.notModelled);
  if (skipped.length)
    notes.unshift(
      `${skipped.length} of ${stmts.length} statements are not modelled and their pages are not on the curve: ` +
        `${skipped.map((x) => `line ${x.st.line} (${x.st.notModelled})`).join('; ')}.`,
    );
  if (curve.sampleRate < 1)
    notes.push(
      `The curve was replayed by miniature simulation on ${(curve.sampleRate * 100).toFixed(1)} % of the pages (64-page units), with the pool scaled alike.`,
    );
  return {
    bufferlensWorkload: 1,
    engine: w.engine,
    server: w.server,
    scripts: w.scripts.map((s) => ({ name: s.script.name, weight: s.script.weight })),
    statements: stmts.map(({ s, st }, i) => ({
      script: s.script.name,
      line: st.line,
      sql: st.text,
      role: st.role,
      executions: trace.executions[i] / totalExec,
      ...(st.notModelled ? { notModelled: st.notModelled } : {}),
      notes: st.notes,
    })),
    data: { pages, bytes: pages * w.pageBytes, relations: w.relations },
    currentPool: { pages: w.poolPages, bytes: w.poolPages * w.pageBytes },
    simulation: {
      warmupTransactions: trace.warmup,
      transactions: trace.transactions,
      accesses: trace.accesses.length,
      sampleRate: curve.sampleRate,
      seconds: curve.seconds,
      seed,
    },
    curve: curve.points.map((p) => ({
      poolPages: p.poolPages,
      poolBytes: p.poolBytes,
      current: p.current,
      hitRatio: p.hitRatio,
      missRatio: p.missRatio,
      requestsPerTransaction: trace.transactions ? p.requests / trace.transactions : 0,
      readsPerTransaction: p.readsPerTransaction,
      ...(tps !== undefined ? { readsPerSecond: p.readsPerTransaction * tps } : {}),
      statements: p.perStatement.map(([r, m], i) =>
        stmts[i].st.notModelled || stmts[i].st.role === 'control' || !trace.executions[i]
          ? null
          : { requestsPerExecution: r / trace.executions[i], readsPerExecution: m / trace.executions[i] },
      ),
    })),
    sizeFor: { hitRatio95: size(0.95), hitRatio99: size(0.99) },
    notes,
  };
}

/** Transactions per second and latency at every size, once a measured run told a transaction's costs apart. */
export function addThroughput(r: WorkloadReport): void {
  const m = r.measured;
  const now = r.curve.find((p) => p.current);
  if (!m?.costs || !m.latency || !now) return;
  const latency = m.latency;
  const measured = { sessions: m.sessions, ...latency, transactionsPerSecond: m.transactionsPerSecond, clientCpuShare: m.clientCpuShare };
  for (const p of r.curve) p.throughput = throughputAt(m.costs, measured, now.readsPerTransaction, p.readsPerTransaction);
  r.notes.push(
    `Transactions per second assume ${m.sessions} sessions always busy, as in the run; a size's latency is the run's moved by ` +
      `${m.costs.perReadMs.toFixed(3)} ms per page read more or fewer than predicted at the pool now; p95 keeps the run's p95 / mean ratio` +
      (m.clientCpuShare !== undefined
        ? `; no size runs faster than the client that drove the run can (it used ${(m.clientCpuShare * 100).toFixed(0)} % of a core ` +
          `at ${Math.round(m.transactionsPerSecond)} per second)`
        : '') +
      '.',
  );
}
