// A single-row UPDATE of a non-indexed column on full pages (fillfactor 100), on real servers (PostgreSQL 15
// and 18), after committed updates moved one row off every page and a scan pruned their dead versions: the
// row's page has room for its new version, so the update is HOT (no new block, no index entry), which no view
// shows before run 1. Before, the range held only the update that moves the row (pgbench, warm: 6 logical
// reads measured, 14-16 predicted); then it took the room pruning may have left as well; now the server's
// count of the run's HOT updates (postgres-hot-counted.test.ts) says the row stayed on its page.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { createPgAccounts } from '../support/sql';
import { measurePg } from '../support/pg-lab';

for (const [name, availability] of postgresServers()) {
  describe(`a single-row update where pruning left room: ${name}`, skipUnless(availability), () => {
    test('every run within the range, which says why', async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', autovacuum: false } });
      try {
        // One row of every page of 61 moved (the page too full for its new version), then a scan prunes the old ones.
        await createPgAccounts(server.url(), ['UPDATE acc SET abalance = 1 WHERE aid % 61 = 30', 'SELECT count(*) FROM acc']);
        await server.restart();
        const report = await measurePg(server, 'UPDATE acc SET abalance = abalance + 1 WHERE aid = 4242', { runs: 3 });
        for (const r of report.runs) {
          const measured = r.measured.logicalReads!;
          assert.ok(measured <= 8, `the premise: run ${r.run} updated the row on its page (${measured} logical reads)`);
          const low = r.predictedRange?.low.logicalReads ?? r.predicted.logicalReads!;
          const high = r.predictedRange?.high.logicalReads ?? r.predicted.logicalReads!;
          assert.ok(measured >= low - 1 && measured <= high, `run ${r.run}: ${measured} logical reads, the range ${low}-${high}`);
          assert.ok(Math.abs(r.predicted.logicalReads! - measured) <= 1, `run ${r.run}: ${measured} logical reads, ${r.predicted.logicalReads} predicted`);
        }
        assert.match(report.runs[0].prediction!.assumptions.join('\n'), /1 of the 1 rows updated in place \(HOT\), as the server counted them/);
      } finally {
        await server.stop();
      }
    });
  });
}
