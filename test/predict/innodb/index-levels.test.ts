// An index's levels as counted after the runs decide its descent, where the leaves' fill would put another
// level: rolled-back inserts that split a sorted index's leaves to half full leave its root holding every
// pointer (the schema corpus's seed 3: 296 leaves at about half full, 2 levels counted; worked out from the
// leaves' fill, 3, and each of an IN list's 30 values dived and searched a level too deep: 318 gets predicted
// where 262 were measured).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexLayouts } from '../../../src/predict/innodb/index-layout';
import type { InnodbIndexFacts } from '../../../src/predict/innodb/facts';

const split: InnodbIndexFacts = {
  reportName: 'shop.orders.orders_cust',
  table: 'orders',
  index: 'orders_cust',
  clustered: false,
  leafPages: 296,
  sizePages: 394,
  spacePages: 10_000,
  cachedBefore: [],
  rows: 61_367,
  unique: false,
  keyBytes: 36,
  entryBytes: 41,
  autoIncrementKey: false,
  keyColumns: ['cust_id'],
};

test('levels counted after the runs decide the descent; without them the leaves fill decides', () => {
  const worked = new IndexLayouts([split], 16_384).of(0);
  const counted = new IndexLayouts([{ ...split, levels: 2 }], 16_384).of(0);
  assert.equal(worked.internal.length, 1, 'half-full leaves: a node level between root and leaves, worked out');
  assert.equal(counted.internal.length, 0, 'counted: the root points at the leaves');
  assert.equal(new IndexLayouts([{ ...split, levels: 4 }], 16_384).of(0).internal.length, 2, 'a deeper count is taken as it is');
});
