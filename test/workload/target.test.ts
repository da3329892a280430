// --target: the smallest size on the curve that reaches a planner's target, judged pessimistically.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTarget, recommend } from '../../src/workload/target';
import type { WorkloadCurvePoint, WorkloadReport } from '../../src/shared/workload-report';

const MiB = 1048576;

function point(mb: number, hitRatio: number, tps?: [number, number, number], p95 = 10): WorkloadCurvePoint {
  return {
    poolPages: (mb * MiB) / 16384,
    poolBytes: mb * MiB,
    current: mb === 32,
    hitRatio,
    missRatio: 1 - hitRatio,
    requestsPerTransaction: 60,
    readsPerTransaction: 60 * (1 - hitRatio),
    readsPerSecond: 60 * (1 - hitRatio) * 500,
    statements: [],
    ...(tps ? { throughput: { transactionsPerSecond: tps[1], transactionsPerSecondRange: [tps[0], tps[2]], latencyMeanMs: 8, latencyP95Ms: p95 } } : {}),
  };
}

const report = (curve: WorkloadCurvePoint[]) => ({ curve }) as unknown as WorkloadReport;

test('target syntax: hit ratio in percent or as a fraction, rates, p95 in ms; anything else is refused with the forms', () => {
  assert.deepEqual(parseTarget('hit-ratio=99%'), { kind: 'hit-ratio', value: 0.99 });
  assert.deepEqual(parseTarget('hit=0.95'), { kind: 'hit-ratio', value: 0.95 });
  assert.deepEqual(parseTarget('tps=800'), { kind: 'transactions-per-second', value: 800 });
  assert.deepEqual(parseTarget('reads-per-second=250'), { kind: 'reads-per-second', value: 250 });
  assert.deepEqual(parseTarget('p95=12ms'), { kind: 'p95-latency-ms', value: 12 });
  assert.throws(() => parseTarget('speed=fast'), /--target takes hit-ratio=99%, reads-per-second=500, tps=800 or p95=12ms, not "speed=fast"/);
  assert.throws(() => parseTarget('tps=80%'), /--target takes/);
  assert.throws(() => parseTarget('hit=150%'), /between 0 and 100 %/);
});

test('the smallest size that reaches a hit ratio, with its margin and the size below that misses', () => {
  const curve = [point(16, 0.9), point(32, 0.95), point(64, 0.992), point(128, 0.999)];
  const r = recommend(report(curve), parseTarget('hit-ratio=99%'));
  assert.equal(r.poolBytes, 64 * MiB);
  assert.equal(r.margin, '0.20 points above');
  assert.deepEqual(r.smallerMisses, { poolBytes: 32 * MiB, predicted: 0.95 });
  const none = recommend(report(curve), parseTarget('hit-ratio=99.99%'));
  assert.equal(none.poolBytes, null);
  assert.match(none.why!, /not reached by the largest size on the curve/);
});

test('transactions per second are judged by the low end of their band; without a measured run there is no answer, said why', () => {
  const curve = [point(16, 0.9, [400, 450, 480]), point(32, 0.95, [560, 600, 640]), point(64, 0.99, [790, 820, 850])];
  // 600 at 32 MB would do on the central value, but its band reaches down to 560.
  const r = recommend(report(curve), parseTarget('tps=580'));
  assert.equal(r.poolBytes, 64 * MiB);
  assert.equal(r.predicted, 790);
  assert.equal(r.margin, '36 % above');
  const p95 = recommend(report(curve), parseTarget('p95=10.5ms'));
  assert.equal(p95.poolBytes, 64 * MiB);
  const noRun = recommend(report([point(16, 0.9), point(32, 0.95)]), parseTarget('tps=100'));
  assert.equal(noRun.poolBytes, null);
  assert.match(noRun.why!, /measured run \(workload run\)/);
});
