// Index lookups through the InnoDB predictor, without a server: range, ref and eq_ref nodes as MariaDB's
// ANALYZE FORMAT=JSON reports them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InnodbPredictor } from '../../src/predict/innodb/predictor';
import type { InnodbIndexFacts, InnodbPredictionSettings } from '../../src/predict/innodb/facts';
import { parseInnodbPlan } from '../../src/predict/innodb/plan';

const common = { table: 'r', spacePages: 2000, cachedBefore: [] as Array<[number, number]>, rows: 100_000, autoIncrementKey: false };
const facts: InnodbIndexFacts[] = [
  { ...common, reportName: 'lab.r', index: 'PRIMARY', clustered: true, leafPages: 1539, sizePages: 1571, unique: true, keyBytes: 4, entryBytes: 230 },
  { ...common, reportName: 'lab.r.k', index: 'k', clustered: false, leafPages: 128, sizePages: 161, unique: false, keyBytes: 8, entryBytes: 13 },
];
const settings: InnodbPredictionSettings = {
  product: 'mariadb',
  poolPages: 8192,
  pageSize: 16384,
  oldBlocksPct: 37,
  oldBlocksTime: 1000,
  readAheadThreshold: 56,
  randomReadAhead: false,
  otherPagesUsed: 0,
  changeBuffering: 'none',
  changeBufferMaxPct: 25,
  lruScanDepth: 1536,
};

const node = (o: Record<string, unknown>) => ({ query_block: { nested_loop: [{ table: { table_name: 'r', r_loops: 1, ...o } }] } });

test('a secondary range with lookups reads the distinct clustered leaves its rows fall on', () => {
  const p = new InnodbPredictor(facts, settings);
  const r = p.predictRun({ accesses: parseInnodbPlan(node({ access_type: 'range', key: 'k', r_rows: 1945 })).accesses });
  // 1,945 lookups over 1,539 leaves touch 1,539 × (1 − e^(−1945/1539)) ≈ 1,102 of them, plus the walk.
  assert.ok(Math.abs(r.predicted.physicalReads! - 1102 - 4 - 2) < 40, `reads ${r.predicted.physicalReads}`);
  // MariaDB counted 5,840 pages accessed for this node (r_engine_stats).
  assert.equal(
    r.predicted.logicalReads,
    1 + 3 + 3 + 1945 * 3,
    'the 128-leaf index is root and leaves: 1 + 3 pages, each leaf read from disk a get of the change-buffer bitmap; each lookup 3 pages',
  );
  assert.match(r.assumptions.join('\n'), /random order \(InnoDB keeps no correlation statistic/);
  assert.deepEqual(r.unmodelled, []);
  const again = p.predictRun({ accesses: parseInnodbPlan(node({ access_type: 'range', key: 'k', r_rows: 1945 })).accesses });
  assert.equal(again.predicted.physicalReads, 0, 'run 2 visits the same pages, now cached');
});

test('a covering range reads only the index', () => {
  const p = new InnodbPredictor(facts, settings);
  const r = p.predictRun({ accesses: parseInnodbPlan(node({ access_type: 'range', key: 'k', r_rows: 1945, using_index: true })).accesses });
  const leaves = Math.ceil(1945 / (100_000 / 128));
  assert.equal(r.predicted.logicalReads, 1 + leaves + leaves, 'the root, the leaves, and per leaf read from disk a get of the change-buffer bitmap');
  assert.match(r.assumptions.join('\n'), /covering/);
});

test("eq_ref by primary key: one descent and one leaf per loop, and a neighbour for a leaf's first or last key", () => {
  const p = new InnodbPredictor(facts, settings);
  const plan = { query_block: { nested_loop: [{ table: { table_name: 'r', access_type: 'eq_ref', key: 'PRIMARY', r_loops: 2000, r_rows: 1 } }] } };
  const r = p.predictRun({ accesses: parseInnodbPlan(plan).accesses });
  // 2 of a leaf's 65 keys (100,000 rows in 1,539 leaves) also request the leaf before or after.
  const steps = (2000 * 2) / (100_000 / 1539);
  assert.ok(
    Math.abs(r.predicted.logicalReads! - 2000 * 3 - steps) < 0.4 * steps,
    `${r.predicted.logicalReads} gets, ${steps.toFixed(0)} steps expected beyond 6,000`,
  );
  assert.ok(r.predicted.physicalReads! > 1000 && r.predicted.physicalReads! < 1250, `reads ${r.predicted.physicalReads}`);
});

test('an access without statistics is named, not guessed', () => {
  const p = new InnodbPredictor(facts, settings);
  const plan = { query_block: { table: { table_name: 'other', access_type: 'ref', key: 'x', r_loops: 1, r_rows: 5 } } };
  const r = p.predictRun({ accesses: parseInnodbPlan(plan).accesses });
  assert.equal(r.predicted.logicalReads, 0);
  assert.match(r.unmodelled.join('\n'), /ref access to other via x: no index statistics/);
});

test('MySQL EXPLAIN FORMAT=JSON (not executed): an inner table loops once per row the tables before it produced', () => {
  const p = new InnodbPredictor([...facts, { ...facts[0], table: 's', reportName: 'lab.s', leafPages: 5, sizePages: 6, rows: 2000 }], {
    ...settings,
    product: 'mysql',
  });
  // The shape MySQL 8 documents for a two-table nested loop, as EXPLAIN FORMAT=JSON prints it.
  const plan = {
    query_block: {
      select_id: 1,
      nested_loop: [
        { table: { table_name: 's', access_type: 'ALL', rows_examined_per_scan: 2000, rows_produced_per_join: 2000, filtered: '100.00' } },
        {
          table: {
            table_name: 'r',
            access_type: 'eq_ref',
            key: 'PRIMARY',
            used_key_parts: ['id'],
            rows_examined_per_scan: 1,
            rows_produced_per_join: 2000,
            filtered: '100.00',
          },
        },
      ],
    },
  };
  const r = p.predictRun({ accesses: parseInnodbPlan(plan).accesses });
  assert.match(r.assumptions.join('\n'), /lab\.r: eq_ref access, 2,000 × \(a descent and 1 leaf page for 1 rows/);
  assert.ok(r.predicted.logicalReads! >= 2000 * 3, `logical ${r.predicted.logicalReads}`);
});

test('without a plan (the EXPLAIN after the runs failed) the reads are not modelled, never 0', () => {
  const p = new InnodbPredictor(facts, settings);
  const r = p.predictRun({ accesses: [], planMissing: 'EXPLAIN FORMAT=JSON after the runs failed (denied)' });
  assert.deepEqual(r.predicted, { logicalReads: null, physicalReads: null, readAhead: null });
  assert.ok(r.unmodelled.some((u) => /plan: EXPLAIN FORMAT=JSON after the runs failed/.test(u)));
});
