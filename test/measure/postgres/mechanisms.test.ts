// Mechanisms the model follows, each checked against a real server, on PostgreSQL 15 (a descent per array
// key) and 18 (keys on the leaf in hand read without one): an `= ANY` list (of integers, and of UUIDs, which
// cannot be placed by value), and a partitioned table whose pruned partitions and their indexes are read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres, type PostgresBinaries } from '../../../src/local-server/postgres';
import { embeddedPostgres, need, skipUnless, systemPostgres, type Availability } from '../../support/engines';
import { pgQuery as sql } from '../../support/sql';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';
import type { Report } from '../../../src/shared/report';

/** Logical and physical reads, measured and predicted, per run: [logical, predicted logical, read, predicted read]. */
const same = (r: Report) => r.runs.map((x) => [x.measured.logicalReads, x.predicted.logicalReads, x.measured.physicalReads, x.predicted.physicalReads]);

/**
 * A private server for the suite it is called in, set up by `statements` before its tests and stopped
 * after them, and `run`: a statement measured on it twice, as found.
 */
function pgLab(availability: Availability<PostgresBinaries>, sharedBuffers: string, statements: string[]) {
  let server: LocalPostgres | undefined;
  before(async () => {
    server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: sharedBuffers } });
    for (const s of statements) await sql(server.url(), s);
  });
  after(async () => server?.stop());
  const url = () => server!.url();
  const run = (statement: string): Promise<Report> =>
    measure(parseConnectionUrl(url()), { sql: statement, runs: 2, cold: 'no', commit: false, timing: false, timeoutMs: 30_000, whatIf: false });
  return { url, run };
}

for (const [label, availability] of [
  ['PostgreSQL 15', systemPostgres()],
  ['PostgreSQL 18', embeddedPostgres()],
] as const) {
  describe(`${label}: mechanisms the prediction follows`, skipUnless(availability), () => {
    const { run } = pgLab(availability, '32MB', [
      'CREATE EXTENSION pg_buffercache',
      'CREATE TABLE t (id int PRIMARY KEY, v int, pad text)',
      "INSERT INTO t SELECT g, g % 100, repeat('x', 100) FROM generate_series(1, 100000) g",
      'VACUUM ANALYZE t',
      'CREATE TABLE p (id int, d date, pad text) PARTITION BY RANGE (d)',
      "CREATE TABLE p1 PARTITION OF p FOR VALUES FROM ('2026-01-01') TO ('2026-02-01')",
      "CREATE TABLE p2 PARTITION OF p FOR VALUES FROM ('2026-02-01') TO ('2026-03-01')",
      "INSERT INTO p SELECT g, date '2026-01-01' + (g % 59), repeat('y', 100) FROM generate_series(1, 50000) g",
      'CREATE INDEX ON p (d)',
      'VACUUM ANALYZE p',
    ]);

    test('an IN list reads a descent per key (per leaf from 17), keys far apart and keys on one leaf', async () => {
      for (const statement of [
        'SELECT v FROM t WHERE id IN (5, 500, 5000, 50000, 70000, 90000)',
        'SELECT v FROM t WHERE id IN (101, 102, 103, 104, 105, 106, 107, 108)',
      ]) {
        const r = await run(statement);
        assert.match(r.runs[0].plan?.children[0]?.indexCond ?? r.runs[0].plan?.indexCond ?? '', /= ANY/, 'the premise: one index scan over the array');
        for (const [measured, predicted] of same(r)) assert.equal(predicted, measured, `${statement}: ${JSON.stringify(same(r))}`);
        assert.ok(r.runs[0].prediction!.assumptions.some((a) => /= ANY over \d+ keys/.test(a)));
      }
    });

    test('a partitioned table is read through its pruned partitions and their indexes, never predicted as 0', async () => {
      const r = await run("SELECT count(*) FROM p WHERE d < '2026-01-15'");
      assert.deepEqual(r.runs[0].prediction!.unmodelled, []);
      for (const [measured, predicted, mPhys, pPhys] of same(r)) {
        assert.ok(measured! > 0);
        assert.equal(predicted, measured, JSON.stringify(same(r)));
        assert.equal(pPhys, mPhys, JSON.stringify(same(r)));
      }
      assert.ok(
        r.runs[0].residency.some((x) => x.relation === 'p1_d_idx'),
        JSON.stringify(r.runs[0].residency.map((x) => x.relation)),
      );
    });
  });

  // A server of its own: its table would change what the tests above find cached.
  describe(`${label}: an IN list of UUID keys`, skipUnless(availability), () => {
    const { url, run } = pgLab(availability, '32MB', [
      'CREATE EXTENSION pg_buffercache',
      'CREATE TABLE u (id uuid PRIMARY KEY, pad text)',
      "INSERT INTO u SELECT md5(g::text)::uuid, repeat('z', 100) FROM generate_series(1, 60000) g",
      'VACUUM ANALYZE u',
    ]);

    test('an IN list of UUID keys, which cannot be placed by value, still reads a descent per key, through a root that holds every leaf (the index grew by inserts)', async () => {
      const keys = (await sql<{ id: string }>(url(), 'SELECT id FROM u ORDER BY md5(id::text) LIMIT 40')).map((x) => x.id);
      const r = await run(`SELECT pad FROM u WHERE id IN (${keys.map((k) => `'${k}'`).join(', ')})`);
      const cond = JSON.stringify(r.runs[0].plan);
      assert.match(cond, /= ANY \('\{[0-9a-f-]{36},/, 'the premise: one index scan over the array');
      for (const [measured, predicted] of same(r)) assert.ok(Math.abs(predicted! - measured!) <= 0.05 * measured!, JSON.stringify(same(r)));
      assert.ok(r.runs[0].prediction!.assumptions.some((a) => /= ANY over 40 keys, .* of 2 level\(s\)/.test(a)));
    });
  });

  // A server of its own: the table fills much of its pool, which would change what the tests above find cached.
  describe(`${label}: a range re-measured as found`, skipUnless(availability), () => {
    const { run } = pgLab(availability, '64MB', [
      'CREATE EXTENSION pg_buffercache',
      'CREATE TABLE o (id int, d date, note text)',
      "INSERT INTO o SELECT g, date '2020-01-01' + g / 1000, repeat('n', 100) FROM generate_series(1, 200000) g",
      'CREATE INDEX o_d ON o (d)',
      // A sample as large as the table: ANALYZE then sees every row, so where the statistics put the first
      // key is the same on every run (a sampled histogram moves it by a leaf either way).
      'ALTER TABLE o ALTER d SET STATISTICS 1000',
      'VACUUM ANALYZE o',
    ]);

    test('a range re-measured as found starts where the column statistics put its first key: the leaves and the root it reads are cached, so none is predicted read', async () => {
      const range = "SELECT sum(length(note)) FROM o WHERE d BETWEEN '2020-02-01' AND '2020-02-10'";
      await run(range);
      const r = await run(range);
      const first = r.runs[0];
      assert.equal(first.cold, false);
      assert.equal(first.measured.physicalReads, 0, 'the premise: everything it reads is cached');
      assert.ok(
        first.prediction!.assumptions.some((a) => /o_d: the scan starts 1[4-6] % along the leaves, where the column's statistics put its first key/.test(a)),
        first.prediction!.assumptions.join('\n'),
      );
      // Started at the first leaf, the 9 leaves it reads were all predicted read; the root of its two-level
      // index is block 3, after the first two leaves (geometry.ts), and cached too.
      assert.equal(first.predicted.physicalReads, 0, JSON.stringify(same(r)));
      const index = first.residency.find((x) => x.relation === 'o_d')!;
      assert.equal(index.predictedAfter, index.cachedAfter, JSON.stringify(index));
    });
  });
}
