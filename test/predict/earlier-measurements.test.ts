// Where an earlier measurement of a write left its versions (earlier-measurements.ts), from the statistics
// alone: pgbench's accounts (2,000,000 rows, 61 a page) after one measurement of a 2,001-row range update
// (three rolled-back runs) and 4,000 committed updates, and after two measurements and a table-wide update.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beforeCommitted, betweenLoadedAndLive, earlierRuns } from '../../src/predict/postgres/earlier-measurements';
import type { PgRelationFacts } from '../../src/predict/postgres/facts';

const accounts = (over: Partial<PgRelationFacts>): PgRelationFacts => ({
  planName: 'a',
  reportName: 'a',
  kind: 'table',
  pages: 32948,
  tuples: 2_000_000,
  rowBytes: 97,
  fillfactor: 100,
  cachedBefore: [],
  ...over,
});
// One measurement (6,003 rolled back) and 4,000 committed updates, 230 of them HOT: 32,787 pages as loaded.
const warm = accounts({ rowsUpdated: { all: 10_003, hot: 230 }, changedSinceAnalyze: 4000 });

test('the rolled-back runs and the measurements they make', () => {
  assert.deepEqual(earlierRuns(warm, 2001), { runs: 3, measurements: 1 });
  assert.deepEqual(earlierRuns(accounts({ rowsUpdated: { all: 16_006, hot: 0 }, changedSinceAnalyze: 4000 }), 2001), { runs: 6, measurements: 2 });
  assert.equal(earlierRuns(accounts({ rowsUpdated: { all: 4000, hot: 0 }, changedSinceAnalyze: 4000 }), 2001), undefined, 'nothing rolled back');
  assert.equal(earlierRuns(accounts({}), 2001), undefined, 'no statistics');
});

test("with updates committed since, the versions lie before the committed ones': the last run's span whole, the run's before one block in two, the first run's one in three", () => {
  const at = beforeCommitted(warm, { dead: 1240, live: 2001, farBlocks: 47 }, 8192)!;
  const blocks = Array.from({ length: 1240 }, (_, j) => at(j));
  // The committed updates appended (4,000 - 230) / 61 = 62 blocks: the three runs' 33-block spans end before them.
  assert.ok(Math.max(...blocks) < 32948 - 61 && Math.min(...blocks) >= 32948 - 62 - 99, `${Math.min(...blocks)}-${Math.max(...blocks)}`);
  const spanStart = (run: number) => 32948 - 3770 / 61 - (3 - run) * (2001 / 61);
  const inRun = (run: number) => new Set(blocks.filter((b) => b >= Math.floor(spanStart(run)) && b < Math.floor(spanStart(run + 1))));
  assert.ok(inRun(2).size >= 32, `every block of the last run's span: ${inRun(2).size}`);
  assert.ok(inRun(1).size >= 15 && inRun(1).size <= 18, `one in two of the second run's 33 blocks: ${inRun(1).size}`);
  assert.ok(inRun(0).size >= 10 && inRun(0).size <= 12, `one in three of the first run's 33 blocks: ${inRun(0).size}`);
});

test("after a table-wide update, one block in five of each measurement's runs, one in ten more on run 2, between the rows as loaded and the live ones", () => {
  const updated = accounts({ pages: 65771, deadTuples: 2_014_569, rowsUpdated: { all: 2_016_006, hot: 4040 }, changedSinceAnalyze: 2_004_000 });
  const between = betweenLoadedAndLive(updated, 2001, 8192)!;
  assert.equal(between.first, 32787, 'the pages as loaded, 61 rows each');
  assert.equal(between.first + between.blocks, 65771 - 32787, 'up to the live rows, packed at the end');
  assert.equal(between.visited.length, 2 * 20, "two measurements, 20 of each one's 99 blocks on run 1");
  assert.equal(between.visitedOnRun2.length, 2 * 10, 'and 10 more of each on run 2');
  assert.equal(new Set([...between.visited, ...between.visitedOnRun2]).size, 60, "run 2's blocks are not run 1's");
  assert.ok(between.visited.every((b) => b >= between.first && b < between.first + between.blocks));
  assert.equal(
    betweenLoadedAndLive(accounts({ pages: 65771, rowsUpdated: { all: 2_000_000, hot: 0 }, changedSinceAnalyze: 2_000_000 }), 2001, 8192),
    undefined,
    'no earlier measurement',
  );
});
