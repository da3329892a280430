// Where a rolled-back DELETE's entries lie in the secondary indexes it did not search, on a real MariaDB:
// rows found by one key (a) may share few values of another (b), so few of its leaves. Their values of b
// are read after the runs (the rollback put the rows back) and each entry placed where its value lies
// between the column's ends. Drawn on random leaves, a cold DELETE of 200 rows whose b takes 2 values was
// predicted to read about 170 leaves of b where the server read 2 or 3, and a get of the change-buffer bitmap
// with each (test/predict/innodb-cold-reads.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { labServer, measureLab } from '../support/lab';
import { pagesRead } from '../accuracy/innodb-corpus';

const availability = mariadb();

describe("MariaDB: a DELETE's entries in the other secondary indexes, placed by the rows' keys", skipUnless(availability), () => {
  // 100,000 rows; a: 500 values of 200 rows each; b: 2 values per value of a (100 rows each), 1,000 in all.
  const server = labServer(() => need(availability), '128M', { rows: 100_000, k: 'random', kMax: 25_000, index: true }, [
    'ALTER TABLE lab.s ADD COLUMN a INT NOT NULL DEFAULT 0, ADD COLUMN b INT NOT NULL DEFAULT 0',
    'UPDATE lab.s SET a = id % 500, b = (id % 500) * 2 + id % 2',
    'CREATE INDEX a ON lab.s (a)',
    'CREATE INDEX b ON lab.s (b)',
    'ANALYZE TABLE lab.s',
  ]);

  test('a cold DELETE by a: its entries in b on the few leaves their 2 values hold, predicted within 5 %', async () => {
    await server().restart();
    const report = await measureLab(server(), 'DELETE FROM s WHERE a = 123', { runs: 2, cold: 'no' });
    const [cold] = report.runs;
    const assumed = cold.prediction!.assumptions.join('\n');
    assert.match(assumed, /200 rows deleted/, 'the premise: 200 rows');
    assert.match(assumed, /placed by each row's value between the column's lowest and highest \(200 rows' values read after the last run\)/);
    for (const r of report.runs) {
      const [m, p] = [r.measured.logicalReads!, r.predicted.logicalReads!];
      assert.ok(Math.abs(m - p) <= 0.05 * m, `run ${r.run}: ${m} logical measured, ${p} predicted`);
    }
    const [m, p] = [pagesRead(cold.measured)!, pagesRead(cold.predicted)!];
    assert.ok(Math.abs(m - p) <= Math.max(2, 0.05 * m), `run 1: ${m} pages read, ${p} predicted`);
  });
});
