// After a committed table-wide update (not vacuumed), a scan through a secondary index, measured on real
// servers (PostgreSQL 15 and 18), cold: run 1 visits both versions of every row and marks the dead version's
// entry where it holds dead versions only; runs 2 and 3 skip those. The update inserted the new entries in
// heap order, at random places of the key, so which entries those are is replayed from the rows around the
// scan, read after the last run (index-window.ts, secondary-churn.ts). Before, every later run was predicted
// to visit every dead version again (50 rows: 103 predicted where 61–79 were made).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import type { PgPredictionInput } from '../../src/predict/postgres/facts';
import { assertRunsWithin } from '../support/runs';
import { WINDOW_MARGIN } from '../../src/measure/postgres/index-window';
import { measurePg } from '../support/pg-lab';

for (const [name, availability] of postgresServers()) {
  describe(`later runs through a secondary index after a table-wide update: ${name}`, skipUnless(availability), () => {
    test('ORDER BY k with LIMIT: every run within 5 %, the rows around the scan read after the last run', async () => {
      const server = await LocalPostgres.start({
        binaries: need(availability),
        settings: { shared_buffers: '32MB', max_parallel_workers_per_gather: 0, autovacuum: false },
      });
      try {
        const c = new Client({ connectionString: server.url() });
        await c.connect();
        await c.query('CREATE TABLE sk (id serial PRIMARY KEY, k int NOT NULL, c char(120) NOT NULL, pad char(60) NOT NULL)');
        await c.query(`INSERT INTO sk (k, c, pad) SELECT 1 + abs(hashint4(g)) % 60000, md5(g::text), 'p' || g FROM generate_series(1, 60000) g`);
        // Built after the load, as sysbench's prepare does: leaves filled to 90 %, equal keys in posting lists.
        await c.query('CREATE INDEX sk_k ON sk (k)');
        await c.query('CREATE EXTENSION pg_buffercache');
        await c.query('VACUUM ANALYZE');
        await c.query(`UPDATE sk SET pad = left(pad, 59) || 'u'`);
        await c.query('ANALYZE');
        await c.query('CHECKPOINT');
        await c.end();
        for (const sql of ['SELECT id, pad FROM sk WHERE k > 21000 ORDER BY k LIMIT 50', 'SELECT id, pad FROM sk WHERE k > 40000 ORDER BY k LIMIT 300']) {
          await server.restart();
          let facts: Omit<PgPredictionInput, 'runs'> | undefined;
          const report = await measurePg(server, sql, {
            runs: 3,
            onPredictionInput: (i) => (facts = (i as unknown as { facts: Omit<PgPredictionInput, 'runs'> }).facts),
          });
          const window = facts?.settings.indexWindows?.sk_k;
          assert.ok(window, `${sql}: the rows around the scan were read`);
          assert.equal(window.first, WINDOW_MARGIN);
          assert.ok(
            window.keys.every((k, r) => r === 0 || window.keys[r - 1] <= k),
            'in index order',
          );
          assert.ok(
            window.keys[window.first] > Number(/k > (\d+)/.exec(sql)![1]) && window.keys[window.first - 1] <= Number(/k > (\d+)/.exec(sql)![1]),
            'the scan starts at the first row past the bound',
          );
          const [first, second] = report.runs;
          assert.ok(
            second.measured.logicalReads! < 0.85 * first.measured.logicalReads!,
            `${sql}: run 2 skipped the entries run 1 marked (${first.measured.logicalReads} then ${second.measured.logicalReads})`,
          );
          assertRunsWithin(report, sql, 1);
        }
        const open = new Client({ connectionString: server.url() });
        await open.connect();
        const idle = await open.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'");
        await open.end();
        assert.equal(idle.rows[0].n, 0);
      } finally {
        await server.stop();
      }
    });
  });
}
