// Long values InnoDB stores off the rows' pages take pages of the clustered index's leaf segment, which
// n_leaf_pages counts as leaves: a full scan reads only the rows' leaves. Real MariaDB, cold after a restart:
// before, the prediction took every counted page for a leaf (the schema corpus's seed 1: 10,466 pages
// predicted, 5,644 read); the values' lengths, read after the runs, give the pages they take.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../support/engines';
import { mariadbQuery } from '../support/sql';
import { measureLab } from '../support/lab';

const availability = mariadb();

describe('MariaDB: long values stored off the rows pages', skipUnless(availability), () => {
  test('a full scan reads the rows leaves, not the pages the long values take', async () => {
    const server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '64M' } });
    try {
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
      await server.restart();
      const report = await measureLab(server, 'SELECT COUNT(*), SUM(k) FROM t', { runs: 2 });
      const [cold] = report.runs;
      const read = (cold.measured.physicalReads ?? 0) + (cold.measured.readAhead ?? 0);
      const predicted = (cold.predicted.physicalReads ?? 0) + (cold.predicted.readAhead ?? 0);
      const logical = cold.measured.logicalReads ?? 0;
      assert.ok(logical > 200, `the premise: the scan reads the table (${logical} pages)`);
      assert.ok(
        Math.abs((cold.predicted.logicalReads ?? 0) - logical) <= 0.05 * logical,
        `logical ${logical} measured, ${cold.predicted.logicalReads} predicted`,
      );
      assert.ok(Math.abs(predicted - read) <= 0.05 * read, `pages read ${read} measured, ${predicted} predicted`);
      assert.match(cold.prediction!.assumptions.join('\n'), /lab\.t: 4,000 of the [\d,]+ pages its statistics count as leaves hold long values/);
    } finally {
      await server.stop();
    }
  });
});
