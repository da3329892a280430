// Which heap pages an index-only scan's fetches go to (heap-layout.ts notAllVisible): the live rows' pages
// only, the cached dirty ones first as far as the scan's share of rows reaches them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { notAllVisible } from '../../src/predict/postgres/heap-layout';
import type { PgRelationFacts } from '../../src/predict/postgres/facts';

const table: PgRelationFacts = { planName: 't', reportName: 't', kind: 'table', pages: 8000, tuples: 150_000, cachedBefore: [] };
const notes = () => ({ assumptions: new Set<string>(), unmodelled: new Set<string>() });

test('after a table-wide update and VACUUM, the fetches land on the later half, where the live rows are', () => {
  const blocks = notAllVisible(table, 0, { first: 4000, pages: 4000 }, 20_000, 100, 0, notes())!;
  // 5 entries a live page: 100 fetches on 20 pages, none before block 4,000.
  assert.equal(blocks.length, 20);
  assert.ok(blocks.every((b) => b >= 4000 && b < 8000));
});

test('the cached dirty pages first, as many as the scanned share of rows reaches', () => {
  const dirty = Array.from({ length: 100 }, (_, k) => 10 * k);
  const wide = notAllVisible(table, 0, { first: 0, pages: 8000 }, 100_000, 2_000, 0, notes(), dirty)!;
  // Two thirds of the rows, 19 a page: every dirty page holds one of them.
  assert.deepEqual(wide.slice(0, 100), dirty);
  const narrow = notAllVisible(table, 0, { first: 0, pages: 8000 }, 1_000, 50, 0, notes(), dirty)!;
  // A 150th of the rows: about one dirty page in eight holds one.
  const taken = narrow.filter((b, k) => k < 20 && dirty.includes(b)).length;
  assert.ok(taken >= 8 && taken <= 16, `${taken} dirty pages taken`);
});
