// The clustered leaves a write's reads requested, and the row each stands for: pure.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { leafOfRow, recordRowLeaves } from '../../../src/predict/innodb/row-leaves';
import type { IndexPages } from '../../../src/predict/innodb/index-pages';

const layout = { leaves: (k: number) => 100 + k } as unknown as IndexPages;

describe('the leaves a write found its rows on', () => {
  test('are the leaf requests in order, a leaf held for several rows once, and the pool is restored', () => {
    const seen: number[] = [];
    const pool = { access: (p: number) => (seen.push(p), true) };
    const original = pool.access;
    const recording = recordRowLeaves(pool, layout, 10);
    for (const p of [3, 105, 105, 7, 102, 105, 150]) pool.access(p);
    assert.deepEqual(recording.stop(), [105, 102, 105]);
    assert.equal(pool.access, original);
    assert.deepEqual(seen, [3, 105, 105, 7, 102, 105, 150], 'every request still reaches the pool');
  });
  test('spread over the rows in order; none where nothing was requested', () => {
    const of = leafOfRow([105, 102, 107], 6)!;
    assert.deepEqual([0, 1, 2, 3, 4, 5].map(of), [105, 105, 102, 102, 107, 107]);
    assert.equal(leafOfRow([], 6), undefined);
  });
});
