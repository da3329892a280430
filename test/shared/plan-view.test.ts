// The plan tree of the report, from both engines' plans: pages per node, self and total, and the
// heaviest nodes marked with their share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { PlanNode, Report } from '../../src/shared/report';
import { planView, type PlanRow } from '../../src/shared/plan-view';
import { parseExplainJson } from '../../src/measure/postgres/plan';

const load = (name: string): Report => JSON.parse(readFileSync(`test/fixtures/reports/${name}.json`, 'utf8'));
const flat = (r: PlanRow): PlanRow[] => [r, ...r.children.flatMap(flat)];

test('PostgreSQL: every plan node with its own and total buffers; the heaviest marked with its share', () => {
  const report = load('postgres18-ring');
  const v = planView(report)!;
  assert.equal(v.source, 'postgresql');
  const plan = report.runs[0].plan!;
  assert.equal(v.root.totalPages, plan.total.sharedHit + plan.total.sharedRead);
  const rows = flat(v.root);
  const selfSum = rows.reduce((a, r) => a + r.selfPages, 0);
  assert.equal(selfSum, v.root.totalPages, 'self pages add up to the root total');
  const heavy = rows.filter((r) => r.heavy);
  assert.ok(heavy.length >= 1 && heavy.length <= 3);
  assert.ok(heavy.every((h) => h.share >= 0.1 && rows.every((r) => r.heavy || r.selfPages <= h.selfPages)));
});

test("MariaDB: the statement's tables with the pages the engine counted for them, not a JSON dump", () => {
  const report = load('mariadb-seed001');
  const v = planView(report)!;
  assert.equal(v.source, 'innodb');
  const [t] = v.root.children;
  assert.equal(t.label, '1. t: ALL');
  assert.equal(t.selfPages, 3574);
  assert.equal(t.selfRead, 97 + 3520);
  assert.match(t.detail, /^rows examined 100,000, estimated 96,444 per loop · 100 % kept by the filter \(estimated 100 %\) · time 78.8 ms · 3,520 read ahead$/);
  assert.equal(t.heavy, true);
  assert.equal(v.root.group, true, 'the query block only groups its tables: its total is shown, not a self count of 0');
  assert.equal(Math.round(t.share * 100), 100);
});

test('a plan with a subquery nests its query block; MySQL text plans have no tree', () => {
  const report = load('mariadb-seed001');
  report.runs[0].enginePlan = {
    query_block: {
      select_id: 1,
      nested_loop: [{ table: { table_name: 'a', access_type: 'ALL', r_rows: 10, r_engine_stats: { pages_accessed: 5 } } }],
      subqueries: [
        {
          query_block: {
            select_id: 2,
            nested_loop: [
              { table: { table_name: 'b', access_type: 'ref', key: 'k', r_rows: 1, r_loops: 10, r_engine_stats: { pages_accessed: 20, pages_read_count: 2 } } },
            ],
          },
        },
      ],
    },
  };
  const v = planView(report)!;
  assert.deepEqual(
    v.root.children.map((c) => c.label),
    ['1. a: ALL', 'query block 2'],
  );
  assert.equal(v.root.children[1].children[0].label, '1. b: ref using k');
  assert.equal(v.root.totalPages, 25);
  report.runs[0].enginePlan = { query_block: { nested_loop: [{ table: { table_name: 'c', access_type: 'const', r_rows: 1 } }] } };
  assert.equal(planView(report)!.root.children[0].notReported, true, 'no r_engine_stats: not reported, never 0');
  report.runs[0].enginePlan = '-> Table scan on t (actual time=0.1..2 rows=100 loops=1)';
  assert.equal(planView(report), undefined);
});

/** A report holding only run 1's plan, as parsed from a recorded EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON). */
const withPlan = (file: string): Report => {
  const plan = parseExplainJson(JSON.parse(readFileSync(`test/fixtures/postgres/${file}`, 'utf8'))).root;
  return { runs: [{ plan }] } as unknown as Report;
};

test('PostgreSQL: nodes named as EXPLAIN names them, with their conditions, rows against the estimate, time and temporary files', () => {
  // Recorded on PostgreSQL 15: a parallel hash join spilling to temporary files, aggregated in two halves.
  const v = planView(withPlan('parallel-hash-join.json'))!;
  const rows = flat(v.root);
  assert.deepEqual(
    rows.map((r) => r.label),
    [
      'Sort',
      'Finalize GroupAggregate',
      'Gather Merge',
      'Sort',
      'Partial HashAggregate',
      'Parallel Hash Join',
      'Parallel Seq Scan on o',
      'Parallel Hash',
      'Parallel Seq Scan on cust c',
    ],
  );
  const byLabel = (l: string) => rows.find((r) => r.label === l)!;
  assert.deepEqual(byLabel('Parallel Hash Join').conditions, ['Hash Cond: (o.c = c.id)']);
  assert.match(byLabel('Parallel Seq Scan on o').conditions.join('\n'), /^Filter: \(\(note ~~ 'n%'::text\) AND \(d > '2020-01-05'::date\)\)$/);
  assert.match(byLabel('Parallel Seq Scan on o').detail, /rows 65,000 × 3 loops, estimated 81,676 · time 47\.2 ms · 4,998 rows removed by the filter/);
  assert.match(byLabel('Sort').conditions.join('\n'), /Sort Key: \(count\(\*\)\) DESC\nSort Method: quicksort, Memory 25 kB/);
  // Temporary files on the node that wrote them: the hash join's batches, not its parents'.
  assert.deepEqual(byLabel('Parallel Hash Join').temp, { read: 682, written: 660 });
  assert.deepEqual(byLabel('Parallel Hash').temp, { read: 0, written: 180 });
  assert.equal(byLabel('Gather Merge').temp, undefined);
  // Under the Gather the three processes ran side by side: their time is not added up.
  assert.match(byLabel('Gather Merge').detail, /time 129\.1 ms \(own 28\.7 ms\)/);
});

test('the way to the heaviest node starts open, however deep; nodes off it start closed below the second level', () => {
  const v = planView(withPlan('parallel-hash-join.json'))!;
  const rows = flat(v.root);
  const heaviest = rows.find((r) => r.label === 'Parallel Seq Scan on o')!;
  assert.equal(heaviest.heavy, true);
  const path = (r: PlanRow, to: PlanRow): PlanRow[] | undefined =>
    r === to
      ? [r]
      : r.children
          .map((c) => path(c, to))
          .find(Boolean)
          ?.concat(r);
  assert.ok(
    path(v.root, heaviest)!.every((r) => r.open),
    'every node on the way is open',
  );
  assert.equal(rows.find((r) => r.label === 'Parallel Seq Scan on cust c')!.open, false);
});

test('a misestimate of ten times or more is called out', () => {
  const report = withPlan('parallel-hash-join.json');
  const scan = report.runs[0].plan!.children[0];
  scan.planRows = 2;
  scan.actualRows = 300;
  assert.match(flat(planView(report)!.root)[1].detail, /rows 300, estimated 2 \(150× more than estimated\)/);
});

test('MariaDB: tables in join order, each under the one whose rows drive it, by table name and alias, rows examined against the estimate', () => {
  const report = load('mariadb-seed001');
  report.runs[0].planTables = { o: 'orders', c: 'customers' };
  report.runs[0].enginePlan = {
    query_block: {
      select_id: 1,
      nested_loop: [
        {
          table: {
            table_name: 'c',
            access_type: 'ALL',
            rows: 100,
            r_rows: 100,
            r_filtered: 10,
            filtered: 50,
            attached_condition: 'c.region = 3',
            r_engine_stats: { pages_accessed: 4 },
          },
        },
        {
          table: {
            table_name: 'o',
            access_type: 'ref',
            key: 'cust',
            ref: ['lab.c.id'],
            rows: 2,
            r_rows: 40,
            r_loops: 10,
            r_engine_stats: { pages_accessed: 90, pages_read_count: 30 },
          },
        },
      ],
    },
  };
  const v = planView(report)!;
  const [first] = v.root.children;
  assert.equal(first.label, '1. customers c: ALL');
  assert.equal(first.children[0].label, '2. orders o: ref using cust');
  assert.deepEqual(first.children[0].conditions, ['Ref: lab.c.id']);
  assert.deepEqual(first.conditions, ['Filter: c.region = 3']);
  assert.match(first.detail, /rows examined 100, estimated 100 per loop · 10 % kept by the filter \(estimated 50 %\)/);
  assert.match(first.children[0].detail, /rows examined 400 \(40 × 10 loops\), estimated 2 per loop \(20× more than estimated\)/);
  assert.equal(first.selfPages, 4);
  assert.equal(first.totalPages, 94, "a table's total holds the tables read per its rows");
  assert.equal(v.root.totalPages, 94);
  assert.equal(first.children[0].heavy, true);
});

test('MariaDB: each table carries what the prediction gave it, found by table name with or without its schema', () => {
  const report = load('mariadb-seed001');
  report.runs[0].planTables = { o: 'orders', c: 'customers' };
  report.runs[0].predictedTables = { 'lab.orders': { pages: 88, read: 28 } };
  report.runs[0].enginePlan = {
    query_block: {
      select_id: 1,
      nested_loop: [
        { table: { table_name: 'c', access_type: 'ALL', r_engine_stats: { pages_accessed: 4 } } },
        { table: { table_name: 'o', access_type: 'ref', key: 'cust', r_engine_stats: { pages_accessed: 90 } } },
      ],
    },
  };
  const [first] = planView(report)!.root.children;
  assert.equal(first.predicted, undefined, 'no prediction for customers: none shown, never a 0');
  assert.deepEqual(first.children[0].predicted, { pages: 88, read: 28 });
});

test("PostgreSQL: an UPDATE's node says how many rows the server updated in place (HOT)", () => {
  const report = load('postgres18-ring');
  const leaf = (counters: PlanNode['self']): PlanNode => ({
    nodeType: 'Seq Scan',
    relation: 't',
    total: counters,
    self: counters,
    children: [],
    actualRows: 10,
    actualLoops: 1,
  });
  const scan = leaf(report.runs[0].plan!.self);
  const update: PlanNode = { ...scan, nodeType: 'ModifyTable', operation: 'Update', hotUpdated: 7, children: [scan] };
  const v = planView({ ...report, runs: [{ ...report.runs[0], plan: update }] })!;
  assert.match(v.root.detail, /7 updated in place \(HOT\)/);
  assert.doesNotMatch(v.root.children[0].detail, /HOT/);
});
