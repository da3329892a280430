// Whether a secondary index was built by sorting (every leaf full), from statistics whose row count is
// sampled: held against its AUTO_INCREMENT table's own fill, the count's error cancels (pure logic, with
// the numbers of a held-out corpus draw whose statistics counted 144,228 of 148,032 rows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSortedBuild, leafFill } from '../../src/predict/innodb/index-pages';

const PAGE = 16384;
const table = (rows: number) => ({ rows, leafPages: 2056, entryBytes: 206, autoIncrementKey: true });
const k = (rows: number) => ({ rows, leafPages: 125, entryBytes: 13 });

test('a sorted build is told from inserts whatever the sampled row count', () => {
  for (const rows of [144_228, 148_032, 151_000]) assert.equal(isSortedBuild(k(rows), PAGE, table(rows)), true, `${rows} rows`);
  assert.ok(leafFill(k(144_228), PAGE) < 0.96, 'the premise: the fill alone takes the low count for inserts');
});

test("an index filled in its table's own order, or by random inserts, is not a sorted build", () => {
  const rows = 148_032;
  // As full as the table (ascending, 15/16): the same fill ratio.
  const ascending = { rows, leafPages: Math.round((2056 * 13.33) / 206.33), entryBytes: 13 };
  assert.equal(isSortedBuild(ascending, PAGE, table(rows)), false);
  const random = { rows, leafPages: Math.round(125 / Math.LN2), entryBytes: 13 };
  assert.equal(isSortedBuild(random, PAGE, table(rows)), false);
  assert.equal(isSortedBuild(k(rows), PAGE), true, 'without its table: the fill alone');
});
