// Purge catching up in the background would count in the global counters: on a real MariaDB, a
// measurement that starts while committed updates wait for purge waits until the history list drains.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, type Connection } from 'mysql2/promise';
import { LocalInnodbServer } from '../../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../../support/engines';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';
import { historyLength, purgeWaitWarning } from '../../../src/measure/innodb/purge';

const availability = mariadb();

test('a wait that purge did not finish says the counters may include it', () => {
  assert.match(
    purgeWaitWarning({ before: 900, after: 40, waitedMs: 10_000 }, 'before run 1'),
    /still had 40 committed transactions to process after 10\.0 s \(900 at first.*may include its page requests/,
  );
  assert.match(purgeWaitWarning({ before: 96, after: 0, waitedMs: 1234 }, 'before run 1'), /undo logs of 96 committed transactions.*waited 1\.2 s/);
  assert.match(purgeWaitWarning('unknown', 'before run 1'), /history list length was not available .*could not wait for purge/);
});

describe('MariaDB: waiting for purge', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  let admin: Connection;
  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '32M' } });
    admin = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await admin.query('CREATE DATABASE lab');
    await admin.query('CREATE TABLE lab.t (id INT PRIMARY KEY, k INT NOT NULL, KEY k (k)) ENGINE=InnoDB');
    await admin.query('INSERT INTO lab.t SELECT seq, seq FROM lab.seq_1_to_20000');
    await admin.query('ANALYZE TABLE lab.t');
  });
  after(async () => {
    await admin?.end();
    await server?.stop();
  });

  test('run 1 starts once the history list is empty, and the report says it waited', async () => {
    // A read view held open keeps purge from processing the updates committed after it.
    const holder = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await holder.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
    for (let id = 1; id <= 200; id++) await admin.query(`UPDATE lab.t SET k = k + 1 WHERE id = ${id * 97}`);
    assert.ok(((await historyLength(admin)) ?? 0) >= 200, 'the premise: the committed updates wait for purge');
    const release = setTimeout(() => void holder.query('ROLLBACK').then(() => holder.end()), 1500);
    try {
      const progress: string[] = [];
      const report = await measure(parseConnectionUrl(server.url('lab')), {
        sql: 'SELECT COUNT(*) FROM t WHERE k BETWEEN 100 AND 9000',
        runs: 2,
        cold: 'no',
        commit: false,
        timing: false,
        timeoutMs: 30_000,
        whatIf: false,
        onProgress: (m) => progress.push(m),
      });
      assert.match(progress[0] ?? '', /^waiting for InnoDB's purge: [\d,]+ committed transactions to process$/, 'the wait shows as progress before run 1');
      const note = report.warnings.find((w) => /InnoDB's purge/.test(w));
      assert.ok(note, `warnings: ${report.warnings.join(' | ')}`);
      assert.match(note!, /waited \d+\.\d s for it to finish/);
      assert.equal(await historyLength(admin), 0);
    } finally {
      clearTimeout(release);
    }
  });
});
