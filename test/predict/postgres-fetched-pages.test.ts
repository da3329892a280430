// A correlated index-only scan that goes to the heap for some pages of its range only, on real servers
// (PostgreSQL 15 and 18): after scattered committed updates, the pages not all-visible are those written
// since the last VACUUM, and in a warm pool the ones cached dirty are among them. Before, the prediction
// took the fetched pages as the first pages of the range, mostly not cached (pgbench at 128 MB, a count of
// 600,000 keys: 5,023 pages read, 5,619 predicted).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { pagesRead } from '../accuracy/innodb-corpus';
import { createPgAccounts, pgQuery } from '../support/sql';

for (const [name, availability] of postgresServers()) {
  describe(`an index-only scan fetching some pages of its range: ${name}`, skipUnless(availability), () => {
    test('run 1 pages read within 5 % (or 3 pages)', async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '128MB', autovacuum: false } });
      try {
        await createPgAccounts(server.url());
        await server.restart();
        // One row in 300, committed, found through the index (so only their pages are read): each page is no
        // longer all-visible, and it stays cached dirty.
        await pgQuery(server.url(), 'UPDATE acc SET abalance = abalance + 1 WHERE aid = ANY (ARRAY(SELECT generate_series(300, 200000, 300)))');
        const report = await measure(parseConnectionUrl(server.url()), {
          sql: 'SELECT count(*) FROM acc WHERE aid < 100000',
          runs: 2,
          cold: 'no',
          commit: false,
          timing: false,
          timeoutMs: 120_000,
          whatIf: false,
        });
        const first = report.runs[0];
        assert.match(first.prediction!.assumptions.join('\n'), /the heap fetches go to about [\d,]+ of the [\d,]+ pages of the scan's range/);
        const [measured, predicted] = [pagesRead(first.measured)!, pagesRead(first.predicted)!];
        assert.ok(Math.abs(predicted - measured) <= Math.max(3, 0.05 * measured), `run 1: ${measured} pages read, ${predicted} predicted`);
      } finally {
        await server.stop();
      }
    });
  });
}
