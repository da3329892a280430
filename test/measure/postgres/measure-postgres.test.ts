// PostgreSQL measurement against real private servers: the tool's numbers must equal the engine's own.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pgQuery } from '../../support/sql';
import { LocalPostgres, type PostgresBinaries } from '../../../src/local-server/postgres';
import { embeddedPostgres, need, skipUnless, systemPostgres, type Availability } from '../../support/engines';
import { cli, measureJson } from '../../support/cli';
import { validateReport } from '../../support/report-schema';

// 16 MB of shared buffers: NBuffers = 2048, the ring threshold NBuffers/4 = 512 blocks, BULKREAD ring 32.
const SETTINGS = { shared_buffers: '16MB', max_parallel_workers_per_gather: 0 };
const BIG_ROWS = 36_000; // ≈ 1,200 blocks: above NBuffers/4
const SMALL_ROWS = 12_000; // ≈ 400 blocks: below

const sql = pgQuery;

async function cachedBlocks(url: string, rel: string): Promise<number> {
  const [r] = await sql<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM pg_buffercache WHERE relfilenode = pg_relation_filenode($1::regclass) AND relforknumber = 0
        AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [rel],
  );
  return r.n;
}

async function explainBuffers(url: string, statement: string): Promise<{ hit: number; read: number }> {
  const [r] = await sql<{ 'QUERY PLAN': Array<{ Plan: Record<string, number> }> }>(url, `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement}`);
  const p = r['QUERY PLAN'][0].Plan;
  return { hit: p['Shared Hit Blocks'], read: p['Shared Read Blocks'] };
}

function suite(label: string, availability: Availability<PostgresBinaries>) {
  describe(`PostgreSQL measurement: ${label}`, skipUnless(availability), () => {
    let server: LocalPostgres;
    let url: string;
    let bigPages: number;
    let smallPages: number;

    before(async () => {
      server = await LocalPostgres.start({ binaries: need(availability), settings: SETTINGS });
      url = server.url();
      await sql(url, 'CREATE EXTENSION pg_buffercache');
      await sql(url, `CREATE TABLE big (id int, pad text) WITH (autovacuum_enabled = off)`);
      await sql(url, `INSERT INTO big SELECT g, repeat('x', 200) FROM generate_series(1, ${BIG_ROWS}) g`);
      await sql(url, `CREATE TABLE small (id int, pad text) WITH (autovacuum_enabled = off)`);
      await sql(url, `INSERT INTO small SELECT g, repeat('y', 200) FROM generate_series(1, ${SMALL_ROWS}) g`);
      // Set hint bits now, so the measured scans only read (the first scan would otherwise dirty every page).
      await sql(url, 'VACUUM (FREEZE, ANALYZE) big');
      await sql(url, 'VACUUM (FREEZE, ANALYZE) small');
      await sql(url, 'CHECKPOINT');
      [{ n: bigPages }] = await sql<{ n: number }>(url, `SELECT (pg_relation_size('big') / 8192)::int AS n`);
      [{ n: smallPages }] = await sql<{ n: number }>(url, `SELECT (pg_relation_size('small') / 8192)::int AS n`);
      assert.ok(bigPages > 512 && smallPages <= 512, `sizes ${bigPages}/${smallPages} straddle NBuffers/4`);
    });
    after(async () => server?.stop());

    test("a serial scan above NBuffers/4 keeps one 32-block ring per run; numbers equal the engine's own", async () => {
      await server.restart();
      const statement = 'SELECT sum(length(pad)) FROM big';
      const report = measureJson(url, statement, '--runs', '3');
      assert.deepEqual(validateReport(report), []);
      const ring = 32;
      report.runs.forEach(
        (
          run: {
            measured: { logicalReads: number; physicalReads: number; readAhead: null };
            residency: Array<{ relation: string; cachedBefore: number; cachedAfter: number }>;
          },
          k: number,
        ) => {
          const big = run.residency.find((r) => r.relation === 'big')!;
          assert.equal(run.measured.logicalReads, bigPages, `run ${k + 1} touches every block once`);
          assert.equal(run.measured.physicalReads, bigPages - ring * k, `run ${k + 1} reads all but the blocks earlier rings left`);
          assert.equal(run.measured.readAhead, null);
          assert.equal(big.cachedBefore, ring * k);
          assert.equal(big.cachedAfter, ring * (k + 1));
        },
      );
      // Directly, as an engineer would check by hand: pg_buffercache, then EXPLAIN BUFFERS.
      assert.equal(await cachedBlocks(url, 'big'), report.runs[2].residency.find((r: { relation: string }) => r.relation === 'big').cachedAfter);
      const direct = await explainBuffers(url, statement);
      assert.deepEqual(direct, { hit: ring * 3, read: bigPages - ring * 3 });
    });

    test('a table at or below NBuffers/4 is fully cached after one run', async () => {
      await server.restart();
      const report = measureJson(url, 'SELECT sum(length(pad)) FROM small', '--runs', '2');
      assert.equal(report.runs[0].measured.physicalReads, smallPages);
      assert.equal(report.runs[0].residency.find((r: { relation: string }) => r.relation === 'small').cachedAfter, smallPages);
      assert.equal(report.runs[1].measured.physicalReads, 0);
      assert.equal(report.runs[1].measured.logicalReads, smallPages);
      assert.equal(await cachedBlocks(url, 'small'), smallPages);
    });

    test('with parallel workers each scanning process keeps its own ring', async () => {
      await server.restart();
      await sql(url, `ALTER DATABASE postgres SET max_parallel_workers_per_gather = 2`);
      await sql(url, `ALTER DATABASE postgres SET parallel_setup_cost = 0`);
      await sql(url, `ALTER TABLE big SET (parallel_workers = 2)`);
      try {
        const report = measureJson(url, 'SELECT sum(length(pad)) FROM big', '--runs', '2');
        const launched = report.runs[0].raw['explain.workers_launched'];
        assert.ok(launched >= 1, 'at least one worker launched');
        const processes = launched + 1;
        const big = (k: number) => report.runs[k].residency.find((r: { relation: string }) => r.relation === 'big');
        assert.equal(report.runs[0].measured.physicalReads, bigPages, "workers' reads are counted");
        // Cold, every block a miss: each process keeps the last 32 blocks it read — all 32 unless the scheduler
        // gave it fewer blocks than that (EXPLAIN VERBOSE tells each worker's share; the leader has the rest).
        const scanOf = (run: number) => {
          let n = report.runs[run].plan;
          while (n.nodeType !== 'Seq Scan') n = n.children[0];
          return n as { total: { sharedHit: number; sharedRead: number }; workers: Array<{ blocks: number }> };
        };
        const scan = scanOf(0);
        const shares = [scan.total.sharedRead + scan.total.sharedHit - scan.workers.reduce((a, w) => a + w.blocks, 0), ...scan.workers.map((w) => w.blocks)];
        assert.equal(shares.length, processes);
        assert.equal(
          big(0).cachedAfter,
          shares.reduce((a, b) => a + Math.min(32, b), 0),
        );
        // Warm, a process whose chunks were mostly cached can miss fewer than 32: at most one ring each.
        const grown = big(1).cachedAfter - big(1).cachedBefore;
        assert.ok(grown > 0 && grown <= 32 * (report.runs[1].raw['explain.workers_launched'] + 1), `grew by ${grown}`);
        assert.equal(await cachedBlocks(url, 'big'), big(1).cachedAfter);
        // The Gather node's total includes its workers' buffers, so the scan's self equals its total.
        const gather = report.runs[0].plan.children[0];
        assert.equal(gather.nodeType, 'Gather');
        assert.equal(gather.total.sharedRead, bigPages);
        assert.equal(gather.self.sharedRead, 0);
      } finally {
        await sql(url, `ALTER DATABASE postgres RESET max_parallel_workers_per_gather`);
        await sql(url, `ALTER DATABASE postgres RESET parallel_setup_cost`);
        await sql(url, `ALTER TABLE big RESET (parallel_workers)`);
      }
    });

    test('--cold evicts before run 1 where the version can, and refuses with the reason where it cannot', async () => {
      measureJson(url, 'SELECT sum(length(pad)) FROM small', '--runs', '1'); // warm it
      const r = cli('measure', '--url', url, '--json', '--cold', '--runs', '2', '--sql', 'SELECT sum(length(pad)) FROM small');
      if (server.major >= 17) {
        assert.equal(r.code, 0, r.err);
        const report = JSON.parse(r.out);
        assert.equal(report.runs[0].cold, true);
        assert.equal(report.runs[1].cold, false);
        assert.equal(report.runs[0].residency.find((r: { relation: string }) => r.relation === 'small').cachedBefore, 0);
        assert.equal(report.runs[0].measured.physicalReads, smallPages, 'a cold run 1 reads every block');
        assert.equal(report.runs[1].measured.physicalReads, 0);
      } else {
        assert.notEqual(r.code, 0);
        assert.match(r.err, /--cold is not possible: PostgreSQL \d+ cannot evict/);
        const tried = cli('measure', '--url', url, '--json', '--cold=try', '--runs', '1', '--sql', 'SELECT 1 FROM small LIMIT 1');
        assert.equal(tried.code, 0, tried.err);
        const report = JSON.parse(tried.out);
        assert.equal(report.runs[0].cold, false);
        assert.ok(report.warnings.some((w: string) => /run 1 is not cold/.test(w)));
      }
    });
  });
}

suite('installed server', systemPostgres());
suite('embedded PostgreSQL 18', embeddedPostgres());
