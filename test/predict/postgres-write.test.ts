// The PostgreSQL INSERT trace through the predictor, without a server: the counts the accuracy scenario
// checks against PostgreSQL 15 and 18, here as exact properties of the model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostgresPredictor } from '../../src/predict/postgres/predictor';
import type { PgPredictionSettings, PgRelationFacts } from '../../src/predict/postgres/facts';
import type { PlanNode } from '../../src/shared/report';
import { ZERO_COUNTERS } from '../support/plan-nodes';

const facts: PgRelationFacts[] = [
  { planName: 'ins', reportName: 'ins', kind: 'table', pages: 4425, tuples: 1_000_000, cachedBefore: [] },
  {
    planName: 'ins_pkey',
    reportName: 'ins_pkey',
    kind: 'index',
    pages: 2745,
    tuples: 1_000_000,
    table: 'ins',
    correlation: 1,
    ascending: true,
    cachedBefore: [],
  },
  { planName: 'ins_k', reportName: 'ins_k', kind: 'index', pages: 3820, tuples: 1_000_000, table: 'ins', correlation: 0, ascending: false, cachedBefore: [] },
];
const settings: PgPredictionSettings = {
  major: 15,
  nbuffers: 2048,
  blockSize: 8192,
  effectiveIoConcurrency: 1,
  ioCombineLimit: 16,
  maxConnections: 100,
  maxWorkerProcesses: 8,
  maxWalSenders: 10,
  autovacuumWorkerSlots: 3,
  otherBuffersUsed: 0,
};

function modify(operation: string, rows: number): PlanNode {
  const input: PlanNode = { nodeType: 'Function Scan', actualRows: rows, actualLoops: 1, total: ZERO_COUNTERS, self: ZERO_COUNTERS, children: [] };
  return { nodeType: 'ModifyTable', operation, relation: 'ins', actualRows: 0, actualLoops: 1, total: ZERO_COUNTERS, self: ZERO_COUNTERS, children: [input] };
}

test('an INSERT requests the heap, the sequence, the right-most leaf of an ascending key and a descent per random key', () => {
  const p = new PostgresPredictor(facts, settings);
  const r = p.predictRun(modify('Insert', 20_000));
  const heapExtends = Math.floor((20_000 - 1) / 226);
  const leafExtends = Math.floor((20_000 - 1) / 366);
  // ins_k: 3,820 blocks → 14 internal, 3,805 leaves, 3 levels: root, one internal page, the leaf.
  const expected = 20_000 /* nextval */ + (20_000 - heapExtends) + (2 + 20_000 - leafExtends) + 20_000 * 3;
  assert.equal(r.predicted.logicalReads, expected);
  // Cold: the random leaves miss once the pool is full (measured on PostgreSQL 15: 10,169; 18: 10,177).
  assert.ok(r.predicted.physicalReads! > 9_000 && r.predicted.physicalReads! < 11_000, `reads ${r.predicted.physicalReads}`);
  assert.deepEqual(r.unmodelled, []);
  const text = r.assumptions.join('\n');
  assert.match(text, /ins_pkey: ascending key/);
  assert.match(text, /ins_k: each entry descends 3 level\(s\) to a random one of/);
  assert.match(text, /a rollback reads nothing/);
  // The pool keeps about as many of the random index's leaves as it has buffers to spare.
  assert.ok(r.predictedAfter.get('ins_k')! > 1_900 && r.predictedAfter.get('ins_k')! < 2_048);
});

test('run 2 inserts the same keys: fewer reads, as the pool kept part of the index', () => {
  const p = new PostgresPredictor(facts, settings);
  const one = p.predictRun(modify('Insert', 20_000)).predicted.physicalReads!;
  const two = p.predictRun(modify('Insert', 20_000)).predicted.physicalReads!;
  assert.ok(two < one, `run 1 ${one}, run 2 ${two}`);
});

function updateOf(rows: number, scanIndex = 'ins_pkey'): PlanNode {
  const scan: PlanNode = {
    nodeType: 'Index Scan',
    relation: 'ins',
    index: scanIndex,
    actualRows: rows,
    actualLoops: 1,
    total: ZERO_COUNTERS,
    self: ZERO_COUNTERS,
    children: [],
  };
  return {
    nodeType: 'ModifyTable',
    operation: 'Update',
    relation: 'ins',
    actualRows: 0,
    actualLoops: 1,
    total: ZERO_COUNTERS,
    self: ZERO_COUNTERS,
    children: [scan],
  };
}

test('UPDATE of an unindexed column on full pages: a new block per page of rows and an entry in every index', () => {
  const p = new PostgresPredictor(
    facts.map((f) => ({ ...f, columns: f.planName === 'ins_k' ? ['k'] : f.planName === 'ins_pkey' ? ['id'] : undefined, unique: f.planName === 'ins_pkey' })),
    { ...settings, updatedColumns: ['v'] },
  );
  const r = p.predictRun(updateOf(5_000));
  const text = r.assumptions.join('\n');
  assert.match(text, /fillfactor 100: a full page has no room for a new version/);
  // The random index's leaves are read; the scan's own index and the heap are held already.
  assert.ok(r.predicted.physicalReads! > 1_500 && r.predicted.physicalReads! < 3_805, `reads ${r.predicted.physicalReads}`);
});

test('with fillfactor room and no indexed column changed, updates stay on their page (HOT) and touch no index', () => {
  const withRoom = facts.map((f) =>
    f.kind === 'table' ? { ...f, fillfactor: 90, tuples: 900_000 } : { ...f, columns: f.planName === 'ins_k' ? ['k'] : ['id'] },
  );
  // Rows reached through the uncorrelated index land one or two per page: each fits in its page's reserve.
  const hot = new PostgresPredictor(withRoom, { ...settings, updatedColumns: ['v'] }).predictRun(updateOf(2_000, 'ins_k'));
  assert.match(hot.assumptions.join('\n'), /leaves room for \d+ new version\(s\) per page \(HOT\)/);
  const indexed = new PostgresPredictor(withRoom, { ...settings, updatedColumns: ['k'] }).predictRun(updateOf(2_000, 'ins_k'));
  assert.match(indexed.assumptions.join('\n'), /an indexed column changes, so no update is HOT/);
  // HOT: the scan's requests and one pinned hit per row; otherwise also a new block and 3 indexes per row.
  assert.ok(
    indexed.predicted.logicalReads! - hot.predicted.logicalReads! > 2_000 * 6,
    `HOT ${hot.predicted.logicalReads}, indexed ${indexed.predicted.logicalReads}`,
  );
});

test('DELETE requests only the pages its scan holds; MERGE is named as not modelled', () => {
  const p = new PostgresPredictor(facts, settings);
  const del = p.predictRun({ ...updateOf(300), operation: 'Delete' });
  assert.match(del.assumptions.join('\n'), /300 rows deleted/);
  const merge = p.predictRun({ ...updateOf(10), operation: 'Merge' });
  assert.match(merge.unmodelled.join('\n'), /ModifyTable \(Merge\): the pages it writes are left out/);
});

test('an INSERT into an empty table reads nothing: its first row extends the heap to block 0', () => {
  const empty: PgRelationFacts[] = [{ planName: 'ins', reportName: 'ins', kind: 'table', pages: 0, tuples: 0, cachedBefore: [] }];
  const r = new PostgresPredictor(empty, settings).predictRun(modify('Insert', 1));
  assert.deepEqual([r.predicted.logicalReads, r.predicted.physicalReads], [0, 0]);
  assert.equal(r.predictedAfter.get('ins'), 1, 'the new block is cached');
});
