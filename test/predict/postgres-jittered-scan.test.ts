// An index scan on one side of a join whose key correlates with the heap overall and not locally, on real
// servers (PostgreSQL 15 and 18): a date inserted with a jitter of ±10 days (correlation 0.99), so the rows of
// one day lie on about 170 pages, one or two a page, and a scan in key order goes from page to page. Before,
// the scan was taken to walk its pages in block order, one request a page (the schema corpus's seed 105: 2,002
// requests measured, 920 predicted). The rows' blocks are now read after the runs for an index scan among
// other nodes too, of its table alone under its index condition (heap-blocks.ts readScanBlocks).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { pgQuery } from '../support/sql';
import { measurePg } from '../support/pg-lab';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';
import type { PlanNode } from '../../src/shared/report';

const JOIN = 'SELECT c.region, count(*), sum(o.amount) FROM ord o JOIN cust c ON c.id = o.cust_id WHERE o.placed BETWEEN 500 AND 502 GROUP BY c.region';

const find = (n: PlanNode, type: string): PlanNode | undefined => (n.nodeType === type ? n : n.children.map((c) => find(c, type)).find(Boolean));

for (const [name, availability] of postgresServers()) {
  describe(`a join's index scan on a date inserted with jitter: ${name}`, skipUnless(availability), () => {
    test('every run within 5 %, the rows read in key order from page to page', async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '64MB', autovacuum: false } });
      try {
        for (const q of [
          'CREATE EXTENSION IF NOT EXISTS pg_buffercache',
          'CREATE TABLE cust (id int PRIMARY KEY, region int NOT NULL)',
          'INSERT INTO cust SELECT g, g % 20 FROM generate_series(1, 20000) g',
          'CREATE TABLE ord (id int PRIMARY KEY, cust_id int NOT NULL, placed int NOT NULL, amount int NOT NULL, pad text NOT NULL)',
          `INSERT INTO ord SELECT g, 1 + g % 20000, g / 200 + (g * 7919 % 21) - 10, g % 1000, repeat('x', 200) FROM generate_series(1, 200000) g`,
          'CREATE INDEX ord_placed ON ord (placed)',
          'VACUUM ANALYZE',
          'CHECKPOINT',
        ])
          await pgQuery(server.url(), q);
        await server.restart();
        let input: PredictFixtureInput | undefined;
        const report = await measurePg(server, JOIN, { onPredictionInput: (i) => (input = i as PredictFixtureInput) });
        const scan = find(report.runs[0].plan!, 'Index Scan');
        assert.ok(scan && find(report.runs[0].plan!, 'Hash Join'), 'the premise: a hash join over an index scan of the dates');
        const requests = scan!.self.sharedHit + scan!.self.sharedRead;
        const pages = new Set((input!.facts as { settings: { heapBlocks?: Record<string, number[]> } }).settings.heapBlocks?.ord).size;
        assert.ok(requests > 1.5 * pages, `the premise: the scan goes back to pages it left (${requests} requests, ${pages} pages)`);
        for (const r of report.runs) {
          const [measured, predicted] = [r.measured.logicalReads!, r.predicted.logicalReads!];
          assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run ${r.run}: ${measured} logical reads, ${predicted} predicted`);
        }
        const facts = input!.facts as { relations: unknown[]; settings: Record<string, unknown> };
        const { heapBlocks: _h, ...settings } = facts.settings;
        const inOrder = predictFixture({ ...input!, facts: { ...facts, settings } }, { whatIf: false }).runs[0].predicted.logicalReads!;
        const measured1 = report.runs[0].measured.logicalReads!;
        assert.ok(inOrder < 0.8 * measured1, `the mechanism matters: block order predicts ${inOrder} logical reads, ${measured1} measured`);
      } finally {
        await server.stop();
      }
    });
  });
}
