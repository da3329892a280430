// A range UPDATE through the primary key after a committed table-wide update, not vacuumed (pgbench's
// accounts, in small), on real servers (PostgreSQL 15 and 18). Each row's key holds its dead version's entry
// beside the live one: the scan goes out to the dead version (where the load put it, in the heap's first
// half) and back, and _bt_check_unique visits it again as the new entry goes in. That second visit finds the
// page the scan just read; before, it was taken at the heap's first blocks, which nothing had read (pgbench
// at scale 20: 85 pages read, 154 predicted). And it marks each dead version it visits, so runs 2-3 check only
// the previous run's aborted version; nor does an update pin the visibility map of a page the table-wide
// update left not all-visible, though pg_class.relallvisible, counted by the last VACUUM, says all are; and it
// fetches each old version twice (pgbench at scale 20: runs 2-3 20,219-20,252 logical reads, 23,220
// predicted before).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { pagesRead } from '../accuracy/innodb-corpus';
import { createPgAccounts } from '../support/sql';

const UPDATE = 'UPDATE acc SET abalance = abalance - 1 WHERE aid BETWEEN 50000 AND 52000';

for (const [name, availability] of postgresServers()) {
  describe(`a range UPDATE after a table-wide update: ${name}`, skipUnless(availability), () => {
    test("run 1 pages read and every run's logical reads within 5 %", async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', autovacuum: false } });
      try {
        await createPgAccounts(server.url(), ['UPDATE acc SET abalance = abalance + 1']);
        await server.restart();
        const report = await measure(parseConnectionUrl(server.url()), {
          sql: UPDATE,
          runs: 3,
          cold: 'no',
          commit: false,
          timing: false,
          timeoutMs: 120_000,
          whatIf: false,
        });
        const run = report.runs[0];
        assert.match(
          run.prediction!.assumptions.join('\n'),
          /dead row versions not yet vacuumed, 1\.00 per live row/,
          'the premise: every row has a dead version',
        );
        const [read, predictedRead] = [pagesRead(run.measured)!, pagesRead(run.predicted)!];
        assert.ok(read >= 60, `the premise: run 1 read the range's live and dead versions' pages (${read})`);
        assert.ok(Math.abs(predictedRead - read) <= 0.05 * read, `run 1: ${read} pages read, ${predictedRead} predicted`);
        for (const r of report.runs) {
          const [logical, predictedLogical] = [r.measured.logicalReads!, r.predicted.logicalReads!];
          assert.ok(Math.abs(predictedLogical - logical) <= 0.05 * logical, `run ${r.run}: ${logical} logical reads, ${predictedLogical} predicted`);
        }
      } finally {
        await server.stop();
      }
    });
  });
}
