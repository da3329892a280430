// A join by nested loops in a pool smaller than its pages, on a real MariaDB: a date range of orders, each
// joined to its customer by eq_ref. The server looks each order's customer up before it reads the next
// order, so the customers' pages come between the orders'; with both tables' pages more than the page
// cleaner leaves in the LRU list, which of them are still cached when asked again follows that order.
// Replayed table after table, the customers' lookups came after every order had been read: the schema
// corpus's seed 104 at a 10 MiB pool read 922 pages on run 1, 334 predicted (913 now); here 1,211 read,
// 1,054 predicted table after table, 1,204 interleaved.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { assertLogicalWithin, assumptions, labServer, measureLab } from '../support/lab';

const availability = mariadb();

// 60,000 customers; 200,000 orders keyed by (cust_id, seq), a day's orders spread over the customers.
const tables = [
  'CREATE TABLE lab.cc (id INT NOT NULL PRIMARY KEY, name CHAR(40) NOT NULL, region INT NOT NULL) ENGINE=InnoDB',
  "INSERT INTO lab.cc SELECT seq, LPAD(seq, 40, 'n'), seq % 20 FROM lab.seq_1_to_60000",
  'CREATE TABLE lab.oo (cust_id INT NOT NULL, seq INT NOT NULL, placed INT NOT NULL, amount INT NOT NULL, pad CHAR(80) NOT NULL, PRIMARY KEY (cust_id, seq), KEY (placed)) ENGINE=InnoDB',
  "INSERT INTO lab.oo SELECT 1 + (seq * 7919) % 60000, seq, seq % 1000, seq % 997, 'p' FROM lab.seq_1_to_200000",
  'ANALYZE TABLE lab.cc, lab.oo',
];

describe('MariaDB: a nested-loop join in a small pool', skipUnless(availability), () => {
  const server = labServer(() => need(availability), '10M', { rows: 1_000, k: 'id', index: false }, tables);

  test("the inner table's lookups come between the outer rows, and the pages read follow", async () => {
    const sql = 'SELECT cc.region, count(*), sum(oo.amount) FROM oo JOIN cc ON cc.id = oo.cust_id WHERE oo.placed BETWEEN 170 AND 181 GROUP BY cc.region';
    const report = await measureLab(server(), sql);
    assert.match(assumptions(report), /lab\.cc: eq_ref access/, 'the premise: customers are reached by eq_ref');
    assertLogicalWithin(report, 'the join');
    for (const r of report.runs) {
      const [measured, predicted] = [r.measured.physicalReads!, r.predicted!.physicalReads!];
      assert.ok(measured > 600, `the premise: run ${r.run} read ${measured} pages, more than the pool holds`);
      assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run ${r.run}: ${measured} pages read, ${predicted} predicted`);
    }
  });
});
