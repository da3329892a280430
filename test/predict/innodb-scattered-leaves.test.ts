// A full scan of a clustered index grown by inserts in random key order, on a real MariaDB: each new leaf
// came from wherever a split found free space, so the leaves in key order lie anywhere in the file and no
// 64-page area is read in order; linear read-ahead never fires. Before, every layout put the leaves in
// key order, and the schema corpus's UUID and composite keys were predicted to read thousands of pages
// ahead where none were (seed 1 cold: 0 measured, 10,368 predicted for one INSERT … SELECT's scan).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { assumptions, labServer, measureLab } from '../support/lab';

const availability = mariadb();

const tables = [
  'CREATE TABLE lab.u (id CHAR(32) NOT NULL PRIMARY KEY, n INT NOT NULL, pad CHAR(200) NOT NULL) ENGINE=InnoDB',
  "INSERT INTO lab.u SELECT MD5(seq), seq, RPAD(seq, 200, 'u') FROM lab.seq_1_to_100000",
  'ANALYZE TABLE lab.u',
];

describe('MariaDB: a full scan of a clustered index grown in random key order', skipUnless(availability), () => {
  const server = labServer(() => need(availability), '64M', { rows: 1_000, k: 'id', index: false }, tables);

  test('reads every leaf synchronously, none ahead, as predicted', async () => {
    await server().restart();
    const report = await measureLab(server(), "SELECT COUNT(*) FROM u WHERE pad LIKE '%77u%'", { cold: 'try' });
    const run1 = report.runs[0];
    assert.ok(run1.cold, 'the premise: run 1 is cold');
    assert.ok(run1.measured.physicalReads! > 1_000, `the premise: run 1 reads the table (${run1.measured.physicalReads} pages)`);
    assert.equal(run1.measured.readAhead, 0, 'the server read nothing ahead');
    assert.match(assumptions(report), /leaves in key order lie anywhere in the file/);
    assert.equal(run1.predicted.readAhead, 0, `${run1.predicted.readAhead} pages predicted ahead`);
    const [measured, predicted] = [run1.measured.physicalReads!, run1.predicted.physicalReads!];
    assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run 1: ${measured} pages read, ${predicted} predicted`);
  });
});
