// A range UPDATE measured after a single-row UPDATE was, on real servers (PostgreSQL 15 and 18), as the
// pgbench check measures them in turn. The statistics count the single-row update's three rolled-back
// versions: fewer than one run of the range update writes, so another write's, on other keys. Before, the
// shown draw took them as an earlier measurement of the range update and visited three more pages.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { need, skipUnless, postgresServers } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { pagesRead } from '../accuracy/innodb-corpus';
import { ACC_RANGE_UPDATE, asMeasured, startWithAccounts } from '../support/pg-accounts';

for (const [name, availability] of postgresServers()) {
  describe(`a range UPDATE measured after a single-row UPDATE: ${name}`, skipUnless(availability), () => {
    test("run 1 meets no other write's versions", async () => {
      const server = await startWithAccounts(need(availability));
      try {
        const target = parseConnectionUrl(server.url());
        await server.restart();
        await measure(target, asMeasured('UPDATE acc SET abalance = abalance + 1 WHERE aid = 177777'));
        await server.restart();
        const run1 = (await measure(target, asMeasured(ACC_RANGE_UPDATE))).runs[0];
        const [read, predicted] = [pagesRead(run1.measured)!, pagesRead(run1.predicted)!];
        assert.ok(read >= 40, `the premise: run 1 read the range's 34 pages and its leaves (${read})`);
        assert.ok(Math.abs(predicted - read) <= 1, `run 1: ${read} pages read, ${predicted} predicted`);
        assert.match(run1.prediction!.assumptions.join('\n'), /fewer than one run of this write/);
      } finally {
        await server.stop();
      }
    });
  });
}
