// Where a key lies along its index, from its column's statistics as the planner reads them: pure arithmetic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { positionsOf, shareBelow, type LeadStats } from '../../../src/measure/postgres/key-positions';

const uniform: LeadStats = { nullFrac: 0, mcv: [], freqs: [], bounds: [0, 100, 200, 300, 400] };

test('a key inside a bucket is interpolated between its bounds', () => {
  assert.equal(shareBelow(uniform, 150), 0.375);
  assert.equal(shareBelow(uniform, 0), 0);
  assert.equal(shareBelow(uniform, 400), 1);
  assert.equal(shareBelow(uniform, -5), 0);
});

test('the most common values below a key, and its own, come before it; the histogram shares the rest', () => {
  const s: LeadStats = { nullFrac: 0.1, mcv: [50, 250], freqs: [0.2, 0.1], bounds: [0, 100, 200, 300, 400] };
  // Below 150: the value 50 (0.2) and half of the histogram's first half of the other 0.6.
  assert.ok(Math.abs(shareBelow(s, 150) - (0.2 + 0.6 * 0.375)) < 1e-12);
  // A common value's new entry goes after its others.
  assert.ok(Math.abs(shareBelow(s, 250) - (0.3 + 0.6 * 0.625)) < 1e-12);
});

test('a descending index reverses the positions; a null key lies among the nulls at the end', () => {
  const s: LeadStats = { ...uniform, nullFrac: 0.2 };
  assert.deepEqual(positionsOf(s, [100, null], false), [0.2, 0.9]);
  assert.deepEqual(positionsOf(uniform, [100], true), [0.75]);
});

test('without a histogram a key is taken at its middle', () => {
  assert.equal(shareBelow({ nullFrac: 0, mcv: [], freqs: [], bounds: [] }, 7), 0.5);
});
