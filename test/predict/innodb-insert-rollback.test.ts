// A rolled-back INSERT … SELECT on MariaDB: where its keys fall in each index, read after the runs, and the
// merges its rollback tries. Random keys fill a sorted-built index's full leaves, each split once; the
// rollback, newest first, leaves each half under the merge limit and tries a merge at every removal until the
// pair fits one page again (INNODB_METRICS: 550 rows, o_cust 74 splits and 483 merge attempts, 72 of them
// merging). Keys all above an index's last go to its right edge instead of splitting leaves everywhere, and
// a UUID key's random leaves split (23 of 550 inserts). Before: every index's keys were drawn at random, the
// clustered leaves never split, no failed merge counted, and the rows were the statistics' estimate (28,419
// of 30,000), which took the sorted build's full leaves for an insert-grown index's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { labServer, measureLab } from '../support/lab';

const availability = mariadb();

describe('MariaDB: a rolled-back INSERT … SELECT', skipUnless(availability), () => {
  const server = labServer(() => need(availability), '256M', { rows: 1_000, k: 'id', index: false }, [
    'CREATE TABLE lab.o (id CHAR(32) NOT NULL PRIMARY KEY, seq INT NOT NULL, cust INT NOT NULL, placed INT NOT NULL, pad VARCHAR(400) NOT NULL) ENGINE=InnoDB',
    "INSERT INTO lab.o SELECT MD5(CONCAT(seq, 'k')), seq, FLOOR(1 + RAND(11) * 20000), seq DIV 200, RPAD(MD5(seq), 400, 'p') FROM lab.seq_1_to_30000",
    'CREATE INDEX o_cust ON lab.o (cust, placed)',
    'CREATE INDEX o_placed ON lab.o (placed)',
    'ANALYZE TABLE lab.o',
  ]);

  test('random keys split and merge back, keys above the last go to the right edge; logical reads within a tenth', async () => {
    const report = await measureLab(
      server(),
      "INSERT INTO o (id, seq, cust, placed, pad) SELECT MD5(CONCAT(seq + 30000, 'k')), seq + 30000, cust, placed + 1000, pad FROM o WHERE seq BETWEEN 5000 AND 5549",
    );
    const assumptions = report.runs[0].prediction!.assumptions.join('\n');
    assert.match(assumptions, /lab\.o\.o_placed: every new key above its last \(read after the runs\)/);
    assert.match(assumptions, /lab\.o\.o_cust: each entry lands on a random one of .* the rollback tries to merge a page it leaves under half full/);
    assert.match(assumptions, /lab\.o: 30,000 rows counted after the last run/);
    // Measured 16,686 / 16,144 / 16,097 gets; predicted 17,630 / 17,415 / 17,415 (the right edge's region
    // fills fewer, fuller pages than the server's: 3 splits and 15 failed merges against 4 and 138).
    for (const r of report.runs) {
      const [m, p] = [r.measured.logicalReads!, r.predicted.logicalReads!];
      assert.ok(Math.abs(m - p) <= 0.1 * m, `run ${r.run} logical: ${m} measured, ${p} predicted`);
    }
  });
});
