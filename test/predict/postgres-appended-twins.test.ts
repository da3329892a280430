// An INSERT … SELECT of keys past an index's largest, run again in the same measurement, on real servers
// (PostgreSQL 15 and 18): the statement gives the keys, so run 2 inserts the keys run 1 inserted and rolled
// back. Each new entry goes beside its dead twin at the index's end, and the right-most leaf's cached block
// passes the fast path's check only for the entries whose twins lie in that leaf: the others descend from
// the root. Which those are follows from where run 1's splits left its entries (the build's last leaf's
// fill), which no view shows: the band spans the fast path for every entry and a descent for every entry.
// Measured here on 1,000 rows: the index took 1,030 requests on run 1 and 2,877 on run 2. Before, runs 2-3
// were predicted with the fast path alone and the band did not hold them (schema corpus, seed 103 at
// 150 MiB cold, run 2: 11,510 requests measured, 10,679 predicted).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { need, skipUnless, type Availability, postgresServers } from '../support/engines';
import { measurePg } from '../support/pg-lab';
import { pgQuery } from '../support/sql';

const TABLE = [
  'CREATE TABLE o (id int PRIMARY KEY, amount int NOT NULL)',
  // Enough rows for a three-level key: the fast path caches the right-most leaf only from three levels.
  'INSERT INTO o SELECT g, g % 997 FROM generate_series(1, 200000) g',
  'VACUUM ANALYZE o',
];
const INSERT = 'INSERT INTO o SELECT id + 200000, amount FROM o WHERE id BETWEEN 5001 AND 6000';

async function appendedAgain(availability: Availability<PostgresBinaries>): Promise<void> {
  const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '64MB', autovacuum: false } });
  try {
    for (const q of TABLE) await pgQuery(server.url(), q);
    const report = await measurePg(server, INSERT);
    const [first, ...later] = report.runs;
    const m1 = first.measured.logicalReads!;
    assert.ok(Math.abs(first.predicted.logicalReads! - m1) <= 0.05 * m1, `run 1: ${m1} requests measured, ${first.predicted.logicalReads} predicted`);
    for (const run of later) {
      const m = run.measured.logicalReads!;
      assert.ok(m > m1 + 1000, `the premise: run ${run.run} made ${m} requests, run 1 ${m1}`);
      const range = run.predictedRange;
      const note = `run ${run.run}: ${m} requests measured, ${run.predicted.logicalReads} predicted, band ${range?.low.logicalReads}-${range?.high.logicalReads}`;
      assert.ok(range && range.low.logicalReads! <= m && m <= range.high.logicalReads!, note);
      assert.match(run.prediction!.assumptions.join('\n'), /beside the previous run's dead twin/);
    }
  } finally {
    await server.stop();
  }
}

for (const [name, availability] of postgresServers()) {
  describe(`an INSERT … SELECT of keys past the largest, run again after its rollback: ${name}`, skipUnless(availability), () => {
    test("runs 2-3: each entry beside run 1's dead twin, the band from the fast path to a descent each holds them", () => appendedAgain(availability));
  });
}
