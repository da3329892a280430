// The pool-size curve of a workload: its trace replayed through the engine's model at each size, from an
// empty pool (a restarted server), counting requests and misses after the warm-up transactions. Traces
// longer than `fullAccesses` (10 M by default) are replayed by miniature simulation (mini-sim.ts): the
// pages of a sample of 64-page units, through a pool scaled by the same rate.
import type { CompiledWorkload } from './compiled';
import type { WorkloadTrace } from './trace';
import { keepsUnit } from '../sim/mini-sim';

export interface CurvePoint {
  poolPages: number;
  poolBytes: number;
  current: boolean;
  requests: number;
  misses: number;
  hitRatio: number;
  missRatio: number;
  readsPerTransaction: number;
  /** Per statement of the trace: [requests, misses] in the measured part. */
  perStatement: Array<[number, number]>;
}

export interface PoolCurve {
  points: CurvePoint[];
  /** Share of sampling units kept (1: full simulation). */
  sampleRate: number;
  seconds: number;
}

const MiB = 1048576;

/**
 * Pool sizes to try: powers of two MiB (and halfway steps) from 8 MiB to twice the data, and the current
 * size with its double and quadruple (the question users ask first).
 */
export function defaultSizes(w: CompiledWorkload): number[] {
  const dataBytes = w.relations.reduce((a, r) => a + r.pages, 0) * w.pageBytes;
  const out = new Set<number>([w.poolPages, 2 * w.poolPages, 4 * w.poolPages]);
  const top = Math.max(16, (2 * dataBytes) / MiB);
  // Halfway steps while the curve stays short; on large data the powers of two alone.
  const halves = Math.log2(top / 8) <= 8;
  for (let mb = 8; mb <= top; mb *= 2) {
    out.add(Math.round((mb * MiB) / w.pageBytes));
    if (halves) out.add(Math.round((1.5 * mb * MiB) / w.pageBytes));
  }
  return [...out].sort((a, b) => a - b);
}

export function poolCurve(
  w: CompiledWorkload,
  trace: WorkloadTrace,
  sizes: number[],
  options: { fullAccesses?: number; /** Page requests per second of the real workload, when known. */ accessesPerSecond?: number } = {},
): PoolCurve {
  const t0 = performance.now();
  const full = options.fullAccesses ?? 10_000_000;
  const rate = trace.accesses.length > full ? full / trace.accesses.length : 1;
  let accesses = trace.accesses;
  let owners = trace.statementOf;
  let measuredFrom = trace.measuredFrom;
  if (rate < 1) {
    // Keep the same units in both parts of the trace, and which statement asked for each kept page.
    const kept: number[] = [];
    const threshold = Math.round(rate * 1_000_000);
    for (let i = 0; i < accesses.length; i++) if (keepsUnit(accesses[i], 64, threshold)) kept.push(i);
    const a = new Int32Array(kept.length);
    const o = new Uint16Array(kept.length);
    let from = kept.length;
    kept.forEach((idx, j) => {
      a[j] = accesses[idx];
      o[j] = owners[idx];
      if (idx >= trace.measuredFrom && from === kept.length) from = j;
    });
    accesses = a;
    owners = o;
    measuredFrom = from;
  }
  // Requests are counted exactly on the whole trace; only misses are estimated from the sample (scaled by
  // 1/rate). A few very hot pages (a B-tree root) would otherwise sway the ratio by being in or out of it.
  const exactRequests = trace.statements.map(() => 0);
  for (let i = trace.measuredFrom; i < trace.accesses.length; i++) exactRequests[trace.statementOf[i]]++;
  const traceRequests = trace.accesses.length - trace.measuredFrom;
  const points = sizes.map((pages): CurvePoint => {
    // A sampled trace has fewer requests in the same time: each stands for 1/rate of them.
    const msPerAccess = options.accessesPerSecond ? 1000 / (options.accessesPerSecond * rate) : undefined;
    const pool = w.makePool(Math.max(1, Math.round(pages * rate)), msPerAccess);
    pool.run(accesses.subarray(0, measuredFrom));
    const counted = poolRequests(pool);
    const perMisses = trace.statements.map(() => 0);
    let sampledMisses = 0;
    for (let i = measuredFrom; i < accesses.length; i++) {
      if (!pool.access(accesses[i])) {
        perMisses[owners[i]]++;
        sampledMisses++;
      }
    }
    // Gets the pool makes of itself (MariaDB's change-buffer bitmap on a secondary leaf's read) are requests too.
    const own = counted === undefined ? 0 : Math.max(0, poolRequests(pool)! - counted - (accesses.length - measuredFrom)) / rate;
    const requests = traceRequests + own;
    const misses = Math.min(requests, sampledMisses / rate);
    return {
      poolPages: pages,
      poolBytes: pages * w.pageBytes,
      current: pages === w.poolPages,
      requests,
      misses,
      hitRatio: requests ? 1 - misses / requests : 1,
      missRatio: requests ? misses / requests : 0,
      readsPerTransaction: trace.transactions ? misses / trace.transactions : 0,
      perStatement: exactRequests.map((r, k) => [r, Math.min(r, perMisses[k] / rate)]),
    };
  });
  return { points, sampleRate: rate, seconds: (performance.now() - t0) / 1000 };
}

/** The page requests a pool has counted, where its counters name them (InnoDB's read requests). */
function poolRequests(pool: { counters(): Record<string, number> }): number | undefined {
  return pool.counters().Innodb_buffer_pool_read_requests;
}

/**
 * The smallest pool that serves `target` of the requests from the pool, interpolated between the sizes
 * tried on a log scale; undefined when even the largest does not.
 */
export function sizeForHitRatio(points: CurvePoint[], target: number): { poolBytes: number; exact: boolean } | undefined {
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    if (p.hitRatio < target) continue;
    if (i === 0) return { poolBytes: p.poolBytes, exact: false };
    const q = points[i - 1];
    const f = (target - q.hitRatio) / (p.hitRatio - q.hitRatio);
    const bytes = Math.exp(Math.log(q.poolBytes) + f * (Math.log(p.poolBytes) - Math.log(q.poolBytes)));
    return { poolBytes: bytes, exact: true };
  }
  return undefined;
}
