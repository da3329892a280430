import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseExplainJson } from '../../../src/measure/postgres/plan';
import { normalisePostgres } from '../../../src/measure/postgres/normalise';

const parallel = JSON.parse(readFileSync('test/fixtures/postgres/parallel-seqscan.json', 'utf8'));

test('parallel plan: totals include the workers, self is exclusive, planning is apart', () => {
  const p = parseExplainJson(parallel);
  assert.equal(p.root.total.sharedRead, 1104);
  const gather = p.root.children[0];
  assert.equal(gather.nodeType, 'Gather');
  assert.equal(gather.workersLaunched, 2);
  assert.equal(gather.self.sharedRead, 0);
  const scan = gather.children[0].children[0];
  assert.equal(scan.self.sharedRead, 1104);
  assert.equal(scan.self.sharedHit, 96);
  assert.equal(scan.self.readTimeMs, 3.5);
  assert.equal(p.root.self.readTimeMs, 0);
  assert.deepEqual(p.relations, [{ schema: 'public', name: 'big', kind: 'table' }]);
  assert.equal(p.workersLaunched, 2);
  assert.equal(p.planning?.sharedRead, 1);
  assert.equal(p.executionTimeMs, 30.4);
  assert.deepEqual(p.anomalies, []);
});

test('a parent reporting less than its children is clamped at 0 and reported', () => {
  const doc = structuredClone(parallel);
  doc[0].Plan.Plans[0]['Shared Read Blocks'] = 1000;
  const p = parseExplainJson(doc);
  assert.equal(p.root.children[0].self.sharedRead, 0);
  assert.equal(p.anomalies.length, 1);
  assert.match(p.anomalies[0], /Gather .*sharedRead of the children exceeds the node's total by 104/);
});

test('the three numbers: logical = hit + read, physical = read, read-ahead never a made-up 0', () => {
  const p = parseExplainJson(parallel);
  for (const major of [15, 16, 17, 18]) {
    const { measured, notes } = normalisePostgres(major, p.statementTotal);
    assert.deepEqual(measured, { logicalReads: 1200, physicalReads: 1104, readAhead: null });
    assert.match(notes.readAhead ?? '', new RegExp(`PostgreSQL ${major}`));
    assert.match(notes.physicalReads ?? '', /OS page cache.*read time 3\.500 ms/);
  }
});

test('input that is not an EXPLAIN document is rejected', () => {
  assert.throws(() => parseExplainJson([{ nope: 1 }]), /not an EXPLAIN/);
});

test('a data-modifying CTE the query does not read runs after the plan: its buffers count, with no anomaly', () => {
  // Recorded from PostgreSQL 15: WITH u AS (UPDATE t … RETURNING 1) SELECT 1.
  const node = (type: string, hit: number, extra: Record<string, unknown> = {}, plans: unknown[] = []) => ({
    'Node Type': type,
    'Shared Hit Blocks': hit,
    'Shared Read Blocks': 0,
    ...extra,
    ...(plans.length ? { Plans: plans } : {}),
  });
  const doc = [
    {
      Plan: node('Result', 0, {}, [
        node('ModifyTable', 30159, { Operation: 'Update', 'Parent Relationship': 'InitPlan', 'Subplan Name': 'CTE u', 'Relation Name': 't' }, [
          node('Bitmap Heap Scan', 38, { 'Parent Relationship': 'Outer', 'Relation Name': 't' }, [
            node('Bitmap Index Scan', 15, { 'Parent Relationship': 'Outer', 'Index Name': 't_pkey' }),
          ]),
        ]),
      ]),
    },
  ];
  const p = parseExplainJson(doc);
  assert.deepEqual(p.anomalies, []);
  assert.equal(normalisePostgres(15, p.statementTotal).measured.logicalReads, 30159);
  // Read by the query (WITH … SELECT count(*) FROM u), the CTE is inside the root's totals: not added twice.
  const read = structuredClone(doc);
  read[0].Plan['Shared Hit Blocks'] = 33463;
  (read[0].Plan as { Plans: Array<Record<string, unknown>> }).Plans[0]['Shared Hit Blocks'] = 33463;
  assert.equal(normalisePostgres(15, parseExplainJson(read).statementTotal).measured.logicalReads, 33463);
});
