// Long values InnoDB stores off the rows' pages take pages of the clustered index's leaf segment, which
// n_leaf_pages counts as leaves: a full scan reads only the rows' leaves. Real MariaDB, cold after a restart:
// before, the prediction took every counted page for a leaf (the schema corpus's seed 1: 10,466 pages
// predicted, 5,644 read); the values' lengths, read after the runs, give the pages they take. A statement
// that reads the long column reads those pages too, for every row the scan passes (before the WHERE clause
// filters it), and so does one that locks the rows it reads exclusively (the whole row is fetched): before,
// neither read them (a scan summing the long values' lengths: about 2,600 gets measured where 1,400 were
// predicted on the schema corpus's seed 105 shape). Which long values are cached before run 1 is read from the
// pool (their pages are named by tablespace only): before, each cached leaf was taken with its long values.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../support/engines';
import { mariadbQuery } from '../support/sql';
import { measureLab } from '../support/lab';
import type { Report } from '../../src/shared/report';

const availability = mariadb();
const pagesRead = (c: { physicalReads: number | null; readAhead: number | null }) => (c.physicalReads ?? 0) + (c.readAhead ?? 0);

function assertWithin(what: string, measured: number, predicted: number): void {
  assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `${what}: ${measured} measured, ${predicted} predicted`);
}

function assertColdScan(report: Report, minimum: number): void {
  const [cold] = report.runs;
  const logical = cold.measured.logicalReads ?? 0;
  assert.ok(logical > minimum, `the premise: the scan reads the table (${logical} pages)`);
  assertWithin('logical', logical, cold.predicted.logicalReads ?? 0);
  assertWithin('pages read', pagesRead(cold.measured), pagesRead(cold.predicted));
}

describe('MariaDB: long values stored off the rows pages', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '64M' } });
    await mariadbQuery(server.port, 'CREATE DATABASE lab');
    await mariadbQuery(
      server.port,
      'CREATE TABLE lab.t (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200) NOT NULL, doc MEDIUMTEXT) ENGINE=InnoDB',
    );
    // Every fifth row holds 12 kB: too long for half a page, so stored off the row's page, a page each.
    await mariadbQuery(
      server.port,
      "INSERT INTO lab.t (k, pad, doc) SELECT seq % 97, RPAD(MD5(seq), 200, 'p'), IF(seq % 5 = 0, REPEAT(MD5(seq), 375), 'short') FROM lab.seq_1_to_20000",
    );
    await mariadbQuery(server.port, 'ANALYZE TABLE lab.t');
  });
  after(() => server?.stop());

  test('a full scan reads the rows leaves, not the pages the long values take', async () => {
    await server.restart();
    const report = await measureLab(server, 'SELECT COUNT(*), SUM(k) FROM t', { runs: 2 });
    assertColdScan(report, 200);
    assert.match(report.runs[0].prediction!.assumptions.join('\n'), /lab\.t: 4,000 of the [\d,]+ pages its statistics count as leaves hold long values/);
  });

  test('a scan that reads the long column reads every row its pages, matching or not', async () => {
    await server.restart();
    const report = await measureLab(server, 'SELECT SUM(LENGTH(doc)) FROM t WHERE k = 5', { runs: 2 });
    // The premise: 4,000 values of a page each beyond the scan of the leaves.
    assertColdScan(report, 4_000);
    assert.match(report.runs[0].prediction!.assumptions.join('\n'), /lab\.t: doc read with each row the scan passes/);
    const warm = report.runs[1];
    assertWithin('warm logical', warm.measured.logicalReads ?? 0, warm.predicted.logicalReads ?? 0);
  });

  test('run 1 as found reads the long values a scan of the rows left out, as the pool walk shows them', async () => {
    await server.restart();
    // The rows' leaves cached, none of the long values: the pages' table is named for leaves only.
    await mariadbQuery(server.port, 'SELECT COUNT(*), SUM(k) FROM lab.t');
    const report = await measureLab(server, 'SELECT SUM(LENGTH(doc)) FROM t WHERE k = 5', { runs: 2 });
    const [run1] = report.runs;
    const read = pagesRead(run1.measured);
    assert.ok(read > 3_500 && read < 4_400, `the premise: run 1 reads the long values, not the leaves (${read} pages)`);
    assertWithin('pages read', read, pagesRead(run1.predicted));
    assert.match(report.runs[0].prediction!.assumptions.join('\n'), /lab\.t: doc read with each row .*; 0 of them cached before run 1/);
  });

  test('an UPDATE reads the whole row of every row its scan locks, long values included', async () => {
    const report = await measureLab(server, "UPDATE t SET k = k + 1 WHERE pad LIKE 'zz%'", { runs: 2 });
    for (const r of report.runs) {
      assert.ok((r.measured.logicalReads ?? 0) > 4_000, `the premise: run ${r.run} read the long values (${r.measured.logicalReads} pages)`);
      assertWithin(`run ${r.run} logical`, r.measured.logicalReads ?? 0, r.predicted.logicalReads ?? 0);
    }
  });
});
