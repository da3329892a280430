// Throughput per pool size from a run's costs: the probe's estimator, the latency statistics, the prediction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costsFromPairs, costsFromReadTime, latencyStats, throughputAt, type PairedRound } from '../../src/workload/throughput';
import { SeededRandom } from '../../src/sim/random';

/** Rounds of `sessions` transactions whose reads cost `perRead` ms each on top of `base` ms, with noise. */
function rounds(n: number, perRead: number, base: number, noise: number, seed = 1): PairedRound[] {
  const rnd = new SeededRandom(seed);
  return Array.from({ length: n }, () => {
    const firstReads = 60 + rnd.int(40);
    const repeatReads = rnd.int(3);
    const jitter = () => (rnd.next() - 0.5) * 2 * noise;
    return {
      transactions: 4,
      firstReads,
      repeatReads,
      firstMs: 4 * base + perRead * firstReads + jitter(),
      repeatMs: 4 * base + perRead * repeatReads + jitter(),
    };
  });
}

test('the probe recovers the cost of a page read, and its band holds it', () => {
  const r = costsFromPairs(rounds(40, 0.18, 2, 1.5), 8, 19);
  assert.ok('costs' in r, JSON.stringify(r));
  const c = r.costs;
  assert.ok(Math.abs(c.perReadMs - 0.18) < 0.01, `${c.perReadMs}`);
  assert.ok(c.perReadMsRange[0] <= 0.18 && 0.18 <= c.perReadMsRange[1], `${c.perReadMsRange}`);
  assert.ok(c.perReadMsRange[1] - c.perReadMsRange[0] < 0.05);
  assert.ok(Math.abs(c.noReadMs - (8 - c.perReadMs * 19)) < 1e-9);
  assert.match(c.from, /40 rounds of 4 transactions each run twice/);
});

test('the probe says why when repeats read as much as first runs, or when it had too few rounds', () => {
  const cached = rounds(40, 0.18, 2, 0.1).map((x) => ({ ...x, firstReads: x.repeatReads, firstMs: x.repeatMs }));
  const r = costsFromPairs(cached, 8, 0);
  assert.ok('notReported' in r);
  assert.match(r.notReported, /were in the pool already/);
  const few = costsFromPairs(rounds(3, 0.18, 2, 0.1), 8, 19);
  assert.ok('notReported' in few && /3 rounds; 5 are needed/.test(few.notReported));
});

test('a probe whose second runs were no faster says the cost was not told apart, never 0 ms', () => {
  // Reads that cost nothing measurable, and noise that makes the repeats slower on average.
  const slowerRepeats = rounds(40, 0, 2, 0.5).map((x) => ({ ...x, repeatMs: x.repeatMs + 0.4 }));
  const r = costsFromPairs(slowerRepeats, 8, 19);
  assert.ok('notReported' in r, JSON.stringify(r));
  assert.match(r.notReported, /not told apart from the run's spread/);
});

test("PostgreSQL's own read time gives the cost without a probe", () => {
  const r = costsFromReadTime(500, 2000, 10, 20);
  assert.ok('costs' in r);
  assert.equal(r.costs.perReadMs, 0.25);
  assert.equal(r.costs.noReadMs, 5);
  assert.ok('notReported' in costsFromReadTime(0, 0, 10, 0));
});

test('latency mean and 95th percentile', () => {
  const l = latencyStats(Array.from({ length: 100 }, (_, i) => i + 1));
  assert.equal(l.meanMs, 50.5);
  assert.equal(l.p95Ms, 95);
});

test('throughput: the measured size gives the measured rate, fewer reads more, and the band brackets it', () => {
  const costs = { perReadMs: 0.2, perReadMsRange: [0.15, 0.25] as [number, number], noReadMs: 4, from: 'test' };
  const measured = { sessions: 4, meanMs: 8, p95Ms: 12 };
  const here = throughputAt(costs, measured, 20, 20);
  assert.equal(here.transactionsPerSecond, 500);
  assert.equal(here.latencyP95Ms, 12);
  const larger = throughputAt(costs, measured, 20, 5);
  assert.ok(Math.abs(larger.latencyMeanMs - 5) < 1e-9);
  assert.equal(larger.transactionsPerSecond, 800);
  assert.ok(larger.transactionsPerSecondRange[0] < 800 && 800 < larger.transactionsPerSecondRange[1]);
  assert.ok(Math.abs(larger.latencyP95Ms - 7.5) < 1e-9);
  const smaller = throughputAt(costs, measured, 20, 40);
  assert.ok(smaller.transactionsPerSecond < 500);
  // Never faster than the part of a transaction that is not reading.
  assert.ok(throughputAt(costs, measured, 20, -1000).latencyMeanMs >= 4);
});

test('no size runs faster than the client that drove the run can: its rate over the share of its core it used', () => {
  const costs = { perReadMs: 0.3, perReadMsRange: [0.25, 0.35] as [number, number], noReadMs: 0.19, from: 'test' };
  // PostgreSQL select-only as measured: 7,010 a second with the client's core 95 % busy.
  const measured = { sessions: 4, meanMs: 0.565, p95Ms: 0.94, transactionsPerSecond: 7010, clientCpuShare: 0.95 };
  const uncapped = throughputAt(costs, { sessions: 4, meanMs: 0.565, p95Ms: 0.94 }, 1.217, 0);
  assert.ok(uncapped.transactionsPerSecond > 20_000);
  const capped = throughputAt(costs, measured, 1.217, 0);
  assert.ok(Math.abs(capped.transactionsPerSecond - 7010 / 0.95) < 1e-6);
  assert.ok(capped.transactionsPerSecondRange[1] <= 7010 / 0.95 + 1e-6);
  // Latency as the sessions see it follows the capped rate.
  assert.ok(Math.abs(capped.latencyMeanMs - (4 * 1000 * 0.95) / 7010) < 1e-9);
});
