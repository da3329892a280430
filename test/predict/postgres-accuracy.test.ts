// Prediction against measurement on real PostgreSQL 15 and 18 servers (the tolerances of docs/accuracy.md).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedPostgres, need, skipUnless, systemPostgres, type Availability } from '../support/engines';
import { postgresScenarios } from '../accuracy/scenarios';
import type { PostgresBinaries } from '../../src/local-server/postgres';

function suite(label: string, availability: Availability<PostgresBinaries>) {
  describe(`prediction accuracy: ${label}`, skipUnless(availability), () => {
    test('seq scans exact per run (parallel rings: run 1 exact, then bounded); index range scans within 5 % on run 1; random-key inserts, an update and a delete within 10 %', async () => {
      const results = await postgresScenarios(need(availability));
      assert.equal(results.length, 9);
      for (const r of results) {
        assert.ok(r.rows.length >= 1, r.name);
        for (const row of r.rows) {
          assert.ok(row.error <= row.tolerance, `${r.name}, run ${row.run}, ${row.metric}: measured ${row.measured}, predicted ${row.predicted}`);
        }
      }
    });
  });
}

suite('installed server', systemPostgres());
suite('embedded PostgreSQL 18', embeddedPostgres());
