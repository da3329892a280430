// Which leaves with a row updated before a table-wide update kept no posting list past their first keys
// (version-churn.ts): each leaf is one case or the other, whole. The shown draw takes 108 of 127 of them as
// the one, in turn along the keys; the odd draws take every such leaf as the other, the even ones none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChurnedLeaves, keyOrderChurn, PLAIN_AFTER_EARLIER_UPDATE } from '../../src/predict/postgres/version-churn';

const churn = keyOrderChurn(4);
const perLeaf = churn.keysPerLeaf;
// A key past the first run of posting lists that the two cases treat apart: plain (marked) in the one case.
const apart = Array.from({ length: perLeaf }, (_, o) => o).find((o) => o >= perLeaf / 2 && churn.posting[o] === 1)!;

function leavesWithEarlierRows(draw: number, leaves: number): ChurnedLeaves {
  const c = new ChurnedLeaves(churn, 1, draw);
  for (let l = 0; l < leaves; l++) c.updatedEarlier(1 + l * perLeaf + perLeaf - 1);
  return c;
}

test('the shown draw takes each such leaf whole, 85 % of them as keeping no posting list', () => {
  const c = leavesWithEarlierRows(0, 127);
  const marked = Array.from({ length: 127 }, (_, l) => c.killed(1 + l * perLeaf + apart));
  assert.ok(
    marked.every((m) => m === 0 || m === 1),
    'each leaf is one case or the other',
  );
  const share = marked.reduce<number>((a, b) => a + b, 0) / marked.length;
  assert.ok(Math.abs(share - PLAIN_AFTER_EARLIER_UPDATE) <= 1 / 127, `share ${share}`);
  assert.deepEqual(marked.slice(0, 3), [1, 1, 1], 'a scan over one to three such leaves takes the usual case for none');
  // Any run of consecutive such leaves holds the share within one leaf.
  for (let from = 0; from + 20 <= 127; from += 7) {
    const n = marked.slice(from, from + 20).reduce<number>((a, b) => a + b, 0);
    assert.ok(Math.abs(n - 20 * PLAIN_AFTER_EARLIER_UPDATE) <= 1, `leaves ${from}-${from + 19}: ${n}`);
  }
});

test('the band takes every such leaf as the one case (even draws) or the other (odd draws)', () => {
  const key = 1 + 5 * perLeaf + apart;
  assert.equal(leavesWithEarlierRows(2, 10).killed(key), 1);
  assert.equal(leavesWithEarlierRows(1, 10).killed(key), 0);
});
