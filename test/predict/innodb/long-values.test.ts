// Which statements read a table's long values, and where the pool starts with their pages: pure.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { placeMeasuredOffPages, placeOffPages, readsLongValues } from '../../../src/predict/innodb/long-values';
import { IndexLayouts } from '../../../src/predict/innodb/index-layout';
import type { InnodbIndexFacts } from '../../../src/predict/innodb/facts';

const orders: InnodbIndexFacts = {
  reportName: 'shop.orders',
  table: 'orders',
  index: 'PRIMARY',
  clustered: true,
  leafPages: 1_000,
  sizePages: 1_010,
  spacePages: 2_000,
  cachedBefore: [],
  unique: true,
  rows: 20_000,
  keyBytes: 8,
  entryBytes: 300,
  autoIncrementKey: true,
  columnBytes: { id: 8, amount: 4, pad: 501, note: 8_388_609 },
  offPagePages: 400,
};

describe('the long columns a statement reads', () => {
  const reads = (sql: string, f = orders) => readsLongValues(sql, f, 16_384);
  test('named, selected by *, or under an exclusive lock', () => {
    assert.deepEqual(reads('SELECT sum(length(note)) FROM orders WHERE seq BETWEEN 1 AND 5'), ['note']);
    assert.deepEqual(reads('SELECT * FROM orders WHERE amount > 5'), ['note']);
    assert.deepEqual(reads('SELECT o.* FROM orders o'), ['note']);
    assert.deepEqual(reads('UPDATE orders SET amount = amount + 1 WHERE pad LIKE "x%"'), ['note']);
    assert.deepEqual(reads('DELETE FROM orders WHERE amount = 3'), ['note']);
    assert.deepEqual(reads('SELECT amount FROM orders WHERE amount = 3 FOR UPDATE'), ['note']);
    assert.deepEqual(reads('INSERT INTO orders (amount, note) SELECT amount, `note` FROM orders'), ['note']);
  });
  test('not where the statement leaves them out', () => {
    assert.deepEqual(reads('SELECT count(*) FROM orders WHERE amount > 5'), []);
    assert.deepEqual(reads('SELECT amount, pad FROM orders WHERE notes_count = 1'), []);
    assert.deepEqual(reads('SELECT amount FROM orders LOCK IN SHARE MODE'), []);
    assert.deepEqual(reads('SELECT amount * 2, count(*) FROM orders GROUP BY 1'), []);
    assert.deepEqual(reads('SELECT * FROM orders', { ...orders, offPagePages: 0 }), []);
  });
});

describe('long values placed in the starting pool', () => {
  test('in the other pages nearest after their leaf, then nearest the tail', () => {
    // 100 and 101 are leaves, 900+ other pages; leaf 100 has two off-page pages, leaf 101 three.
    const lru = Int32Array.from([100, 900, 901, 101, 902]);
    placeOffPages(
      lru,
      (p) => p >= 900,
      new Map([
        [100, [200, 201]],
        [101, [300, 301, 302]],
      ]),
    );
    assert.deepEqual([...lru], [100, 200, 201, 101, 300]);
  });
  test('no more of them than there are other pages', () => {
    const lru = Int32Array.from([901, 100, 900]);
    placeOffPages(lru, (p) => p >= 900, new Map([[100, [200, 201, 202]]]));
    assert.deepEqual([...lru], [201, 100, 200]);
  });
});

describe('long values placed without doubling a page', () => {
  test('a page the list holds already stays where it is', () => {
    // Leaf 100's long values are laid out on 101, which the list holds as a leaf of its own.
    const lru = Int32Array.from([100, 900, 101, 901]);
    placeOffPages(lru, (p) => p >= 900, new Map([[100, [101, 102]]]));
    assert.deepEqual([...lru], [100, 102, 101, 901]);
  });
});

describe('long values the pool walk found', () => {
  test('take the off-page pages of the cached leaves from the head, then any, never one listed already', () => {
    // Leaves 100 and 101 cached (101 nearer the head); the walk found long values at positions 1, 3 and 4.
    const lru = Int32Array.from([101, 900, 100, 901, 902]);
    const byLeaf = new Map([
      [100, [200, 201]],
      [101, [300]],
      [102, [400, 100]],
    ]);
    const walk = [
      [0, 7_001, 4, 0, 0],
      [0, 7_002, 1, 0, 0],
      [0, 7_003, 3, 0, 0],
    ];
    placeMeasuredOffPages(lru, walk, byLeaf, () => 0);
    assert.deepEqual([...lru], [101, 300, 100, 200, 201]);
  });
  test('no more than the walk found: none where it found none', () => {
    const lru = Int32Array.from([100, 900]);
    placeMeasuredOffPages(lru, [], new Map([[100, [200]]]), () => 0);
    assert.deepEqual([...lru], [100, 900]);
  });
});

describe('a cached leaf where the layout keeps long values', () => {
  test('is a leaf only: the long value it displaced takes the page of the leaf it stands for', () => {
    // Every other page of the extents is a long value's (spread 2); the residency shows file pages 64-163.
    const f = {
      ...orders,
      autoIncrementKey: false,
      leafPages: 132,
      sizePages: 140,
      offPagePages: 100,
      cachedBefore: [
        [3, 12],
        [64, 163],
      ] as Array<[number, number]>,
    };
    const l = new IndexLayouts([f], 16_384).of(0);
    const leaves = new Set(Array.from({ length: f.leafPages }, (_, k) => l.leaves(k)));
    const offPages = Array.from({ length: f.leafPages }, (_, k) => l.offPage(k)).flat();
    assert.equal(leaves.size, f.leafPages, 'each leaf its own page');
    assert.equal(new Set(offPages).size, offPages.length, 'each long value its own page');
    assert.deepEqual(
      offPages.filter((p) => leaves.has(p)),
      [],
      'no page both',
    );
    const cached = new Set(new IndexLayouts([f], 16_384).cachedPages(0));
    assert.ok([...leaves].filter((p) => cached.has(p)).length >= 100, 'the cached pages are leaves');
  });
});
