// A full scan of a clustered index grown in random key order, with long values stored between its leaves,
// in a pool smaller than the table, measured again at once, on a real MariaDB: run 1 starts from the pool the
// first measurement left. Which leaves are cached the walk reads (INNODB_BUFFER_PAGE_LRU), but not where each
// lies in key order: the long values move the leaves' page numbers off the layout's. The walk gives each
// page's first access, and the leaves one scan read lie along the keys as their reads lie along the scan
// (cached-leaf-order.ts). Before, they took the keys' first places, where the scan meets them before it
// evicts anything (schema corpus, seed 1 at 93 MiB, measured again: 2,850 pages read, 2,089 predicted before,
// 2,620 now). Measured here: 1,760 read, 791 predicted before, 1,360 now; the rest, a quarter, is not yet
// explained (the leaves the layout's numbers do place are still drawn at random places).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { labServer, measureLab } from '../support/lab';
import { pagesRead } from '../accuracy/innodb-corpus';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';
import type { InnodbPredictionSettings } from '../../src/predict/innodb/facts';

const availability = mariadb();

const tables = [
  // One row in 25 with a long value stored off its page, in the leaf segment between the leaves.
  'CREATE TABLE lab.u (id CHAR(32) NOT NULL PRIMARY KEY, n INT NOT NULL, pad CHAR(200) NOT NULL, note TEXT) ENGINE=InnoDB',
  "INSERT INTO lab.u SELECT MD5(seq), seq, RPAD(seq, 200, 'u'), IF(seq % 25 = 0, REPEAT('n', 12000), NULL) FROM lab.seq_1_to_150000",
  'ANALYZE TABLE lab.u',
  // Nothing left for purge to do before the measurements: its page requests would count in run 1.
  'SET GLOBAL innodb_max_purge_lag_wait = 0',
];
const SCAN = "SELECT COUNT(*) FROM u WHERE pad LIKE '%77u%'";

describe('MariaDB: a scan of leaves in random key order, measured again at once', skipUnless(availability), () => {
  const server = labServer(() => need(availability), '64M', { rows: 1_000, k: 'id', index: false }, tables);

  test("run 1 finds the earlier scan's last leaves cached, placed along the keys by their first access: nearer the reads measured", async () => {
    await server().restart();
    await measureLab(server(), SCAN);
    let input: PredictFixtureInput | undefined;
    const report = await measureLab(server(), SCAN, { onPredictionInput: (i) => (input = { ...i, statement: SCAN }) });
    const run1 = pagesRead(report.runs[0].measured)!;
    const scanned = report.runs[0].measured.logicalReads!;
    assert.ok(run1 > 0.2 * scanned && run1 < 0.8 * scanned, `the premise: run 1 reads part of the table (${run1} of ${scanned} pages)`);
    const predicted = pagesRead(report.runs[0].predicted)!;
    // The same pool with no first accesses read: its leaves take the places left, from the keys' start.
    const untimed = structuredClone(input!);
    const seed = (untimed.facts as { settings: InnodbPredictionSettings }).settings.lruSeed!;
    seed.pages = seed.pages.map(([i, p, pos]) => [i, p, pos]);
    const atStart = pagesRead(predictFixture(untimed, { whatIf: false }).runs[0].predicted)!;
    const note = `run 1: ${run1} pages read, ${predicted} predicted, ${atStart} with the cached leaves at the keys' start`;
    assert.ok(Math.abs(predicted - run1) < 0.75 * Math.abs(atStart - run1), note);
  });
});
