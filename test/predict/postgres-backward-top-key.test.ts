// A backward LIMIT scan over rows a table-wide update moved, on real servers (PostgreSQL 15 and 18). A key's
// index entries are in heap order, so a backward scan meets a key's highest heap positions first: the rows'
// new versions, which the update appended past the table's end, before their dead versions in the pages as
// loaded. The latest 100 rows of a day whose every row grew are all new versions and the scan stops within
// that day: it meets none of the dead versions (73 logical reads measured, 74 predicted, 158 with one a row). Before, it was taken to meet one a row (the schema corpus's
// seed 1 grown state: 123 logical reads measured on every run, 206 predicted).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { pgQuery } from '../support/sql';
import { measurePg } from '../support/pg-lab';
import { assertRunsWithin } from '../support/runs';

const LATEST = 'SELECT d, pad FROM t ORDER BY d DESC LIMIT 100';

for (const [name, availability] of postgresServers()) {
  describe(`a backward LIMIT scan over moved rows: ${name}`, skipUnless(availability), () => {
    test('every run within 5 %, no dead version met; the band still spans one a row', async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', autovacuum: false } });
      try {
        for (const q of [
          'CREATE EXTENSION IF NOT EXISTS pg_buffercache',
          'CREATE TABLE t (id int PRIMARY KEY, d int NOT NULL, pad text NOT NULL)',
          `INSERT INTO t SELECT g, abs(hashint4(g)) % 60, repeat('x', 200) FROM generate_series(1, 30000) g`,
          'CREATE INDEX t_d ON t (d)',
          'VACUUM ANALYZE',
          // Two thirds of the rows, every row of two days in three (59 the latest), grown: no room on their full pages, so moved to new ones.
          `UPDATE t SET pad = pad || repeat('y', 100) WHERE d % 3 <> 0`,
          'ANALYZE',
          'CHECKPOINT',
        ])
          await pgQuery(server.url(), q);
        await server.restart();
        const report = await measurePg(server, LATEST);
        assert.match(JSON.stringify(report.runs[0].plan), /"nodeType":"Index Scan"/);
        assertRunsWithin(report, 'latest rows');
        const high = report.runs[0].predictedRange?.high.logicalReads ?? 0;
        const measured = report.runs[0].measured.logicalReads!;
        assert.ok(high > 1.5 * measured, `the band's other alternative, a dead version a row, predicts ${high} logical reads, ${measured} measured`);
      } finally {
        await server.stop();
      }
    });
  });
}
