// A measurement while another session holds a lock the statement needs: every query BufferLens sends is
// bounded by the timeout, the catalog reads before run 1 too, and the message says a lock was waited for.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../../support/engines';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';
import { pgQuery } from '../../support/sql';

const availability = systemPostgres();

describe('PostgreSQL: a lock held by another session', skipUnless(availability), () => {
  test('ends within the timeout (not the client limit 15 s later) and names the lock wait; nothing is left open', async () => {
    const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '16MB' } });
    const holder = new Client({ connectionString: server.url() });
    try {
      await pgQuery(server.url(), 'CREATE EXTENSION pg_buffercache');
      await pgQuery(server.url(), 'CREATE TABLE locked AS SELECT g AS id FROM generate_series(1, 1000) g');
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE locked IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      await assert.rejects(
        measure(parseConnectionUrl(server.url()), {
          sql: 'SELECT count(*) FROM locked',
          runs: 2,
          cold: 'no',
          commit: false,
          timing: false,
          timeoutMs: 2000,
          whatIf: false,
        }),
        /waited longer than the 2 s limit for a lock another session holds/,
      );
      // A few bounded queries at most, far from the client's own limit (timeout + 15 s).
      assert.ok(Date.now() - started < 12_000, `${Date.now() - started} ms`);
      await holder.query('ROLLBACK');
      const [{ n }] = (await pgQuery(
        server.url(),
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'",
      )) as Array<{ n: number }>;
      assert.equal(n, 0);
    } finally {
      await holder.end().catch(() => undefined);
      await server.stop();
    }
  });
});
