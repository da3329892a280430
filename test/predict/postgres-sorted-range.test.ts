// A range sorted on another column (ORDER BY c, with and without a top-N LIMIT), measured on real servers
// (PostgreSQL 15 and 18), cold. Its rows' heap blocks are read after the last run in the order the index scan
// returned them: asked with the ORDER BY kept, they came back in c's order, and the prediction switched heap
// pages at nearly every row (73 requests predicted where 10 were made for 100 rows in the corpus).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { assertRunsWithin } from '../support/runs';
import { measurePg } from '../support/pg-lab';

for (const [name, availability] of postgresServers()) {
  describe(`a range sorted on another column: ${name}`, skipUnless(availability), () => {
    test("cold, ORDER BY c with and without LIMIT: logical and physical reads within 5 %, the rows' blocks read in the scan's order", async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', max_parallel_workers_per_gather: 0 } });
      try {
        const c = new Client({ connectionString: server.url() });
        await c.connect();
        await c.query('CREATE TABLE ts (id serial PRIMARY KEY, c char(120) NOT NULL, pad char(60) NOT NULL)');
        await c.query(`INSERT INTO ts (c, pad) SELECT md5(g::text), 'p' || g FROM generate_series(1, 60000) g`);
        await c.query('CREATE EXTENSION pg_buffercache');
        await c.query('VACUUM ANALYZE');
        await c.query('ALTER DATABASE postgres SET enable_bitmapscan = off');
        await c.end();
        for (const sql of [
          'SELECT c FROM ts WHERE id BETWEEN 20001 AND 21000 ORDER BY c',
          'SELECT c FROM ts WHERE id BETWEEN 30001 AND 31000 ORDER BY c DESC LIMIT 5',
        ]) {
          await server.restart();
          const report = await measurePg(server, sql, { runs: 2 });
          assert.match(JSON.stringify(report.runs[0].plan ?? {}), /"Sort".*"Index Scan"/, `${sql}: a sort over the index scan`);
          assert.match(report.runs[0].prediction!.assumptions.join('\n'), /1,000 rows' heap blocks as the scan found them/, sql);
          assertRunsWithin(report, sql);
        }
      } finally {
        await server.stop();
      }
    });
  });
}
