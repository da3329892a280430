// A range UPDATE through an index on a date inserted with jitter, on real servers (PostgreSQL 15 and 18):
// the column correlates with the heap overall (1.00) but a day's rows lie on hundreds of pages, so the scan
// goes from page to page, a request a row. The written rows' blocks are read after the runs in the scan's
// order; runs 2-3, which also meet the previous run's rolled-back versions, had been walked in block order
// instead (measured on PostgreSQL 15: 4,020 logical reads on runs 2-3, 3,114 predicted; 4,021 now).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import type { PlanNode } from '../../src/shared/report';
import { need, skipUnless, postgresServers } from '../support/engines';
import { pgQuery } from '../support/sql';
import { measurePg } from '../support/pg-lab';

const SETUP = [
  'CREATE EXTENSION pg_buffercache',
  'CREATE TABLE jit (id int PRIMARY KEY, placed int, amount int, pad text) WITH (fillfactor = 70)',
  "INSERT INTO jit SELECT g, greatest(0, g / 200 + hashint4(g) % 10), 0, repeat('x', 400) FROM generate_series(1, 120000) g",
  'CREATE INDEX jit_placed ON jit (placed)',
  'VACUUM ANALYZE jit',
];

const scanOf = (n: PlanNode): PlanNode | undefined => (n.nodeType === 'Index Scan' ? n : n.children.map(scanOf).find(Boolean));

for (const [name, availability] of postgresServers()) {
  describe(`a range update over rows a jittered date spreads: ${name}`, skipUnless(availability), () => {
    test("every run follows the rows' blocks in the scan's order", async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '128MB', autovacuum: false } });
      try {
        for (const sql of SETUP) await pgQuery(server.url(), sql);
        const report = await measurePg(server, 'UPDATE jit SET amount = amount + 1 WHERE placed BETWEEN 295 AND 301');
        for (const r of report.runs) {
          const scan = scanOf(r.plan!)!;
          const rows = scan.actualRows ?? 0;
          const requests = scan.total.sharedHit + scan.total.sharedRead;
          assert.ok(rows > 1_000 && requests > 0.7 * rows, `the premise: run ${r.run}'s scan requested a page for most rows (${requests} for ${rows})`);
          const [measured, predicted] = [r.measured.logicalReads!, r.predicted.logicalReads!];
          assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run ${r.run}: ${measured} logical reads measured, ${predicted} predicted`);
        }
      } finally {
        await server.stop();
      }
    });
  });
}
