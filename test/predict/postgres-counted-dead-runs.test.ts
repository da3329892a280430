// A primary-key range read after scattered committed updates and then a committed update of every row (not
// vacuumed), on real servers (PostgreSQL 15 and 18). Run 1 marks the dead entries it can; runs 2 and 3 meet
// the rest, which a bitmap scan of the same condition counts after the last run. Which keys keep theirs the
// replay of the updates places, the count gives how many. Before, the replay's own estimate set runs 2-3:
// 12,077 logical reads predicted where 9,058 were made (pgbench: 10,704 where 13,332 were made).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { createPgAccounts } from '../support/sql';

const RANGE = 'SELECT sum(abalance) FROM acc WHERE aid BETWEEN 30000 AND 50000';

for (const [name, availability] of postgresServers()) {
  describe(`later runs meet the dead entries counted after them: ${name}`, skipUnless(availability), () => {
    test('runs 2 and 3 of a range after a table-wide update within 5 %', async () => {
      const server = await LocalPostgres.start({
        binaries: need(availability),
        settings: { shared_buffers: '32MB', autovacuum: false, max_parallel_workers_per_gather: 0 },
      });
      try {
        await createPgAccounts(server.url(), [
          // 2,000 scattered updates, as a workload leaves them (1 % of the rows), then every row once.
          'UPDATE acc SET abalance = abalance + 1 WHERE aid IN (SELECT 1 + (abs(hashint4(g)) % 200000) FROM generate_series(1, 2000) g)',
          'UPDATE acc SET abalance = abalance + 1',
        ]);
        await server.restart();
        const report = await measure(parseConnectionUrl(server.url()), {
          sql: RANGE,
          runs: 3,
          cold: 'no',
          commit: false,
          timing: false,
          timeoutMs: 120_000,
          whatIf: false,
        });
        const [first, ...later] = report.runs;
        assert.ok(
          first.measured.logicalReads! > 3 * later[0].measured.logicalReads!,
          `the premise: run 1 marked most dead entries (${first.measured.logicalReads} logical reads, then ${later[0].measured.logicalReads})`,
        );
        for (const r of later) {
          const [m, p] = [r.measured.logicalReads!, r.predicted.logicalReads!];
          assert.ok(Math.abs(p - m) <= 0.05 * m, `run ${r.run}: ${m} logical reads, ${p} predicted`);
        }
        assert.match(
          later[0].prediction!.assumptions.join('\n'),
          /dead entries under the scan's keys left unmarked by the run before \(counted after the last run/,
        );
      } finally {
        await server.stop();
      }
    });
  });
}
