// Which of a write's scan conditions the query after the runs repeats to find the written rows (written-rows.ts):
// a sequential scan's filter, an index scan's index condition and filter, a bitmap heap scan's recheck condition
// and filter; none that names a parameter or a subplan, and no scan of another kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeScanConditions } from '../../../src/measure/postgres/written-rows';
import { planNode } from '../../support/plan-nodes';

const scan = planNode;

test("a scan's own conditions, as EXPLAIN printed them", () => {
  assert.deepEqual(writeScanConditions(scan('Seq Scan', { conditions: ['Filter: ((o.placed >= 120) AND (o.placed <= 120))'] })), [
    '((o.placed >= 120) AND (o.placed <= 120))',
  ]);
  assert.deepEqual(writeScanConditions(scan('Seq Scan', {})), [], 'a whole-table write asks for every row');
  assert.deepEqual(writeScanConditions(scan('Index Scan', { indexCond: '(placed = 500)', conditions: ['Filter: (amount > 3)'] })), [
    '(placed = 500)',
    '(amount > 3)',
  ]);
  assert.deepEqual(
    writeScanConditions(scan('Bitmap Heap Scan', { conditions: ['Recheck Cond: (cust_id = 7)', 'Filter: (status = 1)', 'Heap Blocks: exact=3'] })),
    ['(cust_id = 7)', '(status = 1)'],
  );
});

test('none where a condition cannot be asked again, or the scan is of another kind', () => {
  assert.equal(writeScanConditions(scan('Index Scan', { indexCond: '(id = $1)' })), undefined);
  assert.equal(writeScanConditions(scan('Seq Scan', { conditions: ['Filter: (id = (SubPlan 1))'] })), undefined);
  assert.equal(writeScanConditions(scan('Bitmap Heap Scan', { conditions: ['Filter: (status = 1)'] })), undefined, 'a bitmap scan with no recheck printed');
  assert.equal(writeScanConditions(scan('Index Only Scan', { indexCond: '(id = 3)' })), undefined);
  assert.equal(writeScanConditions(scan('Tid Scan', {})), undefined);
});
