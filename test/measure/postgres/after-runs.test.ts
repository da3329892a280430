// What BufferLens asks after the last run of a SELECT on PostgreSQL, on a real server: the ends of each unique
// one-column integer index (not a partial one, whose MIN would scan the table), and a nested loop's lookups
// (each outer row's key, the inner row's heap block, the outer row's), each in a read-only transaction that
// leaves nothing open.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../../support/engines';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';
import type { PgPredictionInput } from '../../../src/predict/postgres/facts';
import { pgQuery } from '../../support/sql';
import { Client } from 'pg';
import { afterRunsFailures, readOnly } from '../../../src/measure/postgres/after-runs';

const availability = systemPostgres();

describe('PostgreSQL: what is read after the last run', skipUnless(availability), () => {
  test("index ends and a nested loop's lookups, in the loop's order", async () => {
    const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', max_parallel_workers_per_gather: 0 } });
    try {
      for (const q of [
        'CREATE EXTENSION pg_buffercache',
        "CREATE TABLE la (id serial PRIMARY KEY, k int NOT NULL, code int, pad char(100) NOT NULL DEFAULT '')",
        "CREATE TABLE lb (id serial PRIMARY KEY, pad char(100) NOT NULL DEFAULT '')",
        'CREATE UNIQUE INDEX la_code ON la (code) WHERE code > 0',
        `INSERT INTO la (k, code) SELECT 1 + abs(hashint4(g)) % 20000, g FROM generate_series(1, 20000) g`,
        "INSERT INTO lb (pad) SELECT 'p' || g FROM generate_series(1, 20000) g",
        'VACUUM ANALYZE',
        // Small tables: without this the planner hashes them.
        'ALTER DATABASE postgres SET enable_hashjoin = off',
        'ALTER DATABASE postgres SET enable_mergejoin = off',
      ])
        await pgQuery(server.url(), q);
      let facts: Omit<PgPredictionInput, 'runs'> | undefined;
      const sql = 'SELECT count(b.pad) FROM la AS a JOIN lb AS b ON b.id = a.k WHERE a.id BETWEEN 5001 AND 5200';
      const report = await measure(parseConnectionUrl(server.url()), {
        sql,
        runs: 1,
        cold: 'no',
        commit: false,
        timing: false,
        timeoutMs: 60_000,
        whatIf: false,
        onPredictionInput: (i) => (facts = (i as unknown as { facts: Omit<PgPredictionInput, 'runs'> }).facts),
      });
      assert.ok(facts);
      assert.match(JSON.stringify(report.runs[0].plan), /Nested Loop/);
      const byName = (n: string) => facts!.relations.find((r) => r.planName === n)!;
      assert.deepEqual(byName('la_pkey').keyRange, { min: 1, max: 20000 });
      assert.deepEqual(byName('lb_pkey').keyRange, { min: 1, max: 20000 });
      assert.equal(byName('la_code').keyRange, undefined, 'a partial index: no MIN over the table');
      const lookups = facts.settings.lookupRows?.lb;
      assert.ok(lookups, "the loop's lookups were read");
      const ks = await pgQuery<{ k: number }>(server.url(), 'SELECT k FROM la WHERE id BETWEEN 5001 AND 5200 ORDER BY id');
      assert.deepEqual(
        lookups.keys,
        ks.map((r) => r.k),
        "each outer row's key, in the loop's order",
      );
      assert.equal(lookups.blocks.length, 200);
      assert.equal(facts.settings.heapBlocks?.la?.length, 200, "the outer rows' blocks");
      const open = await pgQuery<{ n: number }>(server.url(), "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'");
      assert.equal(open[0].n, 0);
    } finally {
      await server.stop();
    }
  });

  test('a query after the runs that fails (its timeout, a missing object) is named with why, leaves no transaction open', async () => {
    const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '16MB' } });
    const client = new Client({ connectionString: server.url() });
    await client.connect();
    try {
      const got = await readOnly(client, 50, 'fallback', async () => (await client.query('SELECT pg_sleep(2)'), 'read'), "the index keys' ends");
      assert.equal(got, 'fallback');
      const [note] = afterRunsFailures(client);
      assert.match(
        note,
        /^the index keys' ends could not be read after the runs \(canceling statement due to statement timeout\): the prediction models it instead$/,
      );
      // Rolled back: the session is out of the read-only transaction readOnly opened.
      const { rows } = await client.query('SHOW transaction_read_only');
      assert.equal(rows[0].transaction_read_only, 'off');
    } finally {
      await client.end();
      await server.stop();
    }
  });
});
