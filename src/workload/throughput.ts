// Throughput and latency per pool size, from one measured run: a transaction's time is taken as
// L = a + b × r, the time it spends without reading (a: statements, client, commit) plus the cost of each
// page it reads from outside the pool (b), r being its reads. b is read or measured, never fitted:
// - PostgreSQL with track_io_timing on reports the time spent reading (blk_read_time): b is read off it;
// - otherwise a paired probe after the run: each session runs a newly drawn transaction and then the same
//   one again, whose pages are now in the pool; the difference in time over the difference in reads is b,
//   its spread over the rounds the band. (Letting time follow reads window by window through the run was
//   tried first: on sysbench's uniform mix the reads per transaction were 18.8–19.1 in every window, the pool
//   full within the first second, so the line's slope said nothing.)
// A pool size's prediction moves the measured latency by b × (its predicted reads − the predicted reads at
// the pool the run had), so the model's own bias at the measured size cancels; with every session always
// busy (a closed loop, as pgbench and sysbench run), transactions per second = sessions / L (Little's law).
// The client that drives the sessions is one process on one core: it cannot run transactions faster than
// its own time per transaction allows, measured in the run (its CPU time over the run's transactions). A
// size's rate is capped there: on PostgreSQL's select-only the client was the bottleneck and the rate stayed
// flat (6,700–7,400 a second) where latency alone predicted 20,000 at 128 MB.
// p95 keeps the run's p95 / mean ratio: stated, not modelled.
import type { ThroughputPoint, TransactionCosts } from '../shared/workload-report';

export type CostsResult = { costs: TransactionCosts } | { notReported: string };

/** Mean and 95th percentile of the transactions' latencies, ms. */
export function latencyStats(latenciesMs: ArrayLike<number>): { meanMs: number; p95Ms: number } {
  const sorted = Float64Array.from(latenciesMs).sort();
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return { meanMs: mean, p95Ms: sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] : 0 };
}

/** One round of the probe: every session's transaction run twice, the summed latencies and the server's reads. */
export interface PairedRound {
  transactions: number;
  firstMs: number;
  repeatMs: number;
  firstReads: number;
  repeatReads: number;
}

/** b from the probe's rounds (a ratio estimator: Σ time saved / Σ reads saved), a from the run's means. */
export function costsFromPairs(rounds: PairedRound[], meanLatencyMs: number, readsPerTransaction: number): CostsResult {
  const saved = rounds.map((r) => ({ ms: r.firstMs - r.repeatMs, reads: r.firstReads - r.repeatReads }));
  const readsSaved = saved.reduce((a, x) => a + x.reads, 0);
  const transactions = rounds.reduce((a, r) => a + r.transactions, 0);
  if (rounds.length < 5) return { notReported: `the probe ran ${rounds.length} rounds; 5 are needed to tell a page read's cost` };
  if (readsSaved < Math.max(20, 0.5 * transactions)) {
    return {
      notReported:
        `the probe's transactions read ${readsSaved} pages fewer the second time over ${transactions} pairs: their pages were in the pool already, so a ` +
        `read's cost was not seen`,
    };
  }
  const perRead = saved.reduce((a, x) => a + x.ms, 0) / readsSaved;
  const n = saved.length;
  const meanReads = readsSaved / n;
  const variance = saved.reduce((a, x) => a + (x.ms - perRead * x.reads) ** 2, 0) / (n - 1);
  const se = Math.sqrt(variance / n) / meanReads;
  // Second runs no faster than first ones: the reads' cost drowned in the run's spread. Saying 0 ms would
  // claim reads are free; what is true is that the probe could not tell.
  if (perRead <= 0) {
    return {
      notReported:
        `the probe's second runs were no faster than the first (${perRead.toFixed(3)} ms per read saved, ±${(2 * se).toFixed(3)}): a read's cost was not ` +
        `told apart from the run's spread`,
    };
  }
  return {
    costs: {
      perReadMs: perRead,
      perReadMsRange: [Math.max(0, perRead - 2 * se), perRead + 2 * se],
      noReadMs: Math.max(0, meanLatencyMs - perRead * readsPerTransaction),
      from: `${n} rounds of ${rounds[0].transactions} transactions each run twice, the second finding its pages in the pool ` +
        `(${(readsSaved / transactions).toFixed(1)} reads fewer per transaction)`,
    },
  };
}

/** PostgreSQL with track_io_timing: the server's own time per read, and the rest of the run's mean latency. */
export function costsFromReadTime(readTimeMs: number, reads: number, meanLatencyMs: number, readsPerTransaction: number): CostsResult {
  if (reads <= 0) return { notReported: 'no page was read during the run, so its cost was not seen' };
  // blk_read_time sums every session's waits; a transaction waits for its own reads.
  const perRead = readTimeMs / reads;
  return {
    costs: {
      perReadMs: perRead,
      perReadMsRange: [perRead, perRead],
      noReadMs: Math.max(0, meanLatencyMs - perRead * readsPerTransaction),
      from: 'the server: blk_read_time / blks_read (track_io_timing is on)',
    },
  };
}

/**
 * The throughput at a pool whose predicted reads per transaction are `readsAt`, from a run of `sessions`
 * sessions with these latencies, at a pool whose predicted reads were `readsAtMeasured`.
 */
export function throughputAt(
  costs: TransactionCosts,
  measured: { sessions: number; meanMs: number; p95Ms: number; transactionsPerSecond?: number; clientCpuShare?: number },
  readsAtMeasured: number,
  readsAt: number,
): ThroughputPoint {
  // The client's own ceiling: the measured rate over the share of its core it used.
  const ceiling = measured.transactionsPerSecond && measured.clientCpuShare ? measured.transactionsPerSecond / Math.min(1, measured.clientCpuShare) : Infinity;
  // Never below the part of a transaction that is not reading: fewer reads cannot make it faster than that.
  const latency = (perRead: number) => Math.max(measured.meanMs + perRead * (readsAt - readsAtMeasured), costs.noReadMs, 1e-3);
  const mean = latency(costs.perReadMs);
  const tps = (ms: number) => Math.min(ceiling, (measured.sessions * 1000) / ms);
  const ends = costs.perReadMsRange.map((b) => tps(latency(b)));
  return {
    transactionsPerSecond: tps(mean),
    transactionsPerSecondRange: [Math.min(...ends), Math.max(...ends)],
    // Latency as the sessions see it: sessions / rate, so a capped rate waits at the client.
    latencyMeanMs: Math.max(mean, (measured.sessions * 1000) / tps(mean)),
    latencyP95Ms: (measured.meanMs > 0 ? measured.p95Ms / measured.meanMs : 1) * Math.max(mean, (measured.sessions * 1000) / tps(mean)),
  };
}
