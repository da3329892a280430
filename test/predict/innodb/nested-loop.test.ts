// The order a nested loop's requests are replayed in (src/predict/innodb/nested-loop.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interleave, replayNested } from '../../../src/predict/innodb/nested-loop';
import { InnodbPool } from '../../../src/sim/policies/innodb-lru';

test("interleave spreads the inner requests evenly between the outer ones, keeping each side's order", () => {
  assert.deepEqual(interleave<string | number>(['a', 'b', 'c'], [1, 2, 3, 4, 5, 6]), ['a', 1, 2, 'b', 3, 4, 'c', 5, 6]);
  assert.deepEqual(interleave<string | number>(['a', 'b', 'c', 'd'], [1, 2]), ['a', 'b', 1, 'c', 'd', 2]);
  assert.deepEqual(interleave<number>([], [1, 2]), [1, 2]);
});

test('an inner lookup that loops per outer row is replayed between the outer requests; a table read once follows', () => {
  const seen: number[] = [];
  const pool = new InnodbPool(64);
  const original = pool.access.bind(pool);
  pool.access = (p: number) => (seen.push(p), original(p));
  const accesses = [
    { loops: 1, pages: [1, 2, 3] },
    { loops: 3, pages: [10, 11, 12] },
    { loops: 1, pages: [20] },
  ];
  replayNested(pool, accesses, (a) => a.loops > 1, (p, a) => a.pages.forEach((page) => p.access(page)));
  assert.deepEqual(seen, [1, 10, 2, 11, 3, 12, 20]);
  assert.equal(pool.counters().Innodb_buffer_pool_read_requests, 7);
});
