// The workload report: what `bufferlens workload predict|run` print with --json and the editor's Workload
// report shows. Plain data in the report contract's style: numbers the engine or the model did not give
// are absent with a reason, never 0.
import type { CompiledWorkload } from './compiled';
import { sizeForHitRatio, type PoolCurve } from './curve';
import type { WorkloadTrace } from './trace';

export interface WorkloadStatementReport {
  script: string;
  line: number;
  sql: string;
  role: 'read' | 'write' | 'control';
  /** Share of the mix's executions (within its script's weight). */
  executions: number;
  notModelled?: string;
  notes: string[];
}

export interface WorkloadCurvePoint {
  poolPages: number;
  poolBytes: number;
  current: boolean;
  hitRatio: number;
  missRatio: number;
  requestsPerTransaction: number;
  readsPerTransaction: number;
  /** Pages read per second at the given rate of transactions; absent without a rate. */
  readsPerSecond?: number;
  /** Per statement (same order as `statements`): pages requested and read per execution. */
  statements: Array<{ requestsPerExecution: number; readsPerExecution: number } | null>;
}

/** The measured steady state of the same workload on the server (`workload run`). */
export interface WorkloadMeasurement {
  poolPages: number;
  poolBytes: number;
  sessions: number;
  seconds: number;
  warmupTransactions: number;
  transactions: number;
  transactionsPerSecond: number;
  requests: number;
  reads: number;
  hitRatio: number;
  readsPerTransaction: number;
  /** Where the counters came from, and what they mean on this server. */
  counters: string;
  committed: boolean;
  errors: number;
  notes: string[];
}

export interface WorkloadReport {
  bufferlensWorkload: 1;
  engine: 'postgresql' | 'innodb';
  server: string;
  scripts: Array<{ name: string; weight: number }>;
  statements: WorkloadStatementReport[];
  data: { pages: number; bytes: number; relations: Array<{ name: string; pages: number }> };
  currentPool: { pages: number; bytes: number };
  simulation: { warmupTransactions: number; transactions: number; accesses: number; sampleRate: number; seconds: number; seed: number };
  curve: WorkloadCurvePoint[];
  /** The smallest pool serving 95 % and 99 % of the page requests, from the curve; null beyond its largest size. */
  sizeFor: { hitRatio95: number | null; hitRatio99: number | null };
  measured?: WorkloadMeasurement;
  notes: string[];
}

export function workloadReport(w: CompiledWorkload, trace: WorkloadTrace, curve: PoolCurve, seed: number, tps: number | undefined): WorkloadReport {
  const stmts = trace.statements.map(({ script, statement }) => ({ s: w.scripts[script], st: w.scripts[script].statements[statement] }));
  const totalExec = trace.executions.reduce((a, b) => a + b, 0) || 1;
  const pages = w.relations.reduce((a, r) => a + r.pages, 0);
  const size = (t: number) => sizeForHitRatio(curve.points, t)?.poolBytes ?? null;
  const notes = [...w.notes];
  const skipped = stmts.filter((x) => x.st.notModelled);
  if (skipped.length) notes.unshift(`${skipped.length} of ${stmts.length} statements are not modelled and their pages are not on the curve: ${skipped.map((x) => `line ${x.st.line} (${x.st.notModelled})`).join('; ')}.`);
  if (curve.sampleRate < 1) notes.push(`The curve was replayed by miniature simulation on ${(curve.sampleRate * 100).toFixed(1)} % of the pages (64-page units), with the pool scaled alike.`);
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
    simulation: { warmupTransactions: trace.warmup, transactions: trace.transactions, accesses: trace.accesses.length, sampleRate: curve.sampleRate, seconds: curve.seconds, seed },
    curve: curve.points.map((p) => ({
      poolPages: p.poolPages,
      poolBytes: p.poolBytes,
      current: p.current,
      hitRatio: p.hitRatio,
      missRatio: p.missRatio,
      requestsPerTransaction: trace.transactions ? p.requests / trace.transactions : 0,
      readsPerTransaction: p.readsPerTransaction,
      ...(tps !== undefined ? { readsPerSecond: p.readsPerTransaction * tps } : {}),
      statements: p.perStatement.map(([r, m], i) => (stmts[i].st.notModelled || stmts[i].st.role === 'control' || !trace.executions[i] ? null : { requestsPerExecution: r / trace.executions[i], readsPerExecution: m / trace.executions[i] })),
    })),
    sizeFor: { hitRatio95: size(0.95), hitRatio99: size(0.99) },
    notes,
  };
}
