// What Test Connection checks beyond the connection, on real servers: what measuring needs, met or not,
// with the SQL that meets it, and the server's limits said as notes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection } from 'mysql2/promise';
import { LocalPostgres } from '../../src/local-server/postgres';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { serverNeeds } from '../../src/measure/readiness';
import { isAuthFailure } from '../../src/db/errors';
import { mariadb, need, skipUnless, systemPostgres } from '../support/engines';
import { pgQuery } from '../support/sql';

describe('Test Connection on PostgreSQL: pg_buffercache and pg_monitor', skipUnless(systemPostgres()), () => {
  let server: LocalPostgres;
  before(async () => {
    server = await LocalPostgres.start({ binaries: need(systemPostgres()) });
    await pgQuery(server.url(), 'CREATE ROLE plain LOGIN');
  });
  after(async () => server?.stop());

  test('a missing extension and a missing grant are named with the SQL that fixes them; then both are met', async () => {
    const plain = parseConnectionUrl(server.url('postgres', 'plain'));
    let needs = await serverNeeds(plain);
    const missing = needs.filter((n) => !n.ok && !n.note);
    assert.deepEqual(
      missing.map((n) => n.fix),
      ['CREATE EXTENSION pg_buffercache;', 'GRANT pg_monitor TO "plain";'],
    );
    assert.ok(
      needs.some((n) => n.note && /cannot evict one relation/.test(n.what)),
      'PostgreSQL 15 says it cannot evict',
    );
    await pgQuery(server.url(), 'CREATE EXTENSION pg_buffercache');
    await pgQuery(server.url(), 'GRANT pg_monitor TO plain');
    needs = await serverNeeds(plain);
    assert.deepEqual(
      needs.filter((n) => !n.ok && !n.note),
      [],
    );
  });
});

describe('Test Connection on MariaDB: PROCESS and the index statistics', skipUnless(mariadb()), () => {
  let server: LocalInnodbServer;
  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(mariadb()) });
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await c.query("CREATE USER probe@'127.0.0.1' IDENTIFIED BY 'pw'");
    await c.end();
  });
  after(async () => server?.stop());

  test('a user with no grants is told which GRANTs measuring needs; with them nothing is missing', async () => {
    const probe = parseConnectionUrl(`mysql://probe:pw@127.0.0.1:${server.port}/`);
    const missing = (await serverNeeds(probe)).filter((n) => !n.ok && !n.note);
    assert.deepEqual(
      missing.map((n) => n.fix),
      ["GRANT PROCESS ON *.* TO 'probe'@'127.0.0.1';", "GRANT SELECT ON mysql.innodb_index_stats TO 'probe'@'127.0.0.1';"],
    );
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    for (const fix of missing) await c.query(fix.fix!);
    await c.end();
    assert.deepEqual(
      (await serverNeeds(probe)).filter((n) => !n.ok && !n.note),
      [],
    );
  });

  test('a wrong MariaDB password is an authentication failure the editor offers to re-enter', async () => {
    const err = await serverNeeds(parseConnectionUrl(`mysql://probe:wrong@127.0.0.1:${server.port}/`)).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal(isAuthFailure(err), true, String(err));
  });
});
