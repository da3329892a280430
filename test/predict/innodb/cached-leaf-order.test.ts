// Where cached leaves whose page numbers do not tell their place lie along the keys (cached-leaf-order.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cachedLeafSlots } from '../../../src/predict/innodb/cached-leaf-order';

test('the leaves one pass read lie along the keys as their reads lay along the pass', () => {
  // Pages 1-5 first read 40 to 0 ms ago, 10 ms apart, one pass: the oldest at the keys' start, the newest at their end.
  const ages = new Map([[1, 40], [2, 30], [3, 20], [4, 10], [5, 0]]);
  assert.deepEqual(cachedLeafSlots([5, 3, 1, 4, 2], ages, 9), [8, 4, 0, 6, 2]);
});

test('two passes apart each spread over the keys; a leaf with no access time takes the first place left', () => {
  // One pass 1,020-1,000 ms ago, another 20-0 ms ago, each over the keys; page 9 has no access time.
  const ages = new Map([[1, 1020], [2, 1000], [3, 20], [4, 0]]);
  const slots = cachedLeafSlots([1, 2, 3, 4, 9], ages, 10);
  assert.equal(slots[0], 0);
  assert.equal(slots[1], 9);
  // The second pass's first and last places were taken by the first: the nearest free ones.
  assert.deepEqual([slots[2], slots[3]], [1, 8]);
  assert.equal(slots[4], 2);
});

test('more leaves than places: the ones left over get none', () => {
  const ages = new Map([[1, 20], [2, 10], [3, 0]]);
  const slots = cachedLeafSlots([1, 2, 3], ages, 2);
  assert.equal(slots.filter((s) => s !== undefined).length, 2);
});
