// Heap density after a table-wide update. Before VACUUM the index still points at both versions and a
// range visits both halves, a request per version. After VACUUM the live versions sit packed in the pages
// the update appended; the catalogs do not say whether a half-empty heap is that or rows spread thin by
// deletes, but the statistics count as many rows updated off their pages as the table has: the prediction
// shows the packed draw, and a band that holds the spread one.
// Measured on a real server (PostgreSQL 15), cold.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../support/engines';
import { measurePg } from '../support/pg-lab';

const availability = systemPostgres();

describe('PostgreSQL heap density after a table-wide update', skipUnless(availability), () => {
  test('a primary-key range after the heap doubled: physical reads within 10 %, before and after VACUUM; a single-row update with the maps it consults', async () => {
    const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '16MB', max_parallel_workers_per_gather: 0 } });
    try {
      const sql = async (...qs: string[]) => {
        const c = new Client({ connectionString: server.url() });
        await c.connect();
        for (const q of qs) await c.query(q);
        await c.end();
      };
      await sql(
        'CREATE EXTENSION pg_buffercache',
        'CREATE TABLE acc (id int PRIMARY KEY, v int NOT NULL, pad text) WITH (autovacuum_enabled = off)',
        `INSERT INTO acc SELECT g, g, repeat('a', 60) FROM generate_series(1, 200000) g`,
        'VACUUM (FREEZE, ANALYZE) acc',
        // Every page is full: no version can stay on its page (no HOT), so the update appends a second heap.
        'UPDATE acc SET v = v + 1',
        'CHECKPOINT',
      );
      const statement = 'SELECT sum(v) FROM acc WHERE id BETWEEN 20000 AND 60000';
      const run = async () => {
        await server.restart();
        await sql('ALTER DATABASE postgres SET enable_bitmapscan = off', 'ALTER DATABASE postgres SET enable_seqscan = off');
        await server.restart();
        const report = await measurePg(server, statement, { runs: 1 });
        const [m, p] = [report.runs[0].measured.physicalReads!, report.runs[0].predicted.physicalReads!];
        const band = report.runs[0].predictedRange;
        const logical = { m: report.runs[0].measured.logicalReads!, p: report.runs[0].predicted.logicalReads! };
        return {
          m,
          p,
          logical,
          low: band?.low.physicalReads ?? p,
          high: band?.high.physicalReads ?? p,
          assumptions: report.runs[0].prediction!.assumptions.join('\n'),
        };
      };
      const bloated = await run();
      assert.ok(Math.abs(bloated.p - bloated.m) <= 0.1 * bloated.m, `after the update: measured ${bloated.m}, predicted ${bloated.p}`);
      // The index points at both versions of every key, on pages apart: each version is a request.
      assert.ok(
        Math.abs(bloated.logical.p - bloated.logical.m) <= 0.05 * bloated.logical.m,
        `after the update, logical: measured ${bloated.logical.m}, predicted ${bloated.logical.p}`,
      );
      assert.match(bloated.assumptions, /dead row versions not yet vacuumed, [\d.]+ per live row reached through its index entries/);
      await sql('VACUUM (ANALYZE) acc', 'CHECKPOINT');
      const vacuumed = await run();
      // Every row was updated off its page, so the prediction shown takes the live rows packed, and holds the
      // measurement; the rows' own blocks, read after the run, leave the band nothing to guess.
      assert.ok(Math.abs(vacuumed.p - vacuumed.m) <= 0.1 * vacuumed.m, `packed: measured ${vacuumed.m}, predicted ${vacuumed.p}`);
      assert.ok(vacuumed.high <= vacuumed.m * 1.1, `the rows' blocks known: measured ${vacuumed.m}, band ${vacuumed.low}–${vacuumed.high}`);
      assert.match(vacuumed.assumptions, /rows' heap blocks as the scan found them \(read after the last run\)/);
      assert.match(
        vacuumed.assumptions,
        /live: where they are is drawn, spread over all [\d,]+ pages .* or packed into the last [\d,]+ .*the prediction shown takes them packed, since [\d,]+ rows were updated off their pages/,
      );
      // A single-row update on the vacuumed table (its pages all-visible, its free-space map there): the
      // visibility-map pin and the free-space map's search count too (16 gets measured, 12 without them).
      const update = await measurePg(server, 'UPDATE acc SET v = v + 1 WHERE id = 4242', { runs: 3 });
      // Runs 2–3 meet the version run 1 left, unless run 1's visit had already marked its entry dead: which,
      // no view tells (14 and 16 gets both measured), so the band holds both.
      for (const r of update.runs.slice(1)) {
        const [low, high] = [r.predictedRange?.low.logicalReads ?? r.predicted.logicalReads!, r.predictedRange?.high.logicalReads ?? r.predicted.logicalReads!];
        assert.ok(
          r.measured.logicalReads! >= low - 1 && r.measured.logicalReads! <= high + 1,
          `run ${r.run}: measured ${r.measured.logicalReads}, predicted ${r.predicted.logicalReads} (${low}–${high})`,
        );
        assert.ok(high - low <= 3, `run ${r.run}: a band of ${low}–${high} says nothing`);
      }
      assert.match(
        update.runs[0].prediction!.assumptions.join('\n'),
        /the first update of each such page pins its visibility-map page and clears the page's bit, which a rollback leaves cleared; a free-space map of \d+ page\(s\), searched from its root/,
      );
      // A batch update there: the free-space map offers the pages VACUUM emptied, which are read, new ones
      // each run (the earlier ones are full of the rolled-back versions); before, the model added pages and read none.
      const batch = await measurePg(server, 'UPDATE acc SET v = v + 1 WHERE id BETWEEN 100000 AND 100999', { runs: 3 });
      for (const r of batch.runs.slice(1)) {
        const [m, p] = [r.measured.physicalReads!, r.predicted.physicalReads!];
        assert.ok(m >= 5 && Math.abs(p - m) <= Math.max(2, 0.15 * m), `batch run ${r.run}: measured ${m} pages read, predicted ${p}`);
      }
      assert.match(batch.runs[0].prediction!.assumptions.join('\n'), /the free-space map offers the pages a VACUUM emptied/);
      // With the statistics reset, nothing counts the rows updated off their pages: the live rows' place would
      // be a guess (spread, 2,000+ blocks), but their blocks are read after the run.
      await sql('SELECT pg_stat_reset()');
      const reset = await run();
      assert.ok(Math.abs(reset.p - reset.m) <= 0.1 * reset.m, `statistics reset: measured ${reset.m}, predicted ${reset.p}`);
      assert.match(reset.assumptions, /the prediction shown takes them spread/);
    } finally {
      await server.stop();
    }
  });
});
