// The workload report: what `bufferlens workload predict|run` print with --json and the editor's Workload
// report shows. Plain data in the report contract's style: numbers the engine or the model did not give
// are absent with a reason, never 0. Pure types, so the webview reads them too.

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
  /** Transactions per second and latency at this size (`workload run`, when the costs were told apart). */
  throughput?: ThroughputPoint;
  /** Per statement (same order as `statements`): pages requested and read per execution. */
  statements: Array<{ requestsPerExecution: number; readsPerExecution: number } | null>;
}

/** Predicted throughput at one pool size, from the measured run's costs (src/workload/throughput.ts). */
export interface ThroughputPoint {
  transactionsPerSecond: number;
  /** From the per-read cost's band: the fewest and the most transactions per second. */
  transactionsPerSecondRange: [number, number];
  latencyMeanMs: number;
  /** The run's p95 / mean ratio kept: stated, not modelled. */
  latencyP95Ms: number;
}

/** What a transaction costs on this server, told apart from the measured run. */
export interface TransactionCosts {
  /** Per page read from outside the pool, ms, with the band the run's spread gives (two standard errors). */
  perReadMs: number;
  perReadMsRange: [number, number];
  /** A transaction without reads, ms. */
  noReadMs: number;
  from: string;
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
  /** Per transaction as the sessions saw it, ms (absent from reports written before it was measured). */
  latency?: { meanMs: number; p95Ms: number };
  /** The share of one core the driving client (this process) used during the measured part. */
  clientCpuShare?: number;
  /** Absent when the run could not tell them apart: then `costsNotReported` says why. */
  costs?: TransactionCosts;
  costsNotReported?: string;
  notes: string[];
}

/** The smallest size on the curve that reaches a planner's target (src/workload/target.ts). */
export interface TargetRecommendation {
  kind: 'hit-ratio' | 'reads-per-second' | 'transactions-per-second' | 'p95-latency-ms';
  value: number;
  /** The target in words, e.g. "hit ratio ≥ 99 %". */
  target: string;
  /** null when no size on the curve reaches it, or the curve cannot tell: `why` says which. */
  poolBytes: number | null;
  /** At that size: the prediction the target was judged by (the pessimistic end of a band). */
  predicted?: number;
  margin?: string;
  /** The next smaller size on the curve, which misses the target. */
  smallerMisses?: { poolBytes: number; predicted: number };
  why?: string;
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
  /** `--target`: the smallest pool that reaches it. */
  target?: TargetRecommendation;
  notes: string[];
}

/** What a workload report read from a file must hold before it is rendered (its producer may be older or foreign). */
export function workloadReportProblems(value: unknown): string[] {
  const r = value as Partial<WorkloadReport> | null;
  if (typeof r !== 'object' || r === null || r.bufferlensWorkload !== 1) return ['bufferlensWorkload is not 1'];
  const problems: string[] = [];
  if (!Array.isArray(r.curve) || r.curve.length === 0) problems.push('curve is not a non-empty array');
  else if (
    !r.curve.every(
      (p) => typeof p?.poolBytes === 'number' && typeof p.hitRatio === 'number' && typeof p.readsPerTransaction === 'number' && Array.isArray(p.statements),
    )
  )
    problems.push('a curve point lacks poolBytes, hitRatio, readsPerTransaction or statements');
  if (!Array.isArray(r.statements)) problems.push('statements is not an array');
  if (!Array.isArray(r.scripts)) problems.push('scripts is not an array');
  if (typeof r.sizeFor !== 'object' || r.sizeFor === null) problems.push('sizeFor is missing');
  if (!Array.isArray(r.notes)) problems.push('notes is not an array');
  return problems;
}
