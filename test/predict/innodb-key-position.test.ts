// Where a range on an AUTO_INCREMENT key starts: the statement's constants and the leaf layout an
// ascending fill leaves (73 rows of sysbench's 206-byte row a leaf, 36 in the first). Pure parts first,
// then a real MariaDB: 100-row ranges that cross two or three leaves, which a drawn start predicted as
// two whatever their place (8 gets where 10 were measured), and open-ended LIMIT ranges whose optimizer dives
// descend to the last leaf through other level-1 pages (43 predicted against 47).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { constantBounds } from '../../src/predict/innodb/key-bounds';
import { ascendingKeyLayout } from '../../src/predict/innodb/key-position';
import { placeKeys, spreadEvenly } from '../../src/predict/innodb/range-placement';
import type { InnodbIndexFacts } from '../../src/predict/innodb/facts';
import { mariadb, need, skipUnless } from '../support/engines';
import { labServer, measureLab } from '../support/lab';
import { mariadbQuery } from '../support/sql';

describe("a composite key's rows by its first column", () => {
  // 30 blocks of 1,000 customers, five neighbouring customers in each (a range of days that follows the
  // customer's number within a block); and a skewed column, most rows on low ids, as one drawn from a
  // uniform draw's own range (1 + a % (1 + b % n)).
  const blocked = Array.from({ length: 30 }, (_, b) => [200, 201, 202, 203, 204].map((r) => 1 + b * 1000 + r)).flat();
  const skewed = Array.from({ length: 2000 }, (_, i) => 1 + ((i * 7919) % (1 + ((i * 104729) % 30000))));

  test('values spread evenly over the column pass, values crowded on low ids do not', () => {
    assert.ok(spreadEvenly(blocked, 1, 30000));
    assert.ok(!spreadEvenly(skewed, 1, 30000));
    assert.ok(!spreadEvenly(blocked.slice(0, 40), 1, 30000), 'a few blocks are not the whole span');
  });

  test('each row as far along the leaves as its value along the column; skewed values stay drawn', () => {
    const clustered = { table: 'o', clustered: true, keyColumns: ['cust_id', 'seq'], leafPages: 1000, rows: 100_000 } as InnodbIndexFacts;
    const places = placeKeys(clustered, 16384, blocked, { 'o.cust_id': [1, 30000] });
    assert.deepEqual(
      places?.slice(0, 5).map((p) => p.leaf),
      [6, 6, 6, 6, 6],
    );
    assert.equal(new Set(places?.map((p) => p.leaf)).size, 30, 'five neighbours share a leaf in every block');
    assert.equal(placeKeys(clustered, 16384, skewed, { 'o.cust_id': [1, 30000] }), undefined);
    assert.equal(placeKeys(clustered, 16384, blocked, {}), undefined, "without the column's ends, drawn");
  });
});

describe('constant bounds of a statement', () => {
  test('BETWEEN, comparisons and equality on the column, through aliases', () => {
    assert.deepEqual(constantBounds('SELECT c FROM sbtest3 WHERE id BETWEEN 131999 AND 132098', 'sbtest3', 'id'), { from: 131999, to: 132098 });
    assert.deepEqual(constantBounds('SELECT id, c FROM t WHERE id > 500 ORDER BY id LIMIT 10', 't', 'id'), { from: 501 });
    assert.deepEqual(constantBounds('SELECT * FROM t WHERE id >= 5 AND id < 9', 't', 'id'), { from: 5, to: 8 });
    assert.deepEqual(constantBounds('SELECT a.id, b.c FROM t1 a JOIN t2 b ON b.id = a.id WHERE a.id BETWEEN 10 AND 20', 't1', 'id'), { from: 10, to: 20 });
    assert.deepEqual(constantBounds('SELECT * FROM `db`.`t1` AS x WHERE x.`id` = 7', 't1', 'id'), { from: 7, to: 7 });
  });

  test('no bounds where they belong to another table, another column, or a disjunction', () => {
    assert.equal(constantBounds('SELECT a.id, b.c FROM t1 a JOIN t2 b ON b.id = a.id WHERE a.id BETWEEN 10 AND 20', 't2', 'id'), undefined);
    assert.equal(
      constantBounds('SELECT * FROM t1 a JOIN t2 b ON b.id = a.id WHERE id > 5', 't1', 'id'),
      undefined,
      'unqualified in a join: whose id is not said',
    );
    assert.equal(constantBounds('SELECT * FROM t WHERE k BETWEEN 1 AND 9', 't', 'id'), undefined);
    assert.equal(constantBounds('SELECT * FROM t WHERE id < 5 OR id > 100', 't', 'id'), undefined);
    assert.deepEqual(constantBounds('UPDATE t SET id = 5 WHERE id BETWEEN 7 AND 9', 't', 'id'), { from: 7, to: 9 }, 'an assignment is no condition');
    assert.equal(constantBounds('SELECT * FROM t WHERE id > 9 AND id < 3', 't', 'id'), undefined, 'an empty range');
  });
});

describe('the leaf an ascending AUTO_INCREMENT key puts a row in', () => {
  const sbtest: InnodbIndexFacts = {
    reportName: 'sbtest.sbtest3',
    table: 'sbtest3',
    index: 'PRIMARY',
    clustered: true,
    leafPages: 2056,
    sizePages: 2084,
    spacePages: 9000,
    cachedBefore: [],
    rows: 148_032,
    unique: true,
    keyBytes: 4,
    entryBytes: 206,
    autoIncrementKey: true,
    keyColumns: ['id'],
  };

  test('73 rows a leaf, 36 in the first, as probed on the server', () => {
    const l = ascendingKeyLayout(sbtest, 16384)!;
    assert.equal(l.perLeaf, 73);
    assert.equal(l.first, 36);
    // Probed: ids 73, 146, 2337, 10000, 75000, 131999 and 149990 were read from the pages of leaves 1, 2, 32, 137, 1027, 1808, 2055.
    assert.deepEqual([36, 37, 73, 146, 2337, 10000, 75000, 131999, 149990].map(l.leafOf), [0, 1, 1, 2, 32, 137, 1027, 1808, 2055]);
    // Probed: the three level-1 pages held 601, 1,203 and 252 leaves.
    assert.deepEqual([0, 600, 601, 1803, 1804, 2055].map(l.parentOf), [0, 0, 1, 1, 2, 2]);
  });

  test('no layout where the statistics disagree with an ascending fill, or the index is not clustered', () => {
    assert.equal(ascendingKeyLayout({ ...sbtest, leafPages: 3000 }, 16384), undefined, 'leaves filled to 2/3: inserted out of order');
    assert.equal(ascendingKeyLayout({ ...sbtest, leafPages: 3000, autoIncrementKey: false }, 16384), undefined);
    assert.equal(ascendingKeyLayout({ ...sbtest, clustered: false }, 16384), undefined);
  });

  // An application's own ascending ids, or rows loaded in key order, fill the leaves as AUTO_INCREMENT does
  // (the schema corpus's seed 2: 2,100 lookups of a date range read 30 pages, predicted 1,875 in random order).
  test('a key filled in ascending order without AUTO_INCREMENT has the same layout, told by its fill', () => {
    const own = ascendingKeyLayout({ ...sbtest, autoIncrementKey: false }, 16384);
    const auto = ascendingKeyLayout(sbtest, 16384);
    assert.ok(own && auto);
    for (const key of [1, 75_000, 131_999]) assert.equal(own.leafOf(key), auto.leafOf(key), `key ${key}`);
  });

  // The rows come from sampled statistics: a 100,000-row table analysed 15 times said 98,712 fourteen times
  // and 96,175 once, 4 % under the leaves an ascending fill implies. The key's ends, read after the runs,
  // give the rows exactly; before, that one analysis left a join's lookups drawn (280 pages read against 14).
  test("looked-up keys are placed on the exact rows the key's ends give, not the sampled estimate", () => {
    const sampled = { ...sbtest, rows: 143_800 };
    assert.equal(placeKeys(sampled, 16384, [75000], {}), undefined, 'the premise: the estimate alone fails the check');
    assert.deepEqual(
      placeKeys(sampled, 16384, [75000, 131999], { 'sbtest3.id': [1, 150_000] })?.map((p) => p.leaf),
      [1027, 1808],
    );
    assert.deepEqual(
      placeKeys(sampled, 16384, [75100], { 'sbtest3.id': [101, 150_100] })?.map((p) => p.leaf),
      [1027],
      'ids counted from the lowest',
    );
    assert.equal(placeKeys(sampled, 16384, [75000], { 'sbtest3.id': [1, 400_000] }), undefined, 'ids with gaps fail the check, as they should');
  });
});

const availability = mariadb();

describe('MariaDB: a primary range placed by its key', skipUnless(availability), () => {
  const server = labServer(() => need(availability), '128M', { rows: 150_000, k: 'random', index: true });

  // A secondary range is placed on the column's lowest and highest value, read after the runs: with the
  // lower half of k cached, a covering range in the upper half reads its leaves and one in the lower half
  // reads none (a drawn start predicted half of either).
  test('covering ranges of k in its cached and its uncached half: pages read as measured', async () => {
    await server().restart();
    await mariadbQuery(server().port, 'SELECT COUNT(*) FROM lab.s WHERE k <= 75000');
    for (const from of [20_000, 100_000]) {
      const report = await measureLab(server(), `SELECT COUNT(*) FROM s WHERE k BETWEEN ${from} AND ${from + 19_999}`, { runs: 1, cold: 'no' });
      const r = report.runs[0];
      const [measured, predicted] = [r.measured.physicalReads! + (r.measured.readAhead ?? 0), r.predicted.physicalReads! + (r.predicted.readAhead ?? 0)];
      assert.ok(from < 75_000 ? measured <= 2 : measured >= 15, `the premise: ${measured} pages read from k = ${from}`);
      assert.ok(Math.abs(predicted - measured) <= 3, `from k = ${from}: ${predicted} pages read predicted against ${measured}`);
    }
  });

  // Starting 5 rows into leaf 501, the 100 rows end in leaf 502; starting 60 rows into leaf 1001, in leaf 1003.
  for (const [from, leaves] of [
    [37 + 73 * 500 + 5, 2],
    [37 + 73 * 1000 + 60, 3],
  ] as const) {
    test(`100 rows from id ${from}: ${leaves} leaves, predicted as measured`, async () => {
      const report = await measureLab(server(), `SELECT c FROM s WHERE id BETWEEN ${from} AND ${from + 99}`, { runs: 3, cold: 'no' });
      const warm = report.runs.slice(1);
      assert.ok(
        warm.every((r) => r.measured.logicalReads === warm[0].measured.logicalReads),
        'the premise: warm runs cost the same',
      );
      for (const r of warm)
        assert.equal(
          r.predicted.logicalReads,
          r.measured.logicalReads,
          `run ${r.run}: ${r.predicted.logicalReads} gets predicted against ${r.measured.logicalReads}`,
        );
      assert.ok(
        report.runs.some((r) => (r.prediction?.assumptions ?? []).some((a) => /the range starts at id = /.test(a))),
        'the report says where it placed the range',
      );
    });
  }

  // A unique search looks for the first record ≥ its key through node pointers that hold each child's
  // first key: a leaf's first key is reached from the leaf before, and on its last key the search steps on.
  test("point selects of a leaf's first, middle and last key: 4, 3 and 4 gets, predicted so", async () => {
    const first = 37 + 73 * 499;
    for (const [id, gets] of [
      [first, 4],
      [first + 30, 3],
      [first + 72, 4],
    ] as const) {
      const report = await measureLab(server(), `SELECT c FROM s WHERE id = ${id}`, { runs: 2, cold: 'no' });
      const r = report.runs[1];
      assert.equal(r.measured.logicalReads, gets, `the premise: id ${id} measured ${r.measured.logicalReads}`);
      assert.equal(r.predicted.logicalReads, gets, `id ${id}: ${r.predicted.logicalReads} predicted`);
    }
  });

  // The optimizer's two dives of an open-ended range reach the last leaf through the last level-1 page: from
  // the first level-1 page they also pass the one between (measured 47, 45 and 43 gets from the three).
  test('LIMIT 1000 from a start under each level-1 page: the dives part where the key puts it, within 5 %', async () => {
    for (const from of [10_000, 60_000, 140_000]) {
      const report = await measureLab(server(), `SELECT id, c FROM s WHERE id > ${from} ORDER BY id LIMIT 1000`, { runs: 2, cold: 'no' });
      const r = report.runs[1];
      assert.ok(
        Math.abs(r.predicted.logicalReads! - r.measured.logicalReads!) <= 0.05 * r.measured.logicalReads!,
        `from ${from}: ${r.predicted.logicalReads} gets predicted against ${r.measured.logicalReads}`,
      );
    }
  });
});

describe('keys placed along leaves an ascending fill does not explain', () => {
  // 120,000 rows at 100 a leaf (1,200 leaves) where an ascending fill of 137-byte records puts 111.
  const orders: InnodbIndexFacts = {
    reportName: 'shop.orders',
    table: 'orders',
    index: 'PRIMARY',
    clustered: true,
    leafPages: 1200,
    sizePages: 1250,
    spacePages: 1400,
    cachedBefore: [],
    rows: 118_859,
    unique: true,
    keyBytes: 4,
    entryBytes: 137,
    autoIncrementKey: false,
    keyColumns: ['id'],
  };

  test('ids running densely between their ends: each as far along the leaves as along the ids', () => {
    assert.equal(ascendingKeyLayout(orders, 16384), undefined, 'the premise: not an ascending fill');
    const placed = placeKeys(orders, 16384, [1, 100, 101, 60_000, 120_000], { 'orders.id': [1, 120_000] })!;
    assert.deepEqual(
      placed.map((p) => p.leaf),
      [0, 0, 1, 599, 1199],
    );
  });

  test('ids far sparser than the rows, or ends not read: not placed', () => {
    assert.equal(placeKeys(orders, 16384, [1, 5], { 'orders.id': [1, 480_000] }), undefined);
    assert.equal(placeKeys(orders, 16384, [1, 5], {}), undefined);
  });
});
