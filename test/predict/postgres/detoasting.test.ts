// Where a plan reads out-of-line values again (pure): which expressions need a value's bytes, on how many
// rows, and how the values lie in a TOAST table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlanNode } from '../../../src/shared/report';
import { detoastingReferences, toastKey, toastUses, topClauses } from '../../../src/predict/postgres/detoasting';
import { toastChunkBytes, toastLayout } from '../../../src/predict/postgres/toast-layout';

const counters = { sharedHit: 0, sharedRead: 0, sharedDirtied: 0, sharedWritten: 0, localHit: 0, localRead: 0, tempRead: 0, tempWritten: 0 };
const node = (nodeType: string, extra: Partial<PlanNode> = {}, children: PlanNode[] = []): PlanNode =>
  ({ nodeType, total: counters, self: counters, children, ...extra }) as PlanNode;

test('a reference needs the bytes unless only the size or nullness is asked; qualified by its alias, bare where alone', () => {
  assert.equal(detoastingReferences('sum(length(doc))', 'docs', 'doc', true), 1);
  assert.equal(detoastingReferences('(length(d.doc) > 10)', 'd', 'doc', false), 1);
  assert.equal(detoastingReferences('(length(e.doc) > 10)', 'd', 'doc', false), 0);
  assert.equal(detoastingReferences('(length(doc) > 10)', 'd', 'doc', false), 0);
  assert.equal(detoastingReferences('(octet_length(doc) > 10)', 'docs', 'doc', true), 0);
  assert.equal(detoastingReferences('(pg_column_size(d.doc) + length(d.doc))', 'd', 'doc', false), 1);
  assert.equal(detoastingReferences('(d.doc IS NOT NULL)', 'd', 'doc', false), 0);
  assert.equal(detoastingReferences('(docs.doc_id = 3)', 'docs', 'doc', true), 0);
  assert.equal(detoastingReferences('upper("Big"."Doc") || lower("Big"."Doc")', 'Big', 'Doc', false), 2);
});

test("a filter's clauses in evaluation order, and what joins them; quoted text and nested parentheses kept whole", () => {
  assert.deepEqual(topClauses('((d.k = 5) AND (length(d.doc) > 10))'), { clauses: ['(d.k = 5)', '(length(d.doc) > 10)'], joinedBy: 'AND' });
  assert.deepEqual(topClauses("((a = 'x AND y') OR (b = 2))"), { clauses: ["(a = 'x AND y')", '(b = 2)'], joinedBy: 'OR' });
  assert.deepEqual(topClauses('(length(doc) > 10)'), { clauses: ['length(doc) > 10'], joinedBy: undefined });
});

test('uses: a filter on every row read (a later clause on the rows let through), an output per row, an aggregate per input row', () => {
  const scan = node('Seq Scan', {
    relation: 'docs',
    alias: 'd',
    actualRows: 20,
    rowsRemovedByFilter: 2980,
    conditions: ['Filter: ((d.k = 5) AND (length(d.doc) > 10))'],
  });
  const agg = node('Aggregate', { actualRows: 1, computed: ['sum(length(d.doc))', 'count(*)'] }, [scan]);
  const sorted = node('Sort', { actualRows: 20, computed: ['(upper(d.doc))'], conditions: ['Sort Key: d.doc'] }, [agg]);
  const { uses, unmodelled } = toastUses(sorted, (t) => (t === 'docs' ? ['doc', 'note'] : undefined));
  assert.deepEqual(
    uses.map((u) => [u.node.nodeType, u.where, u.rows, u.rowsHigh, u.before]),
    [
      ['Aggregate', 'output', 20, 20, undefined],
      ['Seq Scan', 'filter', 20, 3000, '(d.k = 5)'],
    ],
  );
  assert.match(unmodelled.join(), /Sort Key: d.doc/);
  assert.notEqual(toastKey(uses[0]), toastKey(uses[1]));
});

test('a TOAST table laid out: 1,996-byte chunks at 8 kB; values of 5,760 bytes span 1.5 blocks on average, as measured', () => {
  assert.equal(toastChunkBytes(8192), 1996);
  const layout = toastLayout(5760, 8192);
  const mean = layout.spans.reduce((a, b) => a + b, 0) / layout.spans.length;
  assert.equal(mean, 1.5);
  assert.ok(
    layout.first.every((b, i) => i === 0 || b >= layout.first[i - 1]),
    'values follow one another',
  );
  // A value of one small chunk: many to a block, each within one.
  assert.ok(toastLayout(2100, 8192).spans.length > 1);
  assert.deepEqual(new Set(toastLayout(300, 8192).spans), new Set([1]));
});
