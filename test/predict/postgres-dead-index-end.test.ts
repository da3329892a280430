// A scan from an end of an index after a rolled-back write of new keys, on real servers (PostgreSQL 15 and
// 18): the write's entries stay past the live keys until VACUUM, and a scan from that end walks their leaves
// before its first live entry, each a request however many of the entries an earlier scan marked dead. No
// statistic tells how many such leaves there are; a descent after the runs for keys past the last live one
// counts them (index-height.ts). Before, the latest rows by date after a rolled-back INSERT … SELECT of new
// dates were predicted without them (schema corpus, seed 101 at 205 MiB, every run: 70 requests measured,
// 61 predicted).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { need, skipUnless, type Availability, postgresServers } from '../support/engines';
import { measurePg } from '../support/pg-lab';
import { pgQuery } from '../support/sql';
import type { PgRelationFacts } from '../../src/predict/postgres/facts';

const TABLE = [
  'CREATE EXTENSION pageinspect',
  'CREATE TABLE o (id int PRIMARY KEY, placed int NOT NULL, amount int NOT NULL, pad char(80) NOT NULL)',
  "INSERT INTO o SELECT g, g / 100, g % 997, 'p' FROM generate_series(1, 60000) g",
  'CREATE INDEX o_placed ON o (placed)',
  'VACUUM ANALYZE o',
];

/** Leaves of the index whose every entry is marked dead (pageinspect), after a scan from the end marked them. */
async function deadLeaves(url: string): Promise<number> {
  const [r] = await pgQuery<{ n: string }>(
    url,
    `SELECT count(*) AS n FROM (
       SELECT b FROM generate_series(1, pg_relation_size('o_placed') / 8192 - 1) b, bt_page_stats('o_placed', b::int) s,
              bt_page_items('o_placed', b::int) i
        WHERE s.type = 'l' AND (s.btpo_next = 0 OR i.itemoffset > 1)
        GROUP BY b HAVING bool_and(i.dead)) d`,
  );
  return Number(r.n);
}

async function latestAfterRolledBackInsert(availability: Availability<PostgresBinaries>): Promise<void> {
  const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '64MB', autovacuum: false } });
  try {
    for (const q of TABLE) await pgQuery(server.url(), q);
    // New dates past every live one, rolled back as every measurement of a write is.
    await measurePg(server, 'INSERT INTO o SELECT id + 60000, placed + 700, amount, pad FROM o WHERE id <= 6000');
    let facts: PgRelationFacts[] = [];
    const report = await measurePg(server, 'SELECT amount FROM o ORDER BY placed DESC LIMIT 1', {
      onPredictionInput: (i) => (facts = (i.facts as { relations: PgRelationFacts[] }).relations),
    });
    const past = await deadLeaves(server.url());
    assert.ok(past >= 10, `the premise: ${past} leaves hold only the rolled-back keys`);
    const counted = facts.find((f) => f.reportName === 'o_placed')?.deadEndLeaves?.last;
    assert.ok(counted !== undefined && Math.abs(counted - past) <= 1, `dead leaves at the end: ${counted} counted, ${past} by pageinspect`);
    for (const run of report.runs.slice(1)) {
      const m = run.measured.logicalReads!;
      const p = run.predicted.logicalReads!;
      assert.ok(m > past, `the premise: run ${run.run} made ${m} requests`);
      assert.ok(Math.abs(p - m) <= 0.05 * m, `run ${run.run}: ${m} requests measured, ${p} predicted`);
    }
  } finally {
    await server.stop();
  }
}

for (const [name, availability] of postgresServers()) {
  describe(`a scan from the index's end after a rolled-back write of new keys: ${name}`, skipUnless(availability), () => {
    test('walks the leaves of dead entries past the live keys, counted after the runs: runs 2-3 within 5 %', () => latestAfterRolledBackInsert(availability));
  });
}
