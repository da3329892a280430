// The INSERT trace and its rollback through the InnoDB predictor, without a server: the rules the
// MariaDB accuracy scenario checks against measurement, here as fast, exact properties.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InnodbPredictor } from '../../src/predict/innodb/predictor';
import type { InnodbIndexFacts, InnodbPredictionSettings } from '../../src/predict/innodb/facts';
import { LeafSplits } from '../../src/predict/innodb/leaf-splits';

function facts(unique: boolean): InnodbIndexFacts[] {
  const common = { table: 't', spacePages: 3200, cachedBefore: [] as Array<[number, number]>, rows: 1_000_000 };
  return [
    {
      ...common,
      reportName: 'lab.t',
      index: 'PRIMARY',
      clustered: true,
      leafPages: 1743,
      sizePages: 1763,
      unique: true,
      keyBytes: 4,
      entryBytes: 26,
      autoIncrementKey: true,
    },
    {
      ...common,
      reportName: 'lab.t.k',
      index: 'k',
      clustered: false,
      leafPages: 1030,
      sizePages: 1187,
      unique,
      keyBytes: 8,
      entryBytes: 13,
      autoIncrementKey: false,
    },
  ];
}

function settings(changeBuffering: 'none' | 'all'): InnodbPredictionSettings {
  return {
    product: 'mariadb',
    poolPages: 1014,
    pageSize: 16384,
    oldBlocksPct: 37,
    oldBlocksTime: 1000,
    readAheadThreshold: 56,
    randomReadAhead: false,
    otherPagesUsed: 0,
    changeBuffering,
    changeBufferMaxPct: 25,
    lruScanDepth: 1536,
  };
}

function reads(changeBuffering: 'none' | 'all', rolledBack: boolean, unique = false): number {
  const p = new InnodbPredictor(facts(unique), settings(changeBuffering));
  return p.predictRun({ accesses: [], insert: { table: 't', rows: 20_000, rowsFrom: 'Handler_write', rolledBack } }).predicted.physicalReads ?? NaN;
}

test('rolled back, change buffering halves the reads: the rollback reads every leaf the inserts skipped', () => {
  const off = reads('none', true);
  const on = reads('all', true);
  assert.ok(off > 30_000, `off ${off}: with the page cleaner's reserve, almost every leaf request misses, twice`);
  assert.ok(on / off > 0.45 && on / off < 0.55, `on/off ${(on / off).toFixed(3)}`);
});

test('committed, buffered inserts read almost nothing', () => {
  const off = reads('none', false);
  const on = reads('all', false);
  assert.ok(off > 15_000, `off ${off}`);
  assert.ok(on < 100, `on ${on}`);
});

test('a UNIQUE secondary index is never change-buffered', () => {
  const off = reads('none', true, true);
  const on = reads('all', true, true);
  assert.ok(Math.abs(on - off) / off < 0.01, `on ${on}, off ${off}`);
});

test('the prediction states the rows, the key order assumed and the settings; what-if varies change buffering', () => {
  const p = new InnodbPredictor(facts(false), settings('all'));
  const run = { accesses: [], insert: { table: 't', rows: 20_000, rowsFrom: 'Handler_write', rolledBack: true } };
  const r = p.predictRun(run);
  assert.match(r.assumptions.join('\n'), /20,000 rows inserted/);
  assert.match(r.assumptions.join('\n'), /random one of 1,030 leaf pages/);
  assert.match(r.assumptions.join('\n'), /innodb_change_buffering=all/);
  const w = p.whatIf([run]);
  const series = w.series.find((s) => s.setting === 'innodb_change_buffering');
  assert.ok(series, 'a change-buffering series');
  assert.deepEqual(
    series.points.map((x) => [x.label, x.current]),
    [
      ['none', false],
      ['all', true],
    ],
  );
  assert.ok(series.points[1].physicalReads < series.points[0].physicalReads * 0.6);
  const pool = w.series.find((s) => s.setting === 'innodb_buffer_pool_size')!;
  // ¼ of 1,014 pages is under MariaDB's 6 MiB minimum (384 pages): the sweep starts there instead.
  assert.equal(pool.points[0].value, 384);
  const biggest = pool.points[pool.points.length - 1];
  assert.ok(biggest.physicalReads < 2_500, `a 4× pool holds the whole index: ${biggest.physicalReads}`);
});

test('a table without statistics is named as unmodelled, not guessed', () => {
  const p = new InnodbPredictor(facts(false), settings('none'));
  const r = p.predictRun({ accesses: [], insert: { table: 'other', rows: 10, rowsFrom: 'Handler_write', rolledBack: true } });
  assert.equal(r.predicted.physicalReads, 0);
  assert.match(r.unmodelled.join('\n'), /INSERT into other/);
});

test('pages the inserts created count in the table after a commit, not after a rollback (they are freed)', () => {
  const after = (rolledBack: boolean) => {
    const p = new InnodbPredictor(facts(false), { ...settings('none'), poolPages: 8192 });
    return p.predictRun({ accesses: [], insert: { table: 't', rows: 5_000, rowsFrom: 'Handler_write', rolledBack } }).predictedAfter.get('lab.t')!;
  };
  // 5,000 rows of 26 bytes fill 9 new pages at 15/16.
  assert.equal(after(false) - after(true), 9);
});

test('leaves split when an insert finds them full: the page keeps half, a new page takes half', () => {
  const splits = new LeafSplits(100, 0.9, 5_000_000, (k) => 1000 + k, 3);
  let created = 0;
  for (let i = 0; i < 200; i++) {
    const page = splits.pageFor(0);
    const added = splits.apply(0, page);
    if (added >= 0) {
      created++;
      assert.equal(added, 5_000_000 + created - 1);
    }
  }
  // At most 20 % room at first, then 50 entries of room per half: 200 entries need at least 3 splits.
  assert.ok(created >= 3 && created <= 6, `splits ${created}`);
  assert.equal(splits.splits, created);
  const seen = new Set(Array.from({ length: 200 }, () => splits.pageFor(0)));
  assert.equal(seen.size, created + 1, 'keys of the leaf land on all its pages');
  assert.equal(splits.pageFor(1), 1001, 'an untouched leaf is its layout page');
});
