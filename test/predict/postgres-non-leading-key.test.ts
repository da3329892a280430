// An index scan whose condition names only a later column of a composite key, on real servers (PostgreSQL
// 15 and 18): "seq BETWEEN …" through a primary key on (cust_id, seq). No leading value bounds where the
// entries lie, so PostgreSQL 15 walks every leaf from the first, filtering each entry on seq; the model had
// taken the rows' share of the leaves (the schema corpus, seed 106: a bitmap index scan of 653 rows read
// 1,088 pages, 4 leaves predicted). PostgreSQL 18 skips from one leading value to the next where each value
// spans leaves (skip scan): with 10 values, 12 searches and about 50 pages, where every leaf is over 700.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import type { PlanNode } from '../../src/shared/report';
import { need, skipUnless, postgresServers } from '../support/engines';
import { pgQuery } from '../support/sql';
import { measurePg } from '../support/pg-lab';

const setup = (values: number) => [
  'CREATE EXTENSION IF NOT EXISTS pg_buffercache',
  'DROP TABLE IF EXISTS ord',
  'CREATE TABLE ord (cust_id int, seq bigint, amount int, pad text, PRIMARY KEY (cust_id, seq)) WITH (fillfactor = 70)',
  `INSERT INTO ord SELECT abs(hashint4(g::int)) % ${values}, g, 0, repeat('x', 200) FROM generate_series(1, 200000) g`,
  'VACUUM ANALYZE ord',
];
const SQL = 'SELECT sum(amount) FROM ord WHERE seq BETWEEN 150000 AND 150650';

const indexScanOf = (n: PlanNode): PlanNode | undefined => (n.index === 'ord_pkey' ? n : n.children.map(indexScanOf).find(Boolean));

for (const [name, availability] of postgresServers()) {
  describe(`a range on the key's second column: ${name}`, skipUnless(availability), () => {
    let server: LocalPostgres;
    before(async () => {
      server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '128MB', autovacuum: false } });
    });
    after(() => server?.stop());

    test('with more leading values than leaves, every leaf is read', async () => {
      for (const sql of setup(20_000)) await pgQuery(server.url(), sql);
      const report = await measurePg(server, SQL);
      for (const r of report.runs) {
        const scan = indexScanOf(r.plan!)!;
        const rows = scan.actualRows ?? 0;
        const pages = scan.total.sharedHit + scan.total.sharedRead;
        assert.ok(rows > 600 && pages > 1_000, `the premise: run ${r.run}'s scan read ${pages} index pages for ${rows} entries`);
        const [measured, predicted] = [r.measured.logicalReads!, r.predicted.logicalReads!];
        assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run ${r.run}: ${measured} logical reads measured, ${predicted} predicted`);
      }
    });

    test('with few leading values, PostgreSQL 15 still walks every leaf, PostgreSQL 18 skips between them and the band holds the reads', async () => {
      for (const sql of setup(10)) await pgQuery(server.url(), sql);
      const report = await measurePg(server, SQL);
      const major = Number(/(\d+)/.exec(report.engine.version)?.[1]);
      for (const r of report.runs) {
        const scan = indexScanOf(r.plan!)!;
        if (major < 18) {
          const [measured, predicted] = [r.measured.logicalReads!, r.predicted.logicalReads!];
          assert.ok(
            measured > 700 && Math.abs(predicted - measured) <= 0.05 * measured,
            `run ${r.run}: ${measured} logical reads measured, ${predicted} predicted`,
          );
          continue;
        }
        assert.ok((scan.indexSearches ?? 0) >= 10, `the premise: run ${r.run} searched the index ${scan.indexSearches} times`);
        const measured = r.measured.logicalReads!;
        const [low, high] = [r.predictedRange?.low.logicalReads ?? r.predicted.logicalReads!, r.predictedRange?.high.logicalReads ?? r.predicted.logicalReads!];
        assert.ok(measured >= low / 1.05 && measured <= high / 0.95, `run ${r.run}: ${measured} logical reads measured, ${low}-${high} predicted`);
      }
    });
  });
}
