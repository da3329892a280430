import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createConnection, type Connection } from 'mysql2/promise';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../support/engines';

async function withConn<T>(port: number, fn: (c: Connection) => Promise<T>): Promise<T> {
  const c = await createConnection({ host: '127.0.0.1', port, user: 'root' });
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const availability = mariadb();

describe('MariaDB harness smoke', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '32M' } });
  });
  after(async () => server?.stop());

  test('starts with the chosen pool size, the load at startup off and a temporary directory of its own', async () => {
    const rows = await withConn(server.port, async (c) => {
      const [r] = await c.query(
        `SELECT @@innodb_buffer_pool_size AS bp, @@innodb_buffer_pool_load_at_startup AS load_at_start, @@version AS v, @@tmpdir AS tmp`,
      );
      return r as Array<{ bp: number; load_at_start: number; v: string; tmp: string }>;
    });
    assert.equal(Number(rows[0].bp), 32 * 1024 * 1024);
    // Temporary tables in its own directory, not the system's /tmp that other servers share.
    assert.equal(rows[0].tmp, server.tmpDir);
    assert.equal(Number(rows[0].load_at_start), 0);
    assert.match(rows[0].v, /MariaDB/);
  });

  const cachedPages = async (c: Connection) => {
    const [rows] = await c.query(`SELECT count(*) AS n FROM information_schema.INNODB_BUFFER_PAGE WHERE TABLE_NAME = '\`smoke\`.\`t\`'`);
    return Number((rows as Array<{ n: number }>)[0].n);
  };

  test("keeps data across a restart, with the table's pages gone from the pool", async () => {
    const before = await withConn(server.port, async (c) => {
      await c.query('CREATE DATABASE smoke');
      await c.query('CREATE TABLE smoke.t (id int primary key, v varchar(200)) ENGINE=InnoDB');
      await c.query('USE smoke');
      await c.query(`INSERT INTO t SELECT seq, repeat('x', 200) FROM seq_1_to_5000`);
      return cachedPages(c);
    });
    assert.ok(before > 50, `the new table is cached before the restart (${before} pages)`);
    await server.restart();
    await withConn(server.port, async (c) => {
      // Opening the table reads its root page (and background statistics may read one more).
      const after = await cachedPages(c);
      assert.ok(after <= 2, `only the root page may be cached after the restart, found ${after}`);
      const [r] = await c.query('SELECT count(*) AS n, sum(id) AS s FROM smoke.t');
      const row = (r as Array<{ n: number; s: string }>)[0];
      assert.equal(Number(row.n), 5000);
      assert.equal(Number(row.s), (5000 * 5001) / 2);
    });
  });

  test('stop removes the server and its files', async () => {
    const { dir, port } = server;
    await server.stop();
    assert.equal(existsSync(dir), false);
    await assert.rejects(withConn(port, async () => undefined));
  });
});
