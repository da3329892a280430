// Leaves that split as entries are written and try to merge as a rollback removes them: pure.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LeafSplits, mergeLimit } from '../../../src/predict/innodb/leaf-splits';

const leaf = (k: number) => 1_000 + k;

describe('a rollback removing what inserts wrote', () => {
  test('a split pair stays under the merge limit, removal after removal, until merged back', () => {
    // 10 entries a page, the merge limit at 5: every leaf full (a sorted build).
    const s = new LeafSplits(10, 1, 5_000, leaf, 7, 1, 5);
    const added = s.apply(0, leaf(0));
    assert.equal(added, 5_000, 'the full leaf splits at the first entry');
    for (let k = 0; k < 3; k++) assert.equal(s.apply(0, leaf(0)), -1);
    // The page holds 6 + 3 entries: removals take it to 8, 7, 6 (above 5), then the split row merges back.
    assert.deepEqual([s.removeBelowLimit(leaf(0)), s.removeBelowLimit(leaf(0)), s.removeBelowLimit(leaf(0))], [false, false, false]);
    const half = new LeafSplits(10, 1, 5_000, leaf, 7, 1, 7);
    half.apply(0, leaf(0));
    half.apply(0, leaf(0));
    assert.equal(half.removeBelowLimit(leaf(0)), true, 'at a limit of 7, a page of 6 left is below it');
  });
  test('a page no entry was written into is not tracked', () => {
    const s = new LeafSplits(10, 0.7, 5_000, leaf, 7);
    assert.equal(s.removeBelowLimit(leaf(3)), false);
  });
  test('the merge limit is half a page of records', () => {
    assert.equal(mergeLimit(41, 16_384), 8_192 / 41);
  });
  test('random-order fills split about once in 1.44/capacity inserts', () => {
    const capacity = 35;
    let splits = 0;
    const n = 20_000;
    const s = new LeafSplits(capacity, 0.69, 1_000_000, leaf, 11);
    for (let k = 0; k < n; k++) if (s.apply(k, leaf(k)) >= 0) splits++;
    const expected = (n * Math.LOG2E) / capacity;
    assert.ok(Math.abs(splits - expected) < 0.15 * expected, `${splits} splits, about ${Math.round(expected)} expected`);
  });
});
