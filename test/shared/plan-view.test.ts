// The plan tree of the report, from both engines' plans: pages per node, self and total, and the
// heaviest nodes marked with their share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Report } from '../../src/shared/report';
import { planView, type PlanRow } from '../../src/shared/plan-view';

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
  assert.equal(t.label, 't: ALL');
  assert.equal(t.selfPages, 3574);
  assert.equal(t.selfRead, 97 + 3520);
  assert.match(t.detail, /rows 100,000 × 1 · 3,520 read ahead/);
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
    ['a: ALL', 'query block 2'],
  );
  assert.equal(v.root.children[1].children[0].label, 'b: ref using k');
  assert.equal(v.root.totalPages, 25);
  report.runs[0].enginePlan = { query_block: { nested_loop: [{ table: { table_name: 'c', access_type: 'const', r_rows: 1 } }] } };
  assert.equal(planView(report)!.root.children[0].notReported, true, 'no r_engine_stats: not reported, never 0');
  report.runs[0].enginePlan = '-> Table scan on t (actual time=0.1..2 rows=100 loops=1)';
  assert.equal(planView(report), undefined);
});
