// The rollback of a range UPDATE searches each row's clustered leaf again, newest row first (row_undo_mod):
// in a pool smaller than the rows' leaves those have left the pool since their lookups, and the server reads
// them again. Before, the model took each as cached (the schema corpus's seed 3 at 14 MiB: 4,038 pages read,
// 2,122 predicted, 3,906 now). Real MariaDB: 5,389 pages read in run 1 here, 2,797 predicted before, 5,593 now.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { labServer, measureLab } from '../support/lab';

const availability = mariadb();
const pagesRead = (c: { physicalReads: number | null; readAhead: number | null }) => (c.physicalReads ?? 0) + (c.readAhead ?? 0);

describe('MariaDB: a rolled-back range UPDATE in a pool smaller than its rows leaves', skipUnless(availability), () => {
  // 120,000 rows (about 1,700 leaves) with k drawn at random: a range of k finds its rows on leaves all over the table.
  const server = labServer(() => need(availability), '8M', { rows: 120_000, k: 'random', index: true });

  test('reads the leaves again for the rollback, as predicted', async () => {
    await server().restart();
    const report = await measureLab(server(), 'UPDATE s SET c = REVERSE(c) WHERE k BETWEEN 1000 AND 4000', { runs: 2 });
    for (const r of report.runs) {
      const [measured, predicted] = [pagesRead(r.measured), pagesRead(r.predicted)];
      assert.ok(measured > 4_000, `the premise: run ${r.run} reads the rows' leaves, and most again for the rollback (${measured} pages)`);
      // Run 1 from the restarted pool; run 2 from the simulated state after run 1, which adds its own error
      // (measured here: 5,141 read, 5,384 predicted). Without the rollback's leaves: 2,797 for 5,372.
      const tolerance = r.run === 1 ? 0.05 : 0.1;
      assert.ok(Math.abs(predicted - measured) <= tolerance * measured, `run ${r.run}: ${measured} pages read, ${predicted} predicted`);
    }
  });
});
