// A rolled-back UPDATE's later runs, on real servers (PostgreSQL 15 and 18): each run's scan of the date index
// meets the previous run's new versions through their entries. Entries of one key are in heap order (the heap
// TID breaks ties, PostgreSQL 12 on), so a date's 50 rows are visited on their own pages first and the
// versions the previous run appended past the table's end after them, a few pages a date. The prediction had
// put each dead version between two live rows, out to its page and back: two requests a row more than the
// server made. Entries a key come from the index's distinct values (pg_stats.n_distinct).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { need, skipUnless, type Availability, postgresServers } from '../support/engines';
import { measurePg } from '../support/pg-lab';
import { pgQuery } from '../support/sql';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const TABLE = [
  'CREATE TABLE o (id int PRIMARY KEY, placed int NOT NULL, amount int NOT NULL, pad text NOT NULL)',
  // Dates in insertion order, 50 rows each; full pages (fillfactor 100), so every new version moves.
  "INSERT INTO o SELECT g, g / 50, g % 997, repeat('x', 60) FROM generate_series(1, 200000) g",
  'CREATE INDEX o_placed ON o (placed)',
  'VACUUM ANALYZE o',
];
const UPDATE = 'UPDATE o SET amount = amount + 1 WHERE placed BETWEEN 1000 AND 1019';

interface Relation {
  reportName: string;
  leadingDistinct?: number;
}

async function deadVersionsByKey(availability: Availability<PostgresBinaries>): Promise<void> {
  const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', autovacuum: false } });
  try {
    for (const q of TABLE) await pgQuery(server.url(), q);
    let input: PredictFixtureInput | undefined;
    const report = await measurePg(server, UPDATE, { onPredictionInput: (i) => (input = i) });
    assert.ok(input, 'the prediction input was handed over');
    const facts = input.facts as { relations: Relation[] };
    assert.ok((facts.relations.find((r) => r.reportName === 'o_placed')?.leadingDistinct ?? 0) > 3_000, 'the date index counts its distinct values');
    const relations = facts.relations.map(({ leadingDistinct: _dropped, ...r }) => r);
    const before = predictFixture({ ...input, facts: { ...facts, relations } }, { whatIf: false });
    for (const k of [1, 2]) {
      const m = report.runs[k].measured.logicalReads ?? 0;
      const now = report.runs[k].predicted.logicalReads ?? 0;
      const old = before.runs[k].predicted.logicalReads ?? 0;
      const note = `run ${k + 1}: ${m} logical reads, ${old} predicted with each dead version between two live rows, ${now} a key's after its live rows`;
      console.log(note);
      assert.ok(old - m > 0.1 * m, `the premise: out and back for each over-predicts. ${note}`);
      assert.ok(Math.abs(now - m) <= 0.05 * m, note);
    }
  } finally {
    await server.stop();
  }
}

for (const [name, availability] of postgresServers()) {
  describe(`a key's dead versions after its live rows: ${name}`, skipUnless(availability), () => {
    test("a range UPDATE's runs 2-3 meet the previous run's versions after each date's live rows", () => deadVersionsByKey(availability));
  });
}
