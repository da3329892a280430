// INSERT … SELECT of new keys, on a real server: keys beyond an index's largest go to its right-most leaves,
// which stay cached, not to random leaves read from disk; and each later run's unique indexes find the
// previous run's rolled-back version under every key the statement gives, and visit it. Before, on the
// schema corpus's seed 1: 8,116 pages read predicted against 7,880, and runs 2-3 10,492 logical against 11,298.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../support/engines';
import { measurePg } from '../support/pg-lab';

const INSERT = 'INSERT INTO orders (id, placed, code, pad) SELECT id + 200000, placed + 1000, code + 2000000, pad FROM orders WHERE id BETWEEN 5001 AND 25000';

describe('INSERT … SELECT of keys past the indexes end', skipUnless(systemPostgres()), () => {
  test('entries at the right-most leaves, and later runs checking the rolled-back versions: within 5 % on every run', async () => {
    const server = await LocalPostgres.start({ binaries: need(systemPostgres()), settings: { shared_buffers: '16MB', max_parallel_workers_per_gather: 0 } });
    try {
      const c = new Client({ connectionString: server.url() });
      await c.connect();
      // placed and code are hashes of the row number: random in heap order, so the index's leaves are far apart.
      await c.query('CREATE TABLE orders (id bigint PRIMARY KEY, placed int NOT NULL, code bigint NOT NULL, pad text NOT NULL)');
      await c.query(`INSERT INTO orders SELECT g, abs(hashint4(g)) % 1000, abs(hashint8(g)) % 1000000, repeat('x', 100) FROM generate_series(1, 200000) g`);
      await c.query('CREATE INDEX orders_placed ON orders (placed)');
      await c.query('CREATE UNIQUE INDEX orders_code ON orders (code, id)');
      await c.query('CREATE EXTENSION pg_buffercache');
      await c.query('VACUUM ANALYZE');
      await c.end();
      await server.restart();
      const report = await measurePg(server, INSERT, { runs: 3 });
      const close = (m: number | null, p: number | null, share: number) => Math.abs((p ?? 0) - (m ?? 0)) <= Math.max(2, share * (m ?? 0));
      for (const r of report.runs)
        assert.ok(
          close(r.measured.physicalReads, r.predicted.physicalReads, 0.05),
          `run ${r.run} pages read: ${r.measured.physicalReads} measured, ${r.predicted.physicalReads} predicted`,
        );
      const [first, ...later] = report.runs;
      assert.ok(
        close(first.measured.logicalReads, first.predicted.logicalReads, 0.05),
        `run 1 logical: ${first.measured.logicalReads}, ${first.predicted.logicalReads} predicted`,
      );
      // Later runs: each unique index visits the previous run's version under every key (2 a row here, modelled);
      // making room in a leaf full of rolled-back entries visits their versions again (about 2.4 a row more,
      // measured 228,343 against 180,445): not modelled, and said so in docs/accuracy.md.
      for (const r of later) {
        const m = r.measured.logicalReads ?? 0;
        const p = r.predicted.logicalReads ?? 0;
        assert.ok(p >= (first.predicted.logicalReads ?? 0) + 2 * 20_000 && p <= m && p >= 0.75 * m, `run ${r.run} logical: ${m} measured, ${p} predicted`);
      }
      const notes = report.runs[0].prediction!.assumptions.join('\n');
      assert.match(notes, /orders_placed: every inserted key lies beyond its largest/);
      assert.match(report.runs[1].prediction!.assumptions.join('\n'), /unique index\(es\) finds the previous run's rolled-back version/);
    } finally {
      await server.stop();
    }
  });
});
