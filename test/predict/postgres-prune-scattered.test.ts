// A ring scan after updates scattered over a table (as pgbench's are), on real servers (PostgreSQL 15 and
// 18): run 1 prunes each page an update took a version from, WAL-logged, and its BULKREAD ring rejects
// those buffers (their WAL not yet flushed), so they stay in the main pool and run 2 finds them cached.
// The statistics do not say which pages hold dead versions, but run 1's executed plan counts the blocks it
// dirtied. Before, only a table-wide update's pages were taken as pruned: with 4,000 random updates the
// prediction had run 2 read the whole table again (measured on pgbench at 128 MB: 22,843 read, 29,127
// predicted). After an update of a third of the rows that grew them in place (HOT, fillfactor 70), the
// live rows stay spread over the table while its dead versions pass a fifth of it; such a table had been
// read as one whose live rows a table-wide update packed at its end, found no packed pages of dead
// versions, and kept nothing (schema corpus, seed 105 at 29 MiB grown, run 2: 9,617 read, 12,881 predicted).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { need, skipUnless, type Availability, postgresServers } from '../support/engines';
import { measurePg } from '../support/pg-lab';
import { pagesRead } from '../accuracy/innodb-corpus';
import { pgQuery } from '../support/sql';

const SCATTERED = [
  'CREATE TABLE s (id int PRIMARY KEY, k int NOT NULL, c char(120) NOT NULL, pad char(60) NOT NULL)',
  'INSERT INTO s SELECT g, g % 1000, md5(g::text) || md5(g::text), md5(g::text) FROM generate_series(1, 150000) g',
  'VACUUM ANALYZE s',
  // One row in 50, spread over the table; full pages send each new version to the table's end.
  "UPDATE s SET pad = left(pad, 59) || 'u' WHERE id % 50 = 7",
];

const GROWN_IN_PLACE = [
  'CREATE TABLE s (id int PRIMARY KEY, k int NOT NULL, c char(120) NOT NULL, pad varchar(200) NOT NULL) WITH (fillfactor = 70)',
  'INSERT INTO s SELECT g, g % 1000, md5(g::text) || md5(g::text), md5(g::text) FROM generate_series(1, 150000) g',
  'VACUUM ANALYZE s',
  // A third of the rows, 40 bytes longer, each on its own page (HOT, in the room fillfactor left), committed.
  "UPDATE s SET pad = pad || repeat('g', 40) WHERE id % 3 = 0",
];

async function runTwoFindsPruned(availability: Availability<PostgresBinaries>, workers: number, table: string[]): Promise<void> {
  const server = await LocalPostgres.start({
    binaries: need(availability),
    settings: {
      shared_buffers: '128MB',
      autovacuum: false,
      max_parallel_workers_per_gather: workers,
      parallel_setup_cost: 0,
      min_parallel_table_scan_size: 0,
      // The ring keeps a pruned page only while its WAL is unflushed, as the model takes it; a WAL writer
      // waking mid-scan flushes it and the ring writes the page out (with a 1 ms writer: 2,619 read on
      // run 2, 2,427 predicted). Not modelled: the writer is kept asleep for the scan.
      wal_writer_delay: '10s',
    },
  });
  try {
    for (const q of ['CREATE EXTENSION pg_buffercache', ...table, 'CHECKPOINT']) await pgQuery(server.url(), q);
    // A pool a quarter of the table's size or less, so the scan takes a ring; restarted, nothing is cached.
    await server.restart({ shared_buffers: '16MB' });
    const report = await measurePg(server, "SELECT count(*) FROM s WHERE c LIKE '%77-99%'", { runs: 2, timeoutMs: 120_000 });
    const [first, second] = report.runs;
    const pages = pagesRead(first.measured)!;
    const again = pagesRead(second.measured)!;
    assert.ok(again < 0.8 * pages, `the premise: run 2 read ${again} of ${pages} pages`);
    const predicted = pagesRead(second.predicted)!;
    assert.ok(Math.abs(predicted - again) <= 0.05 * again, `run 2: ${again} pages read, ${predicted} predicted`);
    assert.match(first.prediction!.assumptions.join('\n'), /the scan dirtied [\d,]+ blocks as executed; [\d,]+ taken as WAL-logged/);
  } finally {
    await server.stop();
  }
}

for (const [name, availability] of postgresServers()) {
  describe(`a ring scan after scattered updates: ${name}`, skipUnless(availability), () => {
    for (const workers of [0, 2]) {
      test(`run 2 finds the pages run 1 pruned cached (${workers ? 'parallel' : 'serial'}): within 5 %`, () =>
        runTwoFindsPruned(availability, workers, SCATTERED));
    }
    test('after a third of the rows grew in place, run 2 finds the pages run 1 pruned cached: within 5 %', () =>
      runTwoFindsPruned(availability, 0, GROWN_IN_PLACE));
  });
}
