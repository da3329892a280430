// A bitmap heap scan measured again, on a real server: its run 1 finds the blocks the first measurement
// read still cached and reads nothing. The prediction placed the bitmap's blocks evenly over the table,
// so it predicted most of them read again (874 of 1,002 on the schema corpus's seed 1); the blocks of the
// rows the scan's condition selects, read after the runs, are the ones the pool holds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';

const STATEMENT = 'SELECT sum(length(pad)) FROM orders WHERE placed BETWEEN 40 AND 41';

describe('a bitmap heap scan measured again', skipUnless(systemPostgres()), () => {
  test('run 1 as found predicts the reads measured: none, where the earlier measurement left its blocks cached', async () => {
    const server = await LocalPostgres.start({ binaries: need(systemPostgres()), settings: { shared_buffers: '32MB', max_parallel_workers_per_gather: 0 } });
    try {
      const c = new Client({ connectionString: server.url() });
      await c.connect();
      // placed is a hash of the row number: its 400 rows a day lie anywhere in the 5,000-block heap.
      await c.query('CREATE TABLE orders (id serial PRIMARY KEY, placed int NOT NULL, pad text NOT NULL)');
      await c.query(`INSERT INTO orders (placed, pad) SELECT abs(hashint4(g)) % 250, repeat('x', 300) FROM generate_series(1, 100000) g`);
      await c.query('CREATE INDEX orders_placed ON orders (placed)');
      await c.query('CREATE EXTENSION pg_buffercache');
      await c.query('VACUUM ANALYZE');
      await c.end();
      await server.restart();
      const options = { sql: STATEMENT, runs: 2, cold: 'no' as const, commit: false, timing: false, timeoutMs: 60_000, whatIf: false };
      const first = await measure(parseConnectionUrl(server.url()), options);
      const again = await measure(parseConnectionUrl(server.url()), options);
      const plan = JSON.stringify(again.runs[0].plan);
      assert.match(plan, /Bitmap Heap Scan/, 'the statement runs as a bitmap heap scan');
      assert.ok((first.runs[0].measured.physicalReads ?? 0) > 500, `the first measurement read the blocks: ${first.runs[0].measured.physicalReads}`);
      const r1 = again.runs[0];
      assert.equal(r1.measured.physicalReads, 0, 'measured again, run 1 reads nothing');
      assert.ok((r1.predicted.physicalReads ?? -1) <= 5, `predicted ${r1.predicted.physicalReads} pages read where none were`);
      assert.ok(
        r1.prediction?.assumptions.some((a) => /the [\d,]+ blocks its rows are on \(read after the last run\)/.test(a)),
        'the report says whose blocks it took',
      );
      const logical = r1.measured.logicalReads ?? 0;
      assert.ok(Math.abs((r1.predicted.logicalReads ?? 0) - logical) <= 0.05 * logical, `logical ${logical} measured, ${r1.predicted.logicalReads} predicted`);
    } finally {
      await server.stop();
    }
  });
});
