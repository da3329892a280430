// Prediction against measurement on a real MariaDB server.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../support/engines';
import { mariadbScenarios } from '../accuracy/scenarios';

const availability = mariadb();

describe('prediction accuracy: MariaDB', skipUnless(availability), () => {
  test('a cold full scan: synchronous reads, read-ahead and residency within 3 % per run', async () => {
    const results = await mariadbScenarios(need(availability));
    assert.equal(results.length, 2);
    for (const r of results) {
      assert.ok(r.rows.length >= 9, r.name);
      for (const row of r.rows) assert.ok(row.error <= row.tolerance, `${r.name}, run ${row.run}, ${row.metric}: measured ${row.measured}, predicted ${row.predicted}`);
    }
  });
});
