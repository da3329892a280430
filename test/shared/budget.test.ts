// Page budgets as written above a statement: parsing, which runs a bound applies to, what is refused
// because it cannot be checked reliably, and the rewrite of --update. Pure: reports are built by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BudgetSyntaxError, budgetAbove, budgetSummary, checkBudget, formatBound, parseBudget, updatedBounds } from '../../src/shared/budget';
import type { Report, RunReport } from '../../src/shared/report';

const run = (n: number, logical: number, physical: number, readAhead: number | null, cold = false): RunReport => ({
  run: n,
  cold,
  elapsedMs: 1,
  residency: [],
  raw: {},
  measured: { logicalReads: logical, physicalReads: physical, readAhead },
  predicted: { logicalReads: logical + 1, physicalReads: physical, readAhead },
  ...(readAhead === null ? { notes: { readAhead: 'PostgreSQL has no read-ahead into shared buffers' } } : {}),
});
const report = (product: 'postgresql' | 'mariadb', version: string, runs: RunReport[]) => ({ engine: { product, version }, runs }) as unknown as Report;

test('bounds parse with their runs, operators and tolerances, and print back the same', () => {
  const b = parseBudget(' logical <= 1200, physical(cold) <= 300 +10%, read-ahead(warm) = 0 ±5%, logical(any) >= 2');
  assert.deepEqual(b.map(formatBound), ['logical <= 1200', 'physical(cold) <= 300 +10%', 'read-ahead(warm) = 0 ±5%', 'logical >= 2']);
  assert.equal(b[1].tolerance, 0.1);
  assert.throws(() => parseBudget('logical <= 12 ±5%'), BudgetSyntaxError, '± goes with =');
  assert.throws(() => parseBudget('reads <= 3'), /is not a bound/);
  assert.throws(() => parseBudget(''), /at least one bound/);
});

test('the budget is the annotation lines directly above the statement, several adding up', () => {
  const lines = [
    'SELECT 0;',
    '',
    '-- a comment',
    '-- bufferlens: budget logical <= 10',
    '--   bufferlens: BUDGET physical(warm) <= 0',
    'SELECT 1;',
    '',
    '-- bufferlens: budget logical <= 5',
    '',
    'SELECT 2;',
  ];
  const b = budgetAbove(lines, 5)!;
  assert.deepEqual(b.bounds.map(formatBound), ['logical <= 10', 'physical(warm) <= 0']);
  assert.deepEqual(b.lines, [
    { line: 3, count: 1 },
    { line: 4, count: 1 },
  ]);
  assert.equal(budgetAbove(lines, 9), undefined, 'a blank line separates an annotation from the statement');
  assert.equal(budgetAbove(lines, 0), undefined);
});

test('the worst run a bound applies to decides; tolerance widens an upper bound', () => {
  const r = report('postgresql', '18.1', [run(1, 130, 40, null, true), run(2, 120, 0, null), run(3, 125, 0, null)]);
  const [any, warm, cold, tight] = checkBudget(parseBudget('logical <= 129, logical(warm) <= 125, physical(cold) <= 38 +10%, physical(warm) < 0'), r);
  assert.deepEqual([any.status, any.measured], ['breach', 130]);
  assert.match(any.reason!, /logical 130, budget logical <= 129/);
  assert.deepEqual([warm.status, warm.measured, warm.predicted], ['within', 125, 126]);
  assert.deepEqual([cold.status, cold.measured], ['within', 40]);
  assert.equal(tight.status, 'breach');
  assert.match(budgetSummary([any, warm]), /^over budget: logical 130/);
  assert.equal(budgetSummary([warm, cold]), 'within budget');
});

test('what cannot be checked reliably is refused with the reason, never passed', () => {
  const pg15 = report('postgresql', '15.8', [run(1, 130, 40, null, false), run(2, 120, 0, null)]);
  const [physicalAny, readAhead, coldPg15] = checkBudget(parseBudget('physical <= 50, read-ahead(warm) <= 0, physical(cold) <= 50'), pg15);
  assert.equal(physicalAny.status, 'refused');
  assert.match(physicalAny.reason!, /depend on what the pool held before it: write physical\(warm\) or physical\(cold\)/);
  assert.match(readAhead.reason!, /does not report read-ahead reads: PostgreSQL has no read-ahead/);
  assert.match(coldPg15.reason!, /PostgreSQL 15 cannot evict one relation/);
  const maria = report('mariadb', '10.11.19-MariaDB', [run(1, 30, 3, 0, false), run(2, 20, 0, 0)]);
  assert.match(checkBudget(parseBudget('read-ahead(cold) <= 0'), maria)[0].reason!, /InnoDB cannot evict one table; check cold bounds right after a restart/);
  const oneRun = report('mariadb', '10.11.19-MariaDB', [run(1, 30, 3, 0, true)]);
  assert.match(checkBudget(parseBudget('logical(warm) <= 40'), oneRun)[0].reason!, /no warm run: measure with 2 runs or more/);
  assert.equal(budgetSummary(checkBudget(parseBudget('physical <= 1'), oneRun)), 'budget not checked');
});

test('--update sets upper bounds to the worst run plus the margin and keeps what it could not check', () => {
  const r = report('postgresql', '18.1', [run(1, 130, 40, null, true), run(2, 120, 0, null)]);
  const next = updatedBounds(parseBudget('logical(warm) <= 1, physical(cold) <= 1 +5%, read-ahead(cold) <= 7, logical = 3'), r, 0.1);
  assert.deepEqual(next.map(formatBound), ['logical(warm) <= 132', 'physical(cold) <= 44 +5%', 'read-ahead(cold) <= 7', 'logical = 130']);
  assert.ok(
    checkBudget(next.slice(0, 2), r).every((x) => x.status === 'within'),
    'the updated budget passes on the same report',
  );
});
