// Accuracy scenarios: real servers measured by BufferLens, each run's prediction compared with the
// measurement. Shared by the tests (which assert the tolerances) and scripts/accuracy.ts (which writes
// docs/accuracy.md). Not a test file itself.
import { pgQuery } from '../support/sql';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { measure } from '../../src/measure/measure';
import type { Report } from '../../src/shared/report';
import { LocalInnodbServer, type InnodbServerBinaries } from '../../src/local-server/mariadb';
import { createConnection } from 'mysql2/promise';

export interface ScenarioRow {
  engine: string;
  scenario: string;
  run: number;
  metric: string;
  measured: number | null;
  predicted: number | null;
  /** Where the model guesses (see RelationResidency.predictedAfterRange): the lowest and highest of its draws. */
  band?: [number, number];
  /** |predicted − measured| / measured (0 when both are 0); with a band, to its nearer end (0 within it). */
  error: number;
  tolerance: number;
}

export interface ScenarioResult {
  name: string;
  rows: ScenarioRow[];
  /** The reports' warnings, for tests that check no false alarm was raised. */
  warnings?: string[];
}

function relError(m: number | null, p: number | null): number {
  if (m === null || p === null) return Infinity;
  if (m === 0) return p === 0 ? 0 : Infinity;
  return Math.abs(p - m) / m;
}

/**
 * Cached pages where the model guesses which blocks each parallel process took: the error is to the nearer
 * end of the predicted range, none within it. (Reads are held to the shown draw.)
 */
function bandError(m: number | null, p: number | null, range: [number, number] | undefined): number {
  if (!range || m === null) return relError(m, p);
  return relError(m, Math.min(range[1], Math.max(range[0], m)));
}

async function sql(url: string, text: string): Promise<void> {
  await pgQuery(url, text);
}

type Tolerance = (run: number, metric: string) => number;

/** Per run: physical reads and each relation's cached pages after the run, measured against predicted. */
function compare(engine: string, name: string, report: Report, tol: Tolerance, residency: boolean): ScenarioRow[] {
  const rows: ScenarioRow[] = [];
  for (const r of report.runs) {
    const tolerance = tol(r.run, 'physical reads');
    rows.push({
      engine,
      scenario: name,
      run: r.run,
      metric: 'physical reads',
      measured: r.measured.physicalReads,
      predicted: r.predicted.physicalReads,
      error: relError(r.measured.physicalReads, r.predicted.physicalReads),
      tolerance,
    });
    if (!residency) continue;
    for (const rel of r.residency) {
      if (rel.pages === 0) continue;
      rows.push({
        engine,
        scenario: name,
        run: r.run,
        metric: `cached after: ${rel.relation}`,
        measured: rel.cachedAfter,
        predicted: rel.predictedAfter,
        error: bandError(rel.cachedAfter, rel.predictedAfter, rel.predictedAfterRange),
        tolerance: tol(r.run, 'cached'),
        ...(rel.predictedAfterRange ? { band: rel.predictedAfterRange } : {}),
      });
    }
  }
  return rows;
}

export async function postgresScenarios(binaries: PostgresBinaries): Promise<ScenarioResult[]> {
  const engine = `PostgreSQL ${binaries.major}`;
  // 16 MB: NBuffers 2,048, ring threshold 512 blocks.
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: '16MB', max_parallel_workers_per_gather: 0 } });
  const url = server.url();
  try {
    for (const s of [
      'CREATE EXTENSION pg_buffercache',
      `CREATE TABLE big (id int, pad text) WITH (autovacuum_enabled = off)`,
      `INSERT INTO big SELECT g, repeat('x', 200) FROM generate_series(1, 36000) g`,
      `CREATE TABLE small (id int, pad text) WITH (autovacuum_enabled = off)`,
      `INSERT INTO small SELECT g, repeat('y', 200) FROM generate_series(1, 12000) g`,
      // The same rows, once in key order and once shuffled, each with an index on the key.
      `CREATE TABLE corr (id int, pad text) WITH (autovacuum_enabled = off)`,
      `INSERT INTO corr SELECT g, repeat('c', 250) FROM generate_series(1, 30000) g`,
      `CREATE TABLE uncorr (id int, pad text) WITH (autovacuum_enabled = off)`,
      `INSERT INTO uncorr SELECT g, repeat('u', 250) FROM generate_series(1, 30000) g ORDER BY md5(g::text)`,
      'CREATE INDEX corr_id ON corr (id)',
      'CREATE INDEX uncorr_id ON uncorr (id)',
      // For inserts: a serial key and a random one whose index (about 3,800 blocks) outgrows the pool.
      'CREATE TABLE ins (id serial PRIMARY KEY, k int NOT NULL) WITH (autovacuum_enabled = off)',
      'CREATE INDEX ins_k ON ins (k)',
      `INSERT INTO ins (k) SELECT (abs(hashint4(g + 7000000)::bigint) % 1000000000)::int FROM generate_series(1, 1000000) g`,
      // For updates and deletes, each on a table of its own (a rolled-back write leaves dead versions behind).
      'CREATE TABLE upd (id serial PRIMARY KEY, k int NOT NULL, v int NOT NULL, pad text) WITH (autovacuum_enabled = off)',
      'CREATE INDEX upd_k ON upd (k)',
      `INSERT INTO upd (k, v, pad) SELECT (abs(hashint4(g)::bigint) % 1000000000)::int, g, repeat('p', 60) FROM generate_series(1, 300000) g`,
      'CREATE TABLE del (id serial PRIMARY KEY, k int NOT NULL, pad text) WITH (autovacuum_enabled = off)',
      'CREATE INDEX del_k ON del (k)',
      `INSERT INTO del (k, pad) SELECT (abs(hashint4(g)::bigint) % 1000000000)::int, repeat('d', 60) FROM generate_series(1, 300000) g`,
      'VACUUM (FREEZE, ANALYZE)',
      'CHECKPOINT',
    ]) {
      await sql(url, s);
    }
    const target = parseConnectionUrl(url);
    const run = async (
      name: string,
      statement: string,
      tolerance: Tolerance,
      residency: boolean,
      setup: string[] = [],
      reset: string[] = [],
      runs = 3,
    ): Promise<ScenarioResult> => {
      for (const s of setup) await sql(url, s);
      await server.restart(); // a cold pool
      try {
        const report = await measure(target, { sql: statement, runs, cold: 'no', commit: false, timing: false, timeoutMs: 60_000, whatIf: false });
        return { name, rows: compare(engine, name, report, tolerance, residency) };
      } finally {
        for (const s of reset) await sql(url, s);
      }
    };
    const parallel = [
      `ALTER DATABASE postgres SET max_parallel_workers_per_gather = 2`,
      `ALTER DATABASE postgres SET parallel_setup_cost = 0`,
      `ALTER TABLE big SET (parallel_workers = 2)`,
      `ALTER TABLE small SET (parallel_workers = 2)`,
    ];
    const serial = [
      `ALTER DATABASE postgres RESET max_parallel_workers_per_gather`,
      `ALTER DATABASE postgres RESET parallel_setup_cost`,
      `ALTER TABLE big RESET (parallel_workers)`,
      `ALTER TABLE small RESET (parallel_workers)`,
    ];
    const indexOnly = [`ALTER DATABASE postgres SET enable_bitmapscan = off`, `ALTER DATABASE postgres SET enable_seqscan = off`];
    const indexReset = [`ALTER DATABASE postgres RESET enable_bitmapscan`, `ALTER DATABASE postgres RESET enable_seqscan`];
    const exact: Tolerance = () => 0;
    // Which blocks each parallel process draws depends on timing, and with rings that decides which stay
    // cached: exact on run 1, bounded after (README: known limits).
    const parallelRings: Tolerance = (run, metric) => (run === 1 ? 0 : metric === 'cached' ? 0.1 : 0.05);
    const indexRange: Tolerance = (run) => (run === 1 ? 0.05 : 1);
    return [
      await run('seq scan below NBuffers/4, serial', 'SELECT sum(length(pad)) FROM small', exact, true),
      await run('seq scan above NBuffers/4, serial', 'SELECT sum(length(pad)) FROM big', exact, true),
      await run('seq scan below NBuffers/4, 2 workers', 'SELECT sum(length(pad)) FROM small', exact, true, parallel, serial),
      await run('seq scan above NBuffers/4, 2 workers', 'SELECT sum(length(pad)) FROM big', parallelRings, true, parallel, serial),
      await run(
        'index range scan, correlated table',
        'SELECT sum(length(pad)) FROM corr WHERE id BETWEEN 5000 AND 8000',
        indexRange,
        false,
        indexOnly,
        indexReset,
      ),
      await run(
        'index range scan, uncorrelated table',
        'SELECT sum(length(pad)) FROM uncorr WHERE id BETWEEN 5000 AND 8000',
        indexRange,
        false,
        indexOnly,
        indexReset,
      ),
      // Rolled back: every run inserts the same keys into the same index.
      await run(
        '20,000 random-key inserts, index larger than the pool',
        'INSERT INTO ins (k) SELECT (abs(hashint4(g)::bigint) % 1000000000)::int FROM generate_series(1, 20000) g',
        () => 0.1,
        true,
      ),
      // Run 1 only: a rolled-back update leaves dead versions that later runs' scans visit as well.
      await run(
        'update of 5,001 rows on full pages (non-HOT: a new entry in every index)',
        'UPDATE upd SET v = v + 1 WHERE id BETWEEN 1000 AND 6000',
        () => 0.1,
        false,
        [],
        [],
        1,
      ),
      await run('delete of 5,001 rows', 'DELETE FROM del WHERE id BETWEEN 1000 AND 6000', () => 0.1, false, [], [], 1),
    ];
  } finally {
    await server.stop();
  }
}

/** A database `lab` on the server, with the statements run in it. */
export async function loadLab(server: LocalInnodbServer, statements: string[]): Promise<void> {
  const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
  try {
    await c.query('CREATE DATABASE lab');
    await c.query('USE lab');
    for (const s of statements) await c.query(s);
  } finally {
    await c.end();
  }
}

/**
 * Random-key inserts into a table whose non-unique secondary index is larger than the pool, measured as
 * BufferLens measures (each run rolled back), with the change buffer off and on. The bound is on
 * the ratio of the two: on/off reads, predicted against measured.
 */
export async function mariadbInsertScenarios(binaries: InnodbServerBinaries, pool = '16M', inserts = 20_000): Promise<ScenarioResult[]> {
  const engine = `MariaDB ${binaries.version.split('-')[0]}`;
  // Loaded with a large pool; measured after restarts with the small one.
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': '512M' } });
  try {
    await loadLab(server, [
      'CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, KEY k (k)) ENGINE=InnoDB',
      'INSERT INTO t (k) SELECT FLOOR(RAND(7) * 1000000000) FROM seq_1_to_1000000',
      'ANALYZE TABLE t',
    ]);
    const target = parseConnectionUrl(server.url('lab'));
    const statement = `INSERT INTO t (k) SELECT FLOOR(RAND(11) * 1000000000) FROM seq_1_to_${inserts}`;
    const measured: Record<string, Report> = {};
    for (const mode of ['none', 'all']) {
      await server.restart({ 'innodb-buffer-pool-size': pool, 'innodb-change-buffering': mode });
      measured[mode] = await measure(target, { sql: statement, runs: 2, cold: 'no', commit: false, timing: false, timeoutMs: 120_000, whatIf: false });
    }
    const rows: ScenarioRow[] = [];
    const name = `${inserts.toLocaleString('en-US')} random-key inserts, secondary index larger than the ${pool}B pool, rolled back`;
    for (const mode of ['none', 'all']) {
      for (const r of measured[mode].runs) {
        rows.push({
          engine,
          scenario: name,
          run: r.run,
          metric: `physical reads, change buffering ${mode}`,
          measured: r.measured.physicalReads,
          predicted: r.predicted.physicalReads,
          error: relError(r.measured.physicalReads, r.predicted.physicalReads),
          tolerance: 0.25,
        });
      }
    }
    for (let k = 0; k < measured.none.runs.length; k++) {
      const on = measured.all.runs[k];
      const off = measured.none.runs[k];
      const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : Math.round((a / b) * 1000) / 1000);
      const m = ratio(on.measured.physicalReads, off.measured.physicalReads);
      const p = ratio(on.predicted.physicalReads, off.predicted.physicalReads);
      rows.push({
        engine,
        scenario: name,
        run: on.run,
        metric: 'reads ratio, change buffering all / none',
        measured: m,
        predicted: p,
        error: relError(m, p),
        tolerance: 0.2,
      });
    }
    return [{ name, rows, warnings: [...measured.none.warnings, ...measured.all.warnings] }];
  } finally {
    await server.stop();
  }
}

export async function mariadbScenarios(binaries: InnodbServerBinaries): Promise<ScenarioResult[]> {
  const engine = `MariaDB ${binaries.version.split('-')[0]}`;
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': '128M' } });
  try {
    await loadLab(server, [
      'CREATE TABLE t (id INT PRIMARY KEY, amount INT NOT NULL, payload VARCHAR(500) NOT NULL) ENGINE=InnoDB',
      `INSERT INTO t SELECT seq, seq % 1000, REPEAT('x', 500) FROM seq_1_to_100000`,
      // For index lookups: a secondary key in random order, and a table to join from.
      'CREATE TABLE r (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200) NOT NULL, KEY k (k)) ENGINE=InnoDB',
      `INSERT INTO r SELECT seq, FLOOR(RAND(3) * 100000), REPEAT('r', 200) FROM seq_1_to_100000`,
      'CREATE TABLE s (id INT PRIMARY KEY, rid INT NOT NULL) ENGINE=InnoDB',
      'INSERT INTO s SELECT seq, FLOOR(RAND(5) * 100000) + 1 FROM seq_1_to_2000',
      'ANALYZE TABLE t, r, s',
    ]);
    const target = parseConnectionUrl(server.url('lab'));
    const statement = 'SELECT SUM(amount), SUM(OCTET_LENGTH(payload)) FROM t';
    const within3: Tolerance = () => 0.03;
    const run = async (name: string, settings: Record<string, number>, sql = statement, tolerance = within3, residency = true): Promise<ScenarioResult> => {
      await server.restart(settings);
      const report = await measure(target, { sql, runs: 3, cold: 'no', commit: false, timing: false, timeoutMs: 60_000, whatIf: false });
      const rows = compare(engine, name, report, tolerance, residency);
      for (const r of report.runs) {
        rows.push({
          engine,
          scenario: name,
          run: r.run,
          metric: 'read-ahead',
          measured: r.measured.readAhead,
          predicted: r.predicted.readAhead,
          error: relError(r.measured.readAhead, r.predicted.readAhead),
          tolerance: 0.03,
        });
      }
      return { name, rows };
    };
    // Lookups land on pages in an order the model draws at random: bounded, not exact.
    const lookups: Tolerance = () => 0.1;
    // Where a range starts in the index is not known before it runs; the drawn start decides where the
    // walk crosses 64-page areas, so how its pages split between synchronous reads and read-ahead.
    const rangePosition: Tolerance = () => 0.3;
    return [
      await run('cold full scan (seed 001)', { 'innodb-read-ahead-threshold': 56 }),
      await run('cold full scan, innodb_read_ahead_threshold=0', { 'innodb-read-ahead-threshold': 0 }),
      await run(
        'secondary-index range, uncorrelated, with clustered lookups',
        { 'innodb-read-ahead-threshold': 56 },
        'SELECT SUM(LENGTH(pad)) FROM r WHERE k BETWEEN 1000 AND 3000',
        lookups,
        false,
      ),
      await run(
        'primary-key range',
        { 'innodb-read-ahead-threshold': 56 },
        'SELECT SUM(LENGTH(pad)) FROM r WHERE id BETWEEN 1000 AND 9000',
        rangePosition,
        false,
      ),
      await run(
        'join: 2,000 eq_ref lookups by primary key',
        { 'innodb-read-ahead-threshold': 56 },
        'SELECT SUM(LENGTH(r.pad)) FROM s JOIN r ON r.id = s.rid',
        lookups,
        false,
      ),
    ];
  } finally {
    await server.stop();
  }
}
