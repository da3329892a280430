// The workload report's view-model: the answers a newcomer reads first, and numbers never rounded into
// something they are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { percent, sizeText, workloadView } from '../../src/shared/workload-view';
import { workloadReportProblems, type WorkloadReport } from '../../src/shared/workload-report';

const report = JSON.parse(readFileSync('test/fixtures/workload/select-only-run.json', 'utf8')) as WorkloadReport;

test('the answers: the size for 99 % and 95 %, and what 4× the pool now does, from the curve', () => {
  const v = workloadView(report);
  assert.match(v.answers[0], /^≈ \d+ MiB serves 99 % of this mix's page requests from the pool\.$/);
  const now = report.curve.find((p) => p.current)!;
  const four = report.curve.find((p) => p.poolPages === now.poolPages * 4)!;
  const fewer = Math.round((1 - four.readsPerTransaction / now.readsPerTransaction) * 100);
  assert.ok(
    v.answers.some((a) => a.startsWith(`4× the pool now (16 MiB → 64 MiB): ${fewer} % fewer pages read`)),
    v.answers.join(' | '),
  );
  assert.equal(v.curve.filter((p) => p.current).length, 1);
  assert.match(v.measured!.text, /^Measured at 16 MiB: hit ratio/);
  assert.equal(v.statements.length, 1);
  assert.equal(v.statements[0].where, 'builtin:select-only:2');
});

test('without a 4× size on the curve nothing is claimed about it; a pool serving everything says 4× would not help', () => {
  const now = report.curve.find((p) => p.current)!;
  const trimmed = { ...report, curve: report.curve.filter((p) => p.poolPages < now.poolPages * 4) };
  assert.ok(!workloadView(trimmed).answers.some((a) => a.startsWith('4×')));
  const served = { ...report, curve: report.curve.map((p) => ({ ...p, readsPerTransaction: 0, hitRatio: 1 })) };
  assert.ok(workloadView(served).answers.some((a) => /already serves every request after warm-up: 4× would not help/.test(a)));
});

test('percentages never round up to 100 % when some requests miss; sizes in MiB and GiB', () => {
  assert.equal(percent(0.99996), '> 99.99 %');
  assert.equal(percent(1), '100.0 %');
  assert.equal(percent(0.9995), '99.95 %');
  assert.equal(sizeText(16 * 1048576), '16 MiB');
  assert.equal(sizeText(1.5 * 1073741824), '1.5 GiB');
});

test('a workload report read from a file is checked before it is rendered', () => {
  assert.deepEqual(workloadReportProblems(report), []);
  assert.deepEqual(workloadReportProblems({ bufferlensWorkload: 2 }), ['bufferlensWorkload is not 1']);
  assert.ok(workloadReportProblems({ ...report, curve: [{ poolBytes: 'x' }] }).length > 0);
});

test('the title names each file once, with the weights of its statements', () => {
  const mix = {
    ...report,
    scripts: [
      { name: '/w/mix.sql#1', weight: 8 },
      { name: '/w/mix.sql#2', weight: 2 },
      { name: 'builtin:select-only', weight: 3 },
    ],
  };
  assert.equal(workloadView(mix).title, 'Workload: mix.sql, weights 8 and 2; builtin:select-only @3');
});

test("the statements' shares of executions add up to 100 % without the transactions' BEGIN and END", () => {
  const s = report.statements[0];
  const mix = {
    ...report,
    statements: [
      { ...s, sql: 'BEGIN', role: 'control' as const, executions: 0.25 },
      { ...s, executions: 0.3 },
      { ...s, line: 3, executions: 0.2 },
      { ...s, sql: 'END', role: 'control' as const, executions: 0.25 },
    ],
  };
  const shares = workloadView(mix).statements.map((x) => x.share);
  assert.deepEqual(shares, ['60.0 %', '40.0 %']);
});
