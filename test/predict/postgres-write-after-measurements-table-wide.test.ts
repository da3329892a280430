// A range UPDATE after two earlier measurements of it and then a committed table-wide update, on real servers
// (PostgreSQL 15 and 18). The earlier measurements' rolled-back versions lie between the rows as loaded and the
// table-wide update's; run 1's new entries fill the leaves holding theirs, and making room (deleting them) or
// checking uniqueness visits their pages. How many no view shows: the prediction takes some, the range none to
// all. Before, none were taken in any draw: 156 pages read against 87 predicted, the range 52-88. The shown draw
// stays below this table's run 1 (no scan since marked anything; on pgbench, after a count over the keys, it
// lies within 5 %).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { need, skipUnless, postgresServers } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { pagesRead } from '../accuracy/innodb-corpus';
import { pgQuery } from '../support/sql';
import { ACC_RANGE_UPDATE, asMeasured, startWithAccounts } from '../support/pg-accounts';

for (const [name, availability] of postgresServers()) {
  describe(`a range UPDATE after earlier measurements and a table-wide update: ${name}`, skipUnless(availability), () => {
    test("run 1's pages read within the range, which takes the earlier measurements' versions", async () => {
      const server = await startWithAccounts(need(availability));
      try {
        const target = parseConnectionUrl(server.url());
        const options = asMeasured(ACC_RANGE_UPDATE);
        for (const between of ['UPDATE acc SET abalance = abalance + 1 WHERE aid % 50 = 0 AND aid > 100000', 'UPDATE acc SET abalance = abalance + 1']) {
          await server.restart();
          await measure(target, options);
          await pgQuery(server.url(), between);
        }
        await pgQuery(server.url(), 'CHECKPOINT');
        await server.restart();
        const run1 = (await measure(target, options)).runs[0];
        const read = pagesRead(run1.measured)!;
        const [low, high] = [pagesRead(run1.predictedRange?.low ?? run1.predicted)!, pagesRead(run1.predictedRange?.high ?? run1.predicted)!];
        assert.ok(read >= 100, `the premise: run 1 read the range's old and new pages and more (${read})`);
        assert.ok(read >= 0.95 * low && read <= 1.05 * high, `run 1: ${read} pages read, the range ${low}–${high}`);
        assert.ok(
          pagesRead(run1.predicted)! > low,
          `the shown draw takes some of the earlier versions' pages (${pagesRead(run1.predicted)}, the range from ${low})`,
        );
        assert.match(run1.prediction!.assumptions.join('\n'), /2 earlier measurement\(s\) of this write, taken as 3 runs each/);
      } finally {
        await server.stop();
      }
    });
  });
}
