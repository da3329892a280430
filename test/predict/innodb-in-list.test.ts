// IN lists on InnoDB: one range per value, each searched from the root and, below eq_range_index_dive_limit
// values on a non-unique index, estimated by a dive of its own; a secondary index read in key order for
// rows it does not cover, each row then looked up in the clustered index; and the dives of ranges the
// optimizer estimates and does not use. Real MariaDB; before, an IN list
// was taken as one contiguous range (20 primary-key values: 6 pages predicted, 60 measured) and the
// index scan's lookups were left out.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { labServer, measureLab } from '../support/lab';
import type { RunReport } from '../../src/shared/report';

const availability = mariadb();
const within = (measured: number, predicted: number, share = 0.05) => Math.abs(measured - predicted) <= Math.max(1, share * measured);
const spread = (n: number, step: number, mod: number) => Array.from({ length: n }, (_, i) => 1 + ((i * step) % mod)).join(', ');

function logicalWithin(runs: RunReport[], share = 0.05): void {
  for (const r of runs)
    assert.ok(
      within(r.measured.logicalReads!, r.predicted.logicalReads!, share),
      `run ${r.run} logical: ${r.measured.logicalReads} measured, ${r.predicted.logicalReads} predicted`,
    );
}

describe('MariaDB: IN lists and index scans that look rows up', skipUnless(availability), () => {
  const server = labServer(() => need(availability), '32M', { rows: 100_000, k: 'random', kMax: 25_000, index: true });

  test('20 primary-key values: a descent each, no dive (one row of a unique key each)', async () => {
    const report = await measureLab(server(), `SELECT c FROM s WHERE id IN (${spread(20, 4999, 100_000)})`, { runs: 2 });
    logicalWithin(report.runs);
    assert.ok(report.runs[1].measured.logicalReads! >= 40, `the premise: a descent per value (${report.runs[1].measured.logicalReads} pages)`);
    assert.match(
      report.runs[0].prediction!.assumptions.join('\n'),
      /IN list of 20 values on id: 20 ranges, each a descent from the root \(one row of a unique key each: no dive\)/,
    );
  });

  test('20 values of a secondary index, covering and not: a dive and a descent per value, then the rows looked up', async () => {
    for (const sql of [`SELECT COUNT(*) FROM s WHERE k IN (${spread(20, 1201, 25_000)})`, `SELECT c FROM s WHERE k IN (${spread(20, 1201, 25_000)})`]) {
      const report = await measureLab(server(), sql, { runs: 2 });
      logicalWithin(report.runs);
      assert.match(
        report.runs[0].prediction!.assumptions.join('\n'),
        /IN list of 20 values on k: 20 ranges, each a descent from the root and a dive of its own/,
      );
    }
  });

  test('at eq_range_index_dive_limit values the ranges are estimated from statistics: no dives', async () => {
    const report = await measureLab(server(), `SELECT COUNT(*) FROM s WHERE k IN (${spread(200, 113, 25_000)})`, { runs: 2 });
    logicalWithin(report.runs);
    assert.match(report.runs[0].prediction!.assumptions.join('\n'), /200 ≥ eq_range_index_dive_limit 200: estimated from statistics, no dive/);
  });

  test('a LIMIT over an IN list stops in the range it reached, fetching rows singly in each (no prefetch past 4 rows of one range)', async () => {
    const report = await measureLab(server(), 'SELECT c FROM s WHERE k IN (5, 7, 9) ORDER BY k LIMIT 5', { runs: 2 });
    logicalWithin(report.runs, 0.1);
  });

  test('the dive of a range the optimizer does not use is read too', async () => {
    // k's range is chosen; the primary key's, estimated first, spans some 700 leaves: its two paths and 9 leaves between.
    const report = await measureLab(server(), 'SELECT c FROM s WHERE k BETWEEN 100 AND 200 AND id BETWEEN 1000 AND 50000', { runs: 2 });
    logicalWithin(report.runs);
    assert.match(
      report.runs[0].prediction!.assumptions.join('\n'),
      /lab\.s: the optimizer's dive for the range on id, estimated while optimising and not used/,
    );
  });

  test('ORDER BY … LIMIT through a secondary index that does not cover: every row read is looked up', async () => {
    const report = await measureLab(server(), 'SELECT c FROM s ORDER BY k LIMIT 40', { runs: 2 });
    logicalWithin(report.runs, 0.1);
    assert.match(report.runs[0].prediction!.assumptions.join('\n'), /not covering: each of the 40 rows read is looked up in lab\.s/, 'LIMIT 40 ends a fill of 9 rows (4 + 4 × 9)');
  });
});

