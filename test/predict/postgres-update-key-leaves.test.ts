// A range UPDATE whose rows share a few stretches of another index, on real servers (PostgreSQL 15 and 18).
// Every row moves off its full page (fillfactor 100), so each new version takes an entry in every index,
// beside the old one where the key did not change. The rows of one date range here belong to 45 customers
// (the customer id follows the date's residue), so their entries in the (cust_id, seq) key fall on a few
// leaves; a random leaf a row had spread them over most of the index. After the runs, each written row's
// position along each index is read from the leading column's statistics (key-positions.ts), and the
// entries go to the leaves those positions give.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { need, skipUnless, type Availability, postgresServers } from '../support/engines';
import { measurePg } from '../support/pg-lab';
import { pgQuery } from '../support/sql';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const TABLE = [
  'CREATE TABLE o (cust_id int NOT NULL, seq int NOT NULL, placed int NOT NULL, amount int NOT NULL, code int NOT NULL, pad text, PRIMARY KEY (cust_id, seq))',
  // Rows inserted in date order, so the key's leaves are split as random inserts split them.
  'INSERT INTO o SELECT g % 5000, g, g % 1000, g % 997, (g * 7919) % 1000003, repeat(\'x\', 80) FROM generate_series(1, 200000) g',
  'CREATE UNIQUE INDEX o_code ON o (code)',
  'CREATE INDEX o_placed ON o (placed)',
  'VACUUM ANALYZE o',
];
const UPDATE = 'UPDATE o SET amount = amount + 1 WHERE placed BETWEEN 748 AND 756';

const read = (r: { measured: { physicalReads: number | null } }) => r.measured.physicalReads ?? 0;

async function keyLeaves(availability: Availability<PostgresBinaries>): Promise<void> {
  const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', autovacuum: false } });
  try {
    for (const q of TABLE) await pgQuery(server.url(), q);
    await server.restart();
    let input: PredictFixtureInput | undefined;
    const report = await measurePg(server, UPDATE, { onPredictionInput: (i) => (input = i) });
    assert.ok(input, 'the prediction input was handed over');
    const settings = (input.facts as { settings: { writtenKeyPositions?: Record<string, number[]> } }).settings;
    const positions = settings.writtenKeyPositions ?? {};
    assert.deepEqual(Object.keys(positions).sort(), ['o_code', 'o_pkey', 'o_placed'], 'every index of the table was placed');
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
    assert.match(run1.prediction!.assumptions.join('\n'), /goes to the leaf its key lies on/);
  } finally {
    await server.stop();
  }
}

for (const [name, availability] of postgresServers()) {
  describe(`a range UPDATE whose rows share a few stretches of another index: ${name}`, skipUnless(availability), () => {
    test("each new version's entry goes to the leaf its key lies on, read from the statistics", () => keyLeaves(availability));
  });
}
