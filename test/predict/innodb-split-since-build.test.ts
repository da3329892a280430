// Inserts into a secondary index built by sorting and split here and there since, on a real MariaDB: its
// leaves are the build's full ones and the half-full pairs the splits left, so random keys split a full leaf
// at many inserts, where an index grown by random inserts to the same average fill (67 % here) splits few.
// Which pages are full the pool shows (INNODB_BUFFER_PAGE_LRU's DATA_SIZE of each cached page, pool-walk.ts):
// 47 of the index's 121 cached pages. Measured on MariaDB 10.11: 7,502 gets on run 1, 4,562 predicted with
// the pages' fill drawn as random inserts leave it, 7,419 with the cached pages' fills. Where nothing is
// cached, an average fill between random inserts' and a sorted build's is taken as such a mixture
// (index-pages.ts splitSinceBuild; the schema corpus's seed 1, its customer index grown from 307 to 359
// leaves by earlier measurements: 46.5 gets a row measured, 29.5 predicted before).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { assertLogicalWithin, assumptions, labServer, measureLab } from '../support/lab';

const availability = mariadb();

describe('MariaDB: random inserts into a sorted-built index split here and there since', skipUnless(availability), () => {
  // k's index built after the load (every leaf full), then a few committed random keys split some leaves.
  const server = labServer(() => need(availability), '64M', { rows: 100_000, k: 'random', index: true }, [
    "INSERT INTO lab.s (k, c, pad) SELECT FLOOR(1 + RAND(11) * 100000), 'x', 'y' FROM lab.seq_1_to_40",
    'ANALYZE TABLE lab.s',
  ]);

  test('300 random keys: as many splits as full leaves they meet', async () => {
    const report = await measureLab(server(), "INSERT INTO s (k, c, pad) SELECT FLOOR(1 + RAND(5) * 100000), 'n', 'p' FROM seq_1_to_300");
    assert.match(assumptions(report), /lab\.s\.k: each entry lands on a random one of [\d,]+ leaf pages/, 'the premise: random keys');
    const full = /each page as full as one of its ([\d,]+) cached pages, ([\d,]+) of them full/.exec(assumptions(report));
    assert.ok(full, 'the cached pages gave the fills');
    assert.ok(Number(full[2]) > 20 && Number(full[2]) < Number(full[1].replace(/,/g, '')) - 20, `full and half-full pages both: ${full[0]}`);
    assertLogicalWithin(report, '300 random keys');
  });
});
