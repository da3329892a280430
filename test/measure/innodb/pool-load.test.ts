// A buffer pool still loading its startup dump must not make run 1 "cold": the status strings as InnoDB
// writes them (buf0dump.cc), and a real MariaDB's own status once it accepts connections.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, type Connection } from 'mysql2/promise';
import { LocalInnodbServer } from '../../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../../support/engines';
import { waitUntil } from '../../support/wait';
import { poolLoading, poolStillLoading } from '../../../src/measure/innodb/pool-load';

const availability = mariadb();

test('loading while the status names a load under way; finished, aborted or never started otherwise', () => {
  assert.equal(poolLoading('Loading buffer pool(s) from /var/lib/mysql/ib_buffer_pool'), true);
  assert.equal(poolLoading('Loaded 1024/8192 pages'), true);
  assert.equal(poolLoading('Buffer pool(s) load completed at 261203 21:00:00'), false);
  assert.equal(poolLoading('Buffer pool(s) load aborted on request'), false);
  assert.equal(poolLoading('not started'), false);
  assert.equal(poolLoading(''), false);
});

describe('MariaDB: the startup load of the buffer pool', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  let admin: Connection;
  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '16M' } });
    admin = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
  });
  after(async () => {
    await admin?.end();
    await server?.stop();
  });

  test('a load of the pool from its dump is waited for until InnoDB says it completed; then no warning', async () => {
    await admin.query('CREATE DATABASE lab');
    await admin.query('CREATE TABLE lab.t (id INT PRIMARY KEY, pad CHAR(200) NOT NULL) ENGINE=InnoDB');
    await admin.query("INSERT INTO lab.t SELECT seq, REPEAT('x', 200) FROM lab.seq_1_to_20000");
    await admin.query('SET GLOBAL innodb_buffer_pool_dump_now = ON');
    const status = async (name: string) => {
      const [rows] = await admin.query('SELECT VARIABLE_VALUE AS v FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = ?', [name]);
      return String((rows as Array<{ v: string }>)[0]?.v);
    };
    const dumpStatus = () => status('INNODB_BUFFER_POOL_DUMP_STATUS');
    const loadStatus = () => status('Innodb_buffer_pool_load_status');
    assert.ok(await waitUntil(async () => /dump completed/i.test(await dumpStatus()), 100, 100), 'the dump never completed');
    const beforeRequest = await loadStatus();
    // No startup dump existed, so no load has completed yet and "completed" can only be this request's.
    assert.doesNotMatch(beforeRequest, /completed/i);
    await admin.query('SET GLOBAL innodb_buffer_pool_load_now = ON');
    // The request is served by a background thread: until it picks it up, the status is the old one.
    const pickedUp = async () => (await loadStatus()) !== beforeRequest;
    assert.ok(await waitUntil(pickedUp, 100, 50), `the load request was never picked up (status stayed "${beforeRequest}")`);
    const warnings: string[] = [];
    const loading = await poolStillLoading(admin, 'information_schema.GLOBAL_STATUS', {}, warnings);
    // The wait ends on InnoDB's own words for a finished load, read with the name as measuring reads it.
    assert.match(await loadStatus(), /^Buffer pool\(s\) load completed at /);
    assert.equal(loading, undefined);
    assert.deepEqual(warnings, []);
  });
});
