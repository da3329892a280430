// A join's lookup table whose key also has a range on constants, on a real MariaDB: while it optimises the
// statement the range optimizer estimates that range (records_in_range, an index dive) before the join
// optimizer chooses to reach the table by eq_ref, which dives nothing itself. Measured on MariaDB 10.11:
// EXPLAIN of `cc JOIN oo … WHERE cc.id BETWEEN 1000 AND 1012` took 8 gets, the dives of both tables' ranges
// (2 in cc's two-level primary key, 6 in oo's). Before, the eq_ref table's dive was left out (schema corpus
// seed 106, "customers with their orders": 28 gets measured, 24 predicted). The other way round, customers
// by their range and orders by ref on their key's prefix (`oo.cust_id = cc.id`), the optimizer carries the
// equality to oo's key and estimates the same range there: EXPLAIN of such a join over 25 customers took 12
// gets, 10 of them oo's dive (its two bounds' paths and the leaves between). Before, a ref lookup's key had
// no range of its own to dive (seed 106 at 238 MiB, runs 2-3: 92 gets measured, 79 predicted).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { assertLogicalWithin, assumptions, labServer, measureLab } from '../support/lab';

const availability = mariadb();

// Customers, and orders keyed by (cust_id, seq) whose customers are spread over the table.
const tables = [
  'CREATE TABLE lab.cc (id INT NOT NULL PRIMARY KEY, name CHAR(200) NOT NULL) ENGINE=InnoDB',
  "INSERT INTO lab.cc SELECT seq, LPAD(seq, 200, 'n') FROM lab.seq_1_to_20000",
  'CREATE TABLE lab.oo (cust_id INT NOT NULL, seq INT NOT NULL, amount INT NOT NULL, pad CHAR(200) NOT NULL, PRIMARY KEY (cust_id, seq)) ENGINE=InnoDB',
  "INSERT INTO lab.oo SELECT 1 + (seq * 7919) % 20000, seq, seq % 997, 'p' FROM lab.seq_1_to_200000",
  'ANALYZE TABLE lab.cc, lab.oo',
];

describe("MariaDB: a join's eq_ref table has its key's range dived while optimising", skipUnless(availability), () => {
  const server = labServer(() => need(availability), '64M', { rows: 1_000, k: 'id', index: false }, tables);

  test('orders first, customers by eq_ref: both ranges are dived', async () => {
    const sql = 'SELECT STRAIGHT_JOIN cc.name, oo.amount FROM oo JOIN cc ON cc.id = oo.cust_id WHERE cc.id BETWEEN 1000 AND 1012';
    const report = await measureLab(server(), sql);
    assertLogicalWithin(report, 'the join');
    assert.match(assumptions(report), /lab\.cc: eq_ref access/, 'the premise: customers are reached by eq_ref');
    assert.match(assumptions(report), /lab\.cc: the optimizer's dive for the range on id, estimated while optimising and not used/);
  });
});

describe("MariaDB: a join's ref table keyed by the driving table's column has the propagated range dived", skipUnless(availability), () => {
  const server = labServer(() => need(availability), '64M', { rows: 1_000, k: 'id', index: false }, tables);

  test('customers by their range, orders by ref on their key prefix: the range is dived on both keys', async () => {
    const sql = 'SELECT cc.name, oo.amount FROM cc JOIN oo ON oo.cust_id = cc.id WHERE cc.id BETWEEN 1000 AND 1024';
    const report = await measureLab(server(), sql);
    assert.match(assumptions(report), /lab\.oo: ref access/, 'the premise: orders are reached by ref');
    assertLogicalWithin(report, 'the join');
    assert.match(assumptions(report), /lab\.oo: the optimizer's dive for the range on cust_id \(the join equality carries the other table's constants\)/);
  });
});
