// What a table-wide update in key order leaves in a unique B-tree's leaves (version-churn.ts), against what
// pageinspect showed on PostgreSQL 15 after one (150,000 rows, int4 key, every leaf alike): 50 keys in
// posting lists, 112 plain, 202 in posting lists, 2 plain; each loaded leaf became two. Pure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChurnedLeaves, keyOrderChurn, PLAIN_AFTER_EARLIER_UPDATE } from '../../src/predict/postgres/version-churn';
import { firstKey } from '../../src/predict/postgres/key-bounds';

function runs(posting: Uint8Array): string {
  const out: string[] = [];
  for (let k = 0; k < posting.length;) {
    let e = k;
    while (e < posting.length && posting[e] === posting[k]) e++;
    out.push(`${posting[k] ? 'posting' : 'plain'} ${e - k}`);
    k = e;
  }
  return out.join(', ');
}

test('an int4 key: the pattern pageinspect showed, leaf after leaf', () => {
  const churn = keyOrderChurn(4);
  assert.equal(churn.keysPerLeaf, 366);
  assert.equal(churn.leavesPerLeaf, 2);
  assert.equal(runs(churn.posting), 'posting 50, plain 112, posting 202, plain 2');
});

test('an int8 key takes as many bytes per entry as an int4 one (8-byte alignment)', () => {
  assert.deepEqual(keyOrderChurn(8).posting, keyOrderChurn(4).posting);
});

test('the first key a scan reads, from its index condition', () => {
  assert.equal(firstKey('((sbtest2.id >= 16592) AND (sbtest2.id <= 16691))', 'id', false), 16592);
  assert.equal(firstKey('((sbtest2.id >= 16592) AND (sbtest2.id <= 16691))', 'id', true), 16691);
  assert.equal(firstKey('(id > 7122)', 'id', false), 7123);
  assert.equal(firstKey('(b.id = a.id)', 'id', false), undefined);
  assert.equal(firstKey('(k > 5)', 'id', false), undefined);
  assert.equal(firstKey('("Key" = 42)', 'Key', false), 42);
});

test('a leaf with a row updated earlier in its second half: its posting lists past the first run taken as plain (the shown draw: 85 % of such leaves, this one among them)', () => {
  const leaves = new ChurnedLeaves(keyOrderChurn(4), 1);
  // Leaf 2 (keys 733–1098): offset 100 is plain anyway, offset 200 in posting lists, the first run stays.
  assert.equal(leaves.killed(733 + 100), 1);
  assert.equal(leaves.killed(733 + 200), 0);
  leaves.updatedEarlier(733 + 50); // the first half: the leaf's pattern stays
  assert.equal(leaves.leavesUpdatedEarlier, 0);
  leaves.updatedEarlier(733 + 250);
  assert.equal(leaves.leavesUpdatedEarlier, 1);
  assert.equal(leaves.killed(733 + 100), 1);
  assert.equal(leaves.killed(733 + 200), 1, `the first such leaf is of the ${Math.round(PLAIN_AFTER_EARLIER_UPDATE * 100)} %`);
  assert.equal(leaves.killed(733 + 10), 0, 'the first run of posting lists stays');
  assert.equal(leaves.killed(733 + 250), 0, 'the row updated earlier keeps its own posting list');
  // Another leaf is untouched.
  assert.equal(leaves.killed(1099 + 200), 0);
});
