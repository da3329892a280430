// A full scan of a table slightly larger than a 32 MiB pool, on a real MariaDB: the page cleaner's LRU
// batches (woken on demand in a pool this small) free pages from the LRU tail while the scan reads ahead.
// The server evicts none of the pages it read ahead (Innodb_buffer_pool_read_ahead_evicted stays 0) and
// reads the table once per run; a batch that evicted the area just read ahead predicted 6 % more reads.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection } from 'mysql2/promise';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { pagesRead } from '../accuracy/innodb-corpus';

const availability = mariadb();

describe('MariaDB: a full scan in a pool smaller than the table', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  const status = async (name: string): Promise<number> => {
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    try {
      const [rows] = await c.query(`SHOW GLOBAL STATUS LIKE '${name}'`);
      return Number((rows as Array<{ Value: string }>)[0].Value);
    } finally {
      await c.end();
    }
  };

  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '128M' } });
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    try {
      await c.query('CREATE DATABASE lab');
      // sysbench's row: about 2,070 pages for 150,000 rows.
      await c.query("CREATE TABLE lab.s (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL) ENGINE=InnoDB");
      await c.query("INSERT INTO lab.s (k, c, pad) SELECT seq, LPAD(seq, 120, '7-'), LPAD(seq, 60, '3-') FROM lab.seq_1_to_150000");
      await c.query('ANALYZE TABLE lab.s');
    } finally {
      await c.end();
    }
  });
  after(async () => server?.stop());

  test('cold, then warm: every run reads the table once, predicted within 5 %', async () => {
    await server.restart({ 'innodb-buffer-pool-size': '32M' });
    const evictedBefore = await status('Innodb_buffer_pool_read_ahead_evicted');
    const report = await measure(parseConnectionUrl(server.url('lab')), { sql: "SELECT COUNT(*) FROM s WHERE c LIKE '%77-99%'", runs: 3, cold: 'no', commit: false, timing: false, timeoutMs: 60_000, whatIf: false });
    assert.equal(await status('Innodb_buffer_pool_read_ahead_evicted') - evictedBefore, 0, 'the premise: the server evicted no page it read ahead');
    for (const r of report.runs) {
      const measured = pagesRead(r.measured)!;
      const predicted = pagesRead(r.predicted)!;
      assert.ok(measured > 2000, `run ${r.run}: the scan reads the table again (${measured} pages)`);
      assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run ${r.run}: ${predicted} predicted against ${measured} measured`);
    }
  });
});
