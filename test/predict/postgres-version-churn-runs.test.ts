// After a committed table-wide update (not vacuumed), measured on real servers (PostgreSQL 15 and 18), cold:
// run 1 visits both versions of every key and marks the dead one where it is a plain entry; runs 2 and 3
// skip those. Which keys kept their versions in one posting list follows from the update's own inserts
// (version-churn.ts), where each key lies among the leaves from the index's ends (read after the last run),
// and a nested loop's lookups from the keys and heap blocks they found (read after the last run). Before,
// every later run was predicted to visit every dead version again (a 1,000-key range: 2,008 predicted where
// 1,200–1,500 were made), and the loop's lookups were drawn.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { assertRunsWithin } from '../support/runs';
import { measurePg } from '../support/pg-lab';

for (const [name, availability] of postgresServers()) {
  describe(`later runs after a table-wide update: ${name}`, skipUnless(availability), () => {
    test('a primary-key range and a join on the primary key: every run within 5 %, logical and physical', async () => {
      const server = await LocalPostgres.start({
        binaries: need(availability),
        settings: { shared_buffers: '32MB', max_parallel_workers_per_gather: 0, autovacuum: false },
      });
      try {
        const c = new Client({ connectionString: server.url() });
        await c.connect();
        for (const t of ['ua', 'ub']) {
          await c.query(`CREATE TABLE ${t} (id serial PRIMARY KEY, k int NOT NULL, c char(120) NOT NULL, pad char(60) NOT NULL)`);
          await c.query(`INSERT INTO ${t} (k, c, pad) SELECT 1 + abs(hashint4(g)) % 60000, md5(g::text), 'p' || g FROM generate_series(1, 60000) g`);
        }
        await c.query('CREATE EXTENSION pg_buffercache');
        await c.query('VACUUM ANALYZE');
        // Full pages: every new version goes to a new page, with an entry in the primary key.
        await c.query(`UPDATE ua SET pad = left(pad, 59) || 'u'`);
        await c.query(`UPDATE ub SET pad = left(pad, 59) || 'u'`);
        await c.query('ANALYZE');
        await c.query('CHECKPOINT');
        await c.end();
        for (const sql of [
          'SELECT count(*), max(length(pad)) FROM ua WHERE id BETWEEN 20001 AND 21000',
          'SELECT a.id, b.c FROM ua a JOIN ub b ON b.id = a.id WHERE a.id BETWEEN 30001 AND 30300',
        ]) {
          await server.restart();
          const report = await measurePg(server, sql, { runs: 3 });
          const [first, second] = report.runs;
          assert.ok(
            second.measured.logicalReads! < 0.8 * first.measured.logicalReads!,
            `${sql}: run 2 skipped the entries run 1 marked (${first.measured.logicalReads} then ${second.measured.logicalReads})`,
          );
          assertRunsWithin(report, sql, 1);
        }
      } finally {
        await server.stop();
      }
    });
  });
}
