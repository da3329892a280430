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
