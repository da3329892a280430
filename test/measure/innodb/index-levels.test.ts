// Each index's levels, counted after the runs on a real MariaDB by a descent to its first entry (r_engine_stats of
// a covering ORDER BY … LIMIT 1), checked against the pages a full read of each index leaves in the pool: an
// index of L levels over n leaves holds n + (its node pages), and a 2-level one exactly one node page.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../../support/engines';
import { labServer } from '../../support/lab';
import { mariadbQuery } from '../../support/sql';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';
import type { InnodbRunInput } from '../../../src/predict/innodb/facts';

const availability = mariadb();

describe('MariaDB: index levels counted after the runs', skipUnless(availability), () => {
  // sysbench's shape: 150,000 rows, the clustered index 3 levels high, k built sorted, 2.
  const server = labServer(() => need(availability), '128M', { rows: 150_000, k: 'random', index: true });

  test('the count gives 3 levels for the clustered index and 2 for k, as the pool shows their node pages', async () => {
    let run: InnodbRunInput | undefined;
    await measure(parseConnectionUrl(server().url('lab')), {
      sql: 'SELECT COUNT(*) FROM s WHERE k BETWEEN 100 AND 200',
      runs: 1,
      cold: 'no',
      commit: false,
      timing: false,
      timeoutMs: 60_000,
      whatIf: false,
      onPredictionInput: (i) => (run = (i.runs as InnodbRunInput[])[0]),
    });
    assert.deepEqual(run?.indexLevels, { 'lab.s': 3, 'lab.s.k': 2 });
    // Independently: every page of both indexes read, then counted in the pool by kind.
    await mariadbQuery(server().port, 'SELECT COUNT(*) FROM lab.s FORCE INDEX (k) WHERE k >= 0');
    await mariadbQuery(server().port, 'SELECT COUNT(*) FROM lab.s FORCE INDEX (PRIMARY) WHERE c <> ""');
    const pages = await mariadbQuery<{ i: string; n: string }>(
      server().port,
      `SELECT INDEX_NAME AS i, COUNT(*) AS n FROM information_schema.INNODB_BUFFER_PAGE
        WHERE TABLE_NAME = '\`lab\`.\`s\`' AND PAGE_TYPE = 'INDEX' GROUP BY INDEX_NAME`,
    );
    const stats = await mariadbQuery<{ i: string; v: string }>(
      server().port,
      "SELECT index_name AS i, stat_value AS v FROM mysql.innodb_index_stats WHERE database_name = 'lab' AND table_name = 's' AND stat_name = 'n_leaf_pages'",
    );
    const nodes = (name: string) => Number(pages.find((p) => p.i === name)!.n) - Number(stats.find((s) => s.i === name)!.v);
    assert.equal(nodes('k'), 1, 'k: its root alone above the leaves');
    assert.ok(nodes('PRIMARY') > 1, `PRIMARY: ${nodes('PRIMARY')} node pages, a level between the root and the leaves`);
  });
});
