// Prediction against measurement on a real MariaDB server.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { mariadbInsertScenarios, mariadbScenarios } from '../accuracy/scenarios';

const availability = mariadb();

describe('prediction accuracy: MariaDB', skipUnless(availability), () => {
  test('a cold full scan: synchronous reads, read-ahead and residency within 3 % per run; index lookups within 10 % (where a range starts: 30 %)', async () => {
    const results = await mariadbScenarios(need(availability));
    assert.equal(results.length, 5);
    for (const r of results) {
      assert.ok(r.rows.length >= 6, r.name);
      for (const row of r.rows)
        assert.ok(row.error <= row.tolerance, `${r.name}, run ${row.run}, ${row.metric}: measured ${row.measured}, predicted ${row.predicted}`);
    }
  });

  test('random-key inserts into an index larger than the pool: change buffering on/off reads ratio within 20 %', async () => {
    const [result] = await mariadbInsertScenarios(need(availability));
    const ratios = result.rows.filter((r) => r.metric.startsWith('reads ratio'));
    assert.equal(ratios.length, 2);
    for (const row of result.rows) assert.ok(row.error <= row.tolerance, `run ${row.run}, ${row.metric}: measured ${row.measured}, predicted ${row.predicted}`);
    // Rolled back, the buffered leaves are read by the rollback: about half the reads, not a few.
    for (const r of ratios) assert.ok(r.measured! > 0.3 && r.measured! < 0.8, `measured ratio ${r.measured}`);
    assert.ok(!result.warnings?.some((w) => /something else was reading/.test(w)), 'no false alarm: r_engine_stats does not count written pages');
  });
});
