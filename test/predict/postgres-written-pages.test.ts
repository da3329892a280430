// An index-only scan fetches from the heap the rows on pages the visibility map does not mark all-visible:
// those written since the last VACUUM. Which pages those are no view shows, but shared buffers do for the
// ones written since the last checkpoint: they are cached dirty (bufferSeed.dirty). Measured on real servers
// (PostgreSQL 15 and 18): after committed updates of 400 rows, a covering count over a third of the keys
// fetches from about 800 such pages, every one cached. Before, they were drawn anywhere in the heap, and
// half of them predicted read from disk (about 400 pages where none were).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import type { PgPredictionInput } from '../../src/predict/postgres/facts';
import { assertRunsWithin } from '../support/runs';
import { measurePg } from '../support/pg-lab';

for (const [name, availability] of postgresServers()) {
  describe(`index-only scans over pages written since VACUUM: ${name}`, skipUnless(availability), () => {
    test('the cached dirty pages are the fetched ones: pages read within 5 %', async () => {
      const server = await LocalPostgres.start({
        binaries: need(availability),
        settings: { shared_buffers: '32MB', max_parallel_workers_per_gather: 0, autovacuum: false, checkpoint_timeout: '1h' },
      });
      try {
        const setup = async (queries: string[]) => {
          const c = new Client({ connectionString: server.url() });
          await c.connect();
          for (const q of queries) await c.query(q);
          await c.end();
        };
        await setup([
          'CREATE EXTENSION pg_buffercache',
          'CREATE TABLE w (id serial PRIMARY KEY, k int NOT NULL, c char(120) NOT NULL, pad char(60) NOT NULL)',
          `INSERT INTO w (k, c, pad) SELECT 1 + abs(hashint4(g)) % 60000, md5(g::text), 'p' || g FROM generate_series(1, 60000) g`,
          'CREATE INDEX w_k ON w (k)',
          'VACUUM ANALYZE',
          'CHECKPOINT',
        ]);
        await server.restart();
        // Committed single-row writes spread over the heap: each clears the map bit of its page and of the page its new version went to.
        // The rows are found through the primary key, not by a scan of the whole table: a scan's BULKREAD ring
        // keeps a written page only while its WAL is unflushed, which the WAL writer's timing decides (on a
        // loaded machine it flushed mid-scan and 4 written pages left the pool); an index scan keeps every one.
        await setup(['UPDATE w SET c = md5(c) WHERE id = ANY(ARRAY(SELECT generate_series(7, 60000, 150)))']);
        let facts: Omit<PgPredictionInput, 'runs'> | undefined;
        const report = await measurePg(server, 'SELECT count(*) FROM w WHERE k BETWEEN 1 AND 20000', {
          runs: 2,
          onPredictionInput: (i) => (facts = (i as unknown as { facts: Omit<PgPredictionInput, 'runs'> }).facts),
        });
        assert.match(JSON.stringify(report.runs[0].plan), /Index Only Scan/);
        assert.ok(
          (facts?.settings.bufferSeed?.dirty?.length ?? 0) >= 400,
          `dirty cached blocks read before run 1: ${facts?.settings.bufferSeed?.dirty?.length}`,
        );
        assertRunsWithin(report, 'covering count', 2);
        // A VACUUM since the last checkpoint dirtied the pages it marked all-visible: their dirtiness is not used.
        await setup(['VACUUM w']);
        let after: Omit<PgPredictionInput, 'runs'> | undefined;
        await measurePg(server, 'SELECT count(*) FROM w WHERE k BETWEEN 1 AND 20000', {
          runs: 1,
          onPredictionInput: (i) => (after = (i as unknown as { facts: Omit<PgPredictionInput, 'runs'> }).facts),
        });
        const heap = after!.relations.findIndex((r) => r.planName === 'w');
        assert.ok(after?.settings.bufferSeed, 'the pool was read');
        assert.equal(after.settings.bufferSeed.dirty?.filter(([r]) => r === heap).length, 0, 'no dirty heap block taken after the VACUUM');
      } finally {
        await server.stop();
      }
    });
  });
}
