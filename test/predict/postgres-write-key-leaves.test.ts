// Writes whose rows share a few stretches of another index, on real servers (PostgreSQL 15 and 18). A range
// UPDATE's rows move off their full pages (fillfactor 100), so each new version takes an entry in every
// index, beside the old one where the key did not change; an INSERT … SELECT of the same rows under new
// sequence numbers puts one beside each customer's others. The rows of one date range here belong to 45
// customers (the customer id follows the date's residue), so their entries in the (cust_id, seq) key fall
// on a few leaves; a random leaf a row had spread them over most of the index. After the runs, each written
// row's position along each index is read from the leading column's statistics (key-positions.ts), and the
// entries go to the leaves those positions give.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { need, skipUnless, type Availability, postgresServers } from '../support/engines';
import { measurePg } from '../support/pg-lab';
import { pgQuery } from '../support/sql';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const TABLE = [
  // The residency before run 1, buffer by buffer: what a re-measurement finds.
  'CREATE EXTENSION pg_buffercache',
  'CREATE TABLE o (cust_id int NOT NULL, seq int NOT NULL, placed int NOT NULL, amount int NOT NULL, code int NOT NULL, pad text, PRIMARY KEY (cust_id, seq))',
  // Rows inserted in date order, so the key's leaves are split as random inserts split them.
  'INSERT INTO o SELECT g % 5000, g, g % 1000, g % 997, (g * 7919) % 1000003, repeat(\'x\', 80) FROM generate_series(1, 200000) g',
  'CREATE UNIQUE INDEX o_code ON o (code)',
  'CREATE INDEX o_placed ON o (placed)',
  'VACUUM ANALYZE o',
];
const UPDATE = 'UPDATE o SET amount = amount + 1 WHERE placed BETWEEN 748 AND 756';
const INSERT = 'INSERT INTO o SELECT cust_id, seq + 200000, placed, amount, code + 1000003, pad FROM o WHERE placed BETWEEN 748 AND 756';

const read = (r: { measured: { physicalReads: number | null } }) => r.measured.physicalReads ?? 0;

async function keyLeaves(availability: Availability<PostgresBinaries>, sql: string, placed: string[]): Promise<void> {
  const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', autovacuum: false } });
  try {
    for (const q of TABLE) await pgQuery(server.url(), q);
    await server.restart();
    let input: PredictFixtureInput | undefined;
    const report = await measurePg(server, sql, { onPredictionInput: (i) => (input = i) });
    assert.ok(input, 'the prediction input was handed over');
    const settings = (input.facts as { settings: { writtenKeyPositions?: Record<string, number[]> } }).settings;
    const positions = settings.writtenKeyPositions ?? {};
    assert.deepEqual(Object.keys(positions).sort(), placed, 'the indexes whose keys were placed');
    assert.equal(positions.o_pkey.length, 1_800);
    const { writtenKeyPositions: _dropped, ...without } = settings;
    const before = predictFixture({ ...input, facts: { ...(input.facts as object), settings: without } }, { whatIf: false });
    const run1 = report.runs[0];
    const m = read(run1);
    const now = run1.predicted.physicalReads ?? 0;
    const old = before.runs[0].predicted.physicalReads ?? 0;
    const note = `run 1: ${m} pages read, ${old} predicted with random leaves, ${now} with the keys' leaves`;
    console.log(note);
    assert.ok(old - m > 0.2 * m, `the premise: random leaves over-predict. ${note}`);
    assert.ok(Math.abs(now - m) <= 0.05 * m, note);
    assert.match(run1.prediction!.assumptions.join('\n'), /to the leaf its key lies on/);
    await measuredAgain(server, sql, report);
  } finally {
    await server.stop();
  }
}

/**
 * Measured again at once, handed the earlier report as the editor hands it from its history: run 1 meets the
 * pages the earlier runs left, which the residency shows under the server's block numbers, and the leaves
 * the model places by key under its own; those take the places of the relation's cached pages.
 */
async function measuredAgain(server: LocalPostgres, sql: string, earlier: Awaited<ReturnType<typeof measurePg>>): Promise<void> {
  const report = await measurePg(server, sql, { earlier });
  const run1 = report.runs[0];
  const m = read(run1);
  const note = `measured again, run 1: ${m} pages read, ${run1.predicted.physicalReads} predicted`;
  console.log(note);
  assert.ok(m <= 0.05 * read(earlier.runs[0]), `the premise: the earlier runs left the pages cached. ${note}`);
  assert.ok(Math.abs((run1.predicted.physicalReads ?? 0) - m) <= Math.max(2, 0.05 * m), note);
  assert.match(run1.prediction!.assumptions.join('\n'), /ran it 3 time\(s\) just before/);
  // A range UPDATE's later runs scan, beside its rows' blocks, those holding only the rolled-back versions
  // of every run before (their entries in the date index lead there): the table's last blocks, cached.
  // Spread over the table, they had been 57 and 67 pages predicted where none were read.
  if (sql !== UPDATE) return;
  const later = report.runs.slice(1).map((r) => ({ m: read(r), p: r.predicted.physicalReads ?? 0 }));
  assert.ok(later.every((r) => r.m <= 5) && later.reduce((a, r) => a + r.p, 0) <= 25, `runs 2-3 measured again: ${JSON.stringify(later)}`);
}

for (const [name, availability] of postgresServers()) {
  describe(`writes whose rows share a few stretches of another index: ${name}`, skipUnless(availability), () => {
    test("a range UPDATE: each new version's entry goes to the leaf its key lies on, read from the statistics", () =>
      keyLeaves(availability, UPDATE, ['o_code', 'o_pkey', 'o_placed']));
    // The new codes lie past the largest (appended-keys.ts places those): the key and the date index are placed.
    test("an INSERT … SELECT: each row's entry goes to the leaf its key lies on, read from the statistics", () =>
      keyLeaves(availability, INSERT, ['o_pkey', 'o_placed']));
  });
}
