// A range UPDATE of a non-indexed column at fillfactor 70, on real servers (PostgreSQL 15 and 18), whose rows
// lie spread over the table: a date inserted with jitter, so the day's 200 rows sit on about 180 pages, one
// or two a page. Each page's reserve takes its rows' new versions (HOT: no new block, no index entry). The
// index on the date is correlated (0.99), and before, the model took the rows as packed in index order, 27 a
// page, and sent all but the reserve's few off their pages with an entry in both indexes. The written rows'
// pages are now read after the runs (written-rows.ts): every run within 5 %, where the model without them is
// a third over.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import type { PlanNode } from '../../src/shared/report';
import { need, skipUnless, postgresServers } from '../support/engines';
import { pgQuery } from '../support/sql';
import { measurePg } from '../support/pg-lab';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const DAY_ROWS = 200;

async function createJitteredOrders(url: string): Promise<void> {
  for (const q of [
    'CREATE EXTENSION IF NOT EXISTS pg_buffercache',
    'CREATE TABLE ord (id int PRIMARY KEY, placed int NOT NULL, amount int NOT NULL, pad text NOT NULL) WITH (fillfactor = 70)',
    // The day follows insertion with a jitter of ±10 days, drawn by a fixed hash of the row's number.
    `INSERT INTO ord SELECT g, g / ${DAY_ROWS} + (g * 7919 % 21) - 10, g % 1000, repeat('x', 200) FROM generate_series(1, 200000) g`,
    'CREATE INDEX ord_placed ON ord (placed)',
    'VACUUM ANALYZE ord',
    'CHECKPOINT',
  ])
    await pgQuery(url, q);
}

for (const [name, availability] of postgresServers()) {
  describe(`a range UPDATE whose rows lie spread over the table: ${name}`, skipUnless(availability), () => {
    test("every run's logical reads within 5 %, the written rows' pages read after the runs", async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '64MB', autovacuum: false } });
      try {
        await createJitteredOrders(server.url());
        await server.restart();
        let input: PredictFixtureInput | undefined;
        const report = await measurePg(server, 'UPDATE ord SET amount = amount + 1 WHERE placed = 500', {
          onPredictionInput: (i) => (input = i as PredictFixtureInput),
        });
        const modify = report.runs[0].plan!;
        assert.equal(modify.nodeType, 'ModifyTable');
        const pages = modify.self.sharedDirtied;
        assert.ok(pages >= 0.7 * DAY_ROWS, `the premise: the rows lie spread, one or two a page (${pages} pages dirtied for ${DAY_ROWS} rows)`);
        for (const r of report.runs) {
          const [measured, predicted] = [r.measured.logicalReads!, r.predicted.logicalReads!];
          assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run ${r.run}: ${measured} logical reads, ${predicted} predicted`);
        }
        assert.match(report.runs[0].prediction!.assumptions.join('\n'), /the written rows' pages as read after the runs \(\d+ pages\)/);
        // Without the rows' pages (and the server's count of the HOT updates, which tells how many stayed on
        // their pages) the rows are taken as packed in index order: far over.
        const settings = (input!.facts as { settings: Record<string, unknown> }).settings;
        assert.ok(settings.writtenBlocks, 'the written rows were read after the runs');
        const { writtenBlocks: _w, ...without } = settings;
        const runs = (input!.runs as PlanNode[]).map(({ hotUpdated: _h, ...root }) => root);
        const packed = predictFixture({ ...input!, runs, facts: { ...(input!.facts as object), settings: without } }, { whatIf: false });
        const [measured1, packed1] = [report.runs[0].measured.logicalReads!, packed.runs[0].predicted.logicalReads!];
        assert.ok(packed1 > 1.15 * measured1, `the mechanism matters: packed rows predict ${packed1} logical reads, ${measured1} measured`);
      } finally {
        await server.stop();
      }
    });
  });
}
