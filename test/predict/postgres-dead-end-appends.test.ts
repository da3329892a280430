// Keys past an index's largest live key, inserted after an earlier rolled-back write left dead entries past
// it, on real servers (PostgreSQL 15 and 18). The fast path of _bt_search_insert takes the cached right-most
// leaf only: keys below the earlier write's go to the leaves before it, each by a descent from the root; keys
// past them keep the fast path. After the runs, a scan for keys past the largest inserted one counts the
// leaves of dead entries there (dead-past-inserted.ts), which tells the two apart; without it the dead leaves
// past the live keys (index-height.ts) say only that there are some, and the band spans both. Later runs put
// each entry beside its rolled-back twin, which lies below the earlier write's entries as well.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { need, skipUnless, type Availability, postgresServers } from '../support/engines';
import { measurePg } from '../support/pg-lab';
import { pgQuery } from '../support/sql';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const TABLE = [
  'CREATE TABLE t (id int PRIMARY KEY, pad text NOT NULL)',
  "INSERT INTO t SELECT g, repeat('x', 40) FROM generate_series(1, 200000) g",
  'VACUUM ANALYZE t',
];
/** The earlier write: keys past the live ones, rolled back, their entries left at the index's end. */
const EARLIER = 'INSERT INTO t SELECT id + 1000000, pad FROM t WHERE id BETWEEN 150001 AND 151000';
/** Keys past the live ones too, but below the earlier write's: among its dead entries. */
const BELOW = 'INSERT INTO t SELECT id + 1000000, pad FROM t WHERE id BETWEEN 100001 AND 101000';
/** Keys past the earlier write's as well: the right-most leaf. */
const ABOVE = 'INSERT INTO t SELECT id + 1000000, pad FROM t WHERE id BETWEEN 190001 AND 191000';

interface Facts {
  relations: Array<{ reportName: string; deadEndLeaves?: { first: number; last: number } }>;
  settings: { deadPastInserted?: Record<string, number> };
}

/** Run 1's logical reads as measured, as predicted, and as predicted from the facts `strip` leaves. */
async function run1(server: LocalPostgres, sql: string, strip: (f: Facts) => Facts) {
  let input: PredictFixtureInput | undefined;
  const report = await measurePg(server, sql, { onPredictionInput: (i) => (input = i) });
  assert.ok(input, 'the prediction input was handed over');
  const facts = input.facts as Facts;
  const without = predictFixture({ ...input, facts: strip(facts) }, { whatIf: false });
  const r = report.runs[0];
  return {
    facts,
    measured: r.measured.logicalReads ?? 0,
    predicted: r.predicted.logicalReads ?? 0,
    without: without.runs[0].predicted.logicalReads ?? 0,
    assumptions: r.prediction!.assumptions.join('\n'),
    later: report.runs.slice(1).map((x) => ({ m: x.measured.logicalReads ?? 0, p: x.predicted.logicalReads ?? 0 })),
  };
}

const noDeadPast = (f: Facts): Facts => {
  const { deadPastInserted: _dropped, ...settings } = f.settings;
  return { ...f, settings };
};
const noDeadLeaves = (f: Facts): Facts => ({ ...noDeadPast(f), relations: f.relations.map(({ deadEndLeaves: _dropped, ...r }) => r) });

async function deadEndAppends(availability: Availability<PostgresBinaries>): Promise<void> {
  const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', autovacuum: false } });
  try {
    for (const q of TABLE) await pgQuery(server.url(), q);
    await measurePg(server, EARLIER);

    const below = await run1(server, BELOW, noDeadLeaves);
    const belowNote = `below the earlier keys, run 1: ${below.measured} logical, ${below.without} predicted with the fast path, ${below.predicted} now`;
    console.log(belowNote);
    assert.ok((below.facts.settings.deadPastInserted?.t_pkey ?? 0) > 0, `dead leaves past the inserted keys: ${JSON.stringify(below.facts.settings)}`);
    assert.ok(below.measured - below.without > 0.2 * below.measured, `the premise: the fast path under-predicts. ${belowNote}`);
    assert.ok(Math.abs(below.predicted - below.measured) <= 0.05 * below.measured, belowNote);
    assert.match(below.assumptions, /dead entries past the inserted keys \(counted after the runs\)/);
    // Runs 2-3 put each entry beside its twin, below the earlier write's entries too: a descent each.
    for (const x of below.later) assert.ok(Math.abs(x.p - x.m) <= 0.05 * x.m, `below, runs 2-3: ${JSON.stringify(below.later)}`);

    const above = await run1(server, ABOVE, noDeadPast);
    const aboveNote = `past the earlier keys, run 1: ${above.measured} logical, ${above.without} predicted from the dead leaves alone, ${above.predicted} now`;
    console.log(aboveNote);
    assert.equal(above.facts.settings.deadPastInserted?.t_pkey, 0, 'no dead leaf past the inserted keys');
    assert.ok((above.facts.relations.find((r) => r.reportName === 't_pkey')?.deadEndLeaves?.last ?? 0) > 0, 'dead leaves past the live keys');
    assert.ok(above.without - above.measured > 0.2 * above.measured, `the premise: the guess alone over-predicts. ${aboveNote}`);
    assert.ok(Math.abs(above.predicted - above.measured) <= 0.05 * above.measured, aboveNote);
  } finally {
    await server.stop();
  }
}

for (const [name, availability] of postgresServers()) {
  describe(`appended keys and an earlier write's dead entries past the live ones: ${name}`, skipUnless(availability), () => {
    test('keys below the dead ones descend to the leaves before them; keys past them keep the fast path', () => deadEndAppends(availability));
  });
}
