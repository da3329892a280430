// The first full scan after a table-wide update, on real servers (PostgreSQL 15 and 18), in a pool too small
// for the table: it prunes every page of dead versions (WAL-logged), and its BULKREAD ring rejects each as
// dirty with WAL not yet flushed, so those pages stay in the main pool and run 2 reads only about half the
// table. Whether earlier statements pruned the pages first no statistic tells, but run 1's executed plan
// does (the blocks its scan dirtied): the prediction shown follows it. Before, the shown prediction took
// the pages as pruned earlier and read the whole table again; earlier still, every draw did.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { pagesRead } from '../accuracy/innodb-corpus';
import { pgQuery } from '../support/sql';

for (const [name, availability] of postgresServers()) {
  describe(`the first scan after a table-wide update: ${name}`, skipUnless(availability), () => {
    test('run 2 finds the pruned half cached: predicted within 10 %, the band within 5 %', async () => {
      const server = await LocalPostgres.start({
        binaries: need(availability),
        settings: { shared_buffers: '128MB', autovacuum: false, max_parallel_workers_per_gather: 0 },
      });
      try {
        for (const q of [
          'CREATE TABLE s (id serial PRIMARY KEY, k int NOT NULL, c char(120) NOT NULL, pad char(60) NOT NULL)',
          'INSERT INTO s (k, c, pad) SELECT g % 1000, md5(g::text) || md5(g::text), md5(g::text) FROM generate_series(1, 150000) g',
          'VACUUM ANALYZE s',
          // Full pages: every new version goes to a new page, doubling the heap.
          "UPDATE s SET pad = left(pad, 59) || 'u'",
          'ANALYZE s',
          'CHECKPOINT',
        ])
          await pgQuery(server.url(), q);
        await server.restart({ shared_buffers: '32MB' });
        const report = await measure(parseConnectionUrl(server.url()), {
          sql: "SELECT count(*) FROM s WHERE c LIKE '%77-99%'",
          runs: 2,
          cold: 'no',
          commit: false,
          timing: false,
          timeoutMs: 120_000,
          whatIf: false,
        });
        const [first, second] = report.runs;
        const pages = pagesRead(first.measured)!;
        const again = pagesRead(second.measured)!;
        assert.ok(again < 0.7 * pages, `the premise: run 2 read ${again} of ${pages} pages`);
        // The ring keeps a pruned page only while its WAL is not yet flushed; the WAL writer flushes some
        // in time, which the model leaves out (measured at 32 MB: run 2 read 4,256 pages, the model keeping
        // every pruned page predicts 4,023): within 10 %.
        const predicted = pagesRead(second.predicted)!;
        assert.ok(Math.abs(predicted - again) <= 0.1 * again, `run 2: ${again} pages read, ${predicted} predicted`);
        const low = pagesRead(second.predictedRange?.low ?? second.predicted)!;
        assert.ok(low <= again * 1.05, `run 2: ${again} pages read, the band's low end ${low}`);
        assert.match(
          first.prediction!.assumptions.join('\n'),
          /run 1's scan dirtied [\d,]+ blocks, so it pruned the [\d,]+ pages of dead versions as it read them/,
        );
      } finally {
        await server.stop();
      }
    });
  });
}
