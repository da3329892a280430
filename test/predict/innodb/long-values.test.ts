// Which statements read a table's long values, and where the pool starts with their pages: pure.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { placeOffPages, readsLongValues } from '../../../src/predict/innodb/long-values';
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
