// A range UPDATE measured again after committed updates, on real servers (PostgreSQL 15 and 18): the
// pgbench check's warm state in small. The first measurement's run 1 split each leaf under the keys, the
// right halves appended at the index's end, which run 1 of the second measurement reads beside the leaves
// the keys had as loaded (before, those alone: 9 index pages cached after run 1 predicted, 15 measured).
// The first measurement's rolled-back runs appended their versions after the table's rows, the committed
// updates since theirs after those: run 1 meets the first measurement's versions there, which no view shows
// before it (before, spread over the whole heap). How many blocks of its earlier runs still hold entries
// varies (pgbench: one in three of the first run's, one in two of the second's; here fewer), so pages read
// are held to the range.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { need, skipUnless, postgresServers } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { pagesRead } from '../accuracy/innodb-corpus';
import { pgQuery } from '../support/sql';
import { ACC_RANGE_UPDATE, asMeasured, startWithAccounts } from '../support/pg-accounts';

for (const [name, availability] of postgresServers()) {
  describe(`a range UPDATE measured again after committed updates: ${name}`, skipUnless(availability), () => {
    test('run 1 reads the leaves the earlier measurement split; pages read within the range', async () => {
      const server = await startWithAccounts(need(availability));
      try {
        const target = parseConnectionUrl(server.url());
        const options = asMeasured(ACC_RANGE_UPDATE);
        await server.restart();
        await measure(target, options);
        // Committed updates of rows elsewhere, one in 50, each appending its version after the measurement's.
        await pgQuery(server.url(), 'UPDATE acc SET abalance = abalance + 1 WHERE aid % 50 = 0 AND aid > 100000');
        await server.restart();
        const again = await measure(target, options);
        const run1 = again.runs[0];
        const index = run1.residency.find((x) => x.kind === 'index')!;
        const [cached, predictedCached] = [index.cachedAfter!, index.predictedAfter!];
        assert.ok(cached >= 12, `the premise: run 1 read the keys' leaves and the halves split off them (${cached} index pages cached after it)`);
        assert.ok(Math.abs(predictedCached - cached) <= 2, `index pages cached after run 1: ${cached} measured, ${predictedCached} predicted`);
        const read = pagesRead(run1.measured)!;
        const [low, high] = [pagesRead(run1.predictedRange?.low ?? run1.predicted)!, pagesRead(run1.predictedRange?.high ?? run1.predicted)!];
        assert.ok(read >= 60, `the premise: run 1 read the range's 34 pages and the earlier versions' (${read})`);
        assert.ok(read >= 0.95 * low && read <= 1.05 * high, `run 1: ${read} pages read, the range ${low}–${high}`);
        const assumptions = run1.prediction!.assumptions.join('\n');
        assert.match(assumptions, /the scan also reads the \d+ halves they appended at the index's end/);
        assert.match(assumptions, /on the blocks before those the committed updates appended/);
      } finally {
        await server.stop();
      }
    });
  });
}
