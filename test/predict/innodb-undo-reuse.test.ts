// A write transaction takes the next of InnoDB's 128 rollback segments in turn, counted from 0 at startup.
// A segment keeps the one-page undo log of a rolled-back transaction for the next one to reuse; purge frees
// a committed one's. So after a restart the same statement measured again lands on the segments its
// earlier rolled-back runs left logs in (2 gets fewer), while after committed writes have been purged every
// segment creates a log. No view shows which: the prediction shows a created log and its band holds both.
// Real MariaDB; before the band held only the created log.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { createLabSbtest, mariadbQuery } from '../support/sql';
import type { Report } from '../../src/shared/report';

const availability = mariadb();

describe('MariaDB: an undo log reused or created', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  const update = async (): Promise<Report['runs']> =>
    (await measure(parseConnectionUrl(server.url('lab')), { sql: "UPDATE s SET c = 'x' WHERE id = 5000", runs: 3, cold: 'no', commit: false, timing: false, timeoutMs: 60_000, whatIf: false })).runs;

  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '64M' } });
    await createLabSbtest(server.port, { rows: 20_000, k: 'id', index: false });
  });
  after(async () => server?.stop());

  test('measured again after a restart, runs 2–3 reuse the logs the first measurement left: within the band, 2 gets under the draw shown', async () => {
    await server.restart();
    await update();
    await server.restart();
    const runs = (await update()).slice(1);
    for (const r of runs) {
      const { low, high } = r.predictedRange!;
      assert.equal(r.predicted.logicalReads! - low.logicalReads!, 2, `run ${r.run}: the band reaches a reused log`);
      assert.ok(r.measured.logicalReads! >= low.logicalReads! && r.measured.logicalReads! <= high.logicalReads!, `run ${r.run}: ${r.measured.logicalReads} measured in ${low.logicalReads}–${high.logicalReads}`);
      assert.ok(r.measured.logicalReads! < r.predicted.logicalReads!, `the premise: run ${r.run} reused a log (${r.measured.logicalReads} against ${r.predicted.logicalReads} creating one)`);
    }
  });

  test('after committed writes in every segment were purged, each run creates a log: the draw shown', async () => {
    for (let n = 0; n < 140; n++) await mariadbQuery(server.port, `UPDATE lab.s SET k = k + 1 WHERE id = ${1 + n * 100}`);
    const runs = (await update()).slice(1);
    for (const r of runs) assert.equal(r.measured.logicalReads, r.predicted.logicalReads, `run ${r.run}`);
  });
});
