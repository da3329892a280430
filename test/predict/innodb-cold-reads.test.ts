// What reading from disk costs beyond the pages themselves, on a real MariaDB with a sysbench-shaped table
// (150,000 rows, about 2,070 pages, a secondary index on k built after the load):
// - a full scan in a 32 MiB pool: the page cleaner's LRU batches (woken on demand in a pool this small)
//   free pages from the LRU tail while the scan reads ahead. The server evicts none of the pages it read
//   ahead (Innodb_buffer_pool_read_ahead_evicted stays 0) and reads the table once per run; a batch that
//   evicted the area just read ahead predicted 6 % more reads;
// - a cold secondary range: each secondary leaf read from disk costs a get of the change-buffer bitmap
//   page, 18 gets more than warm for a 20,000-row covering range (predicted 43 against 61 without it).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { labServer, measureLab } from '../support/lab';
import { pagesRead } from '../accuracy/innodb-corpus';
import { mariadbQuery } from '../support/sql';

const availability = mariadb();

describe('MariaDB: cold reads', skipUnless(availability), () => {
  // sysbench's row: about 2,070 pages for 150,000 rows.
  const server = labServer(() => need(availability), '128M', { rows: 150_000, k: 'random', index: true });
  const status = async (name: string): Promise<number> =>
    Number((await mariadbQuery<{ Value: string }>(server().port, `SHOW GLOBAL STATUS LIKE '${name}'`))[0].Value);

  test('a full scan in a pool smaller than the table, cold, then warm: every run reads the table once, predicted within 5 %', async () => {
    await server().restart({ 'innodb-buffer-pool-size': '32M' });
    const evictedBefore = await status('Innodb_buffer_pool_read_ahead_evicted');
    const report = await measureLab(server(), "SELECT COUNT(*) FROM s WHERE c LIKE '%77-99%'", { runs: 3, cold: 'no' });
    assert.equal((await status('Innodb_buffer_pool_read_ahead_evicted')) - evictedBefore, 0, 'the premise: the server evicted no page it read ahead');
    for (const r of report.runs) {
      const measured = pagesRead(r.measured)!;
      const predicted = pagesRead(r.predicted)!;
      assert.ok(measured > 2000, `run ${r.run}: the scan reads the table again (${measured} pages)`);
      assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run ${r.run}: ${predicted} predicted against ${measured} measured`);
    }
  });

  test('a cold covering range of a secondary index: a bitmap get per leaf read, predicted within 5 %', async () => {
    await server().restart({ 'innodb-buffer-pool-size': '128M' });
    const report = await measureLab(server(), 'SELECT COUNT(*) FROM s WHERE k BETWEEN 50000 AND 69999', { runs: 2, cold: 'no' });
    const [cold, warm] = report.runs;
    assert.ok(
      cold.measured.logicalReads! - warm.measured.logicalReads! > 25,
      `the premise: run 1 costs more than the table open (${cold.measured.logicalReads} against ${warm.measured.logicalReads})`,
    );
    for (const r of report.runs) {
      assert.ok(
        Math.abs(r.predicted.logicalReads! - r.measured.logicalReads!) <= 0.05 * r.measured.logicalReads!,
        `run ${r.run}: ${r.predicted.logicalReads} gets predicted against ${r.measured.logicalReads}`,
      );
    }
  });
});
