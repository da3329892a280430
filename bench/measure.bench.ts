// What BufferLens adds around a statement, per run, on loopback: the marginal cost of one more run
// (snapshots, residency, transaction, the per-run prediction) against the bare statement and, on
// PostgreSQL, against EXPLAIN ANALYZE alone. Printed as ratios measured in the same run; not a timed test.
// The what-if sweeps are left out: they run once per measurement, after the runs, on the local CPU.
import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';
import { findSystemPostgres, findEmbeddedPostgres, LocalPostgres } from '../src/local-server/postgres';
import { findInnodbServers, LocalInnodbServer } from '../src/local-server/mariadb';
import { parseConnectionUrl } from '../src/db/connection-url';
import { measure } from '../src/measure/measure';

async function median(times: number, fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

interface EngineUnderTest {
  title: string;
  url: string;
  statements: Array<[label: string, sql: string, repetitions: number]>;
  bare(sql: string): Promise<unknown>;
  /** The engine's own per-statement instrumentation, when it has one to compare with. */
  explain?(sql: string): Promise<unknown>;
  footnote: string[];
}

async function bench(e: EngineUnderTest): Promise<void> {
  const target = parseConnectionUrl(e.url);
  console.log(`\n${e.title}, loopback, median of repeated runs (ms)`);
  console.log('statement'.padEnd(50), 'bare'.padStart(9), 'EXPLAIN'.padStart(9), 'BufferLens/run'.padStart(15), 'added/run'.padStart(10), 'ratio'.padStart(7));
  for (const [label, sql, reps] of e.statements) {
    const bare = await median(reps, () => e.bare(sql));
    const explain = e.explain ? await median(reps, () => e.explain!(sql)) : undefined;
    const options = { sql, cold: 'no' as const, commit: false, timing: true, timeoutMs: 60_000, whatIf: false };
    for (const residency of ['always', 'never'] as const) {
      const one = await median(reps, () => measure(target, { ...options, residency, runs: 1 }));
      const many = await median(Math.max(3, Math.floor(reps / 3)), () => measure(target, { ...options, residency, runs: 6 }));
      const perRun = (many - one) / 5;
      console.log(
        `${label} (residency ${residency === 'always' ? 'on' : 'off'})`.padEnd(50),
        bare.toFixed(2).padStart(9),
        (explain === undefined ? '–' : explain.toFixed(2)).padStart(9),
        perRun.toFixed(2).padStart(15),
        (perRun - (explain ?? bare)).toFixed(2).padStart(10),
        `${(perRun / bare).toFixed(2)}×`.padStart(7),
      );
    }
  }
  for (const line of e.footnote) console.log(line);
}

async function benchPostgres(): Promise<void> {
  const binaries = findSystemPostgres()[0] ?? findEmbeddedPostgres();
  if (!binaries) throw new Error('no PostgreSQL binaries');
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: '128MB' } });
  const c = new Client({ connectionString: server.url() });
  try {
    await c.connect();
    await c.query('CREATE EXTENSION pg_buffercache');
    await c.query(`CREATE TABLE t AS SELECT g AS id, md5(g::text) AS payload FROM generate_series(1, 100000) g`);
    await c.query('VACUUM ANALYZE t');
    await bench({
      title: `PostgreSQL ${binaries.version}`,
      url: server.url(),
      statements: [
        ['trivial: SELECT 1 FROM t LIMIT 1', 'SELECT 1 FROM t LIMIT 1', 15],
        ['~1 s: SELECT pg_sleep(1)', 'SELECT pg_sleep(1)', 3],
      ],
      bare: (sql) => c.query(sql),
      explain: (sql) => c.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`),
      footnote: [
        'added/run = BufferLens per run − EXPLAIN ANALYZE alone: counter snapshots, transaction, the per-run prediction',
        'and (when on) one pg_buffercache scan, whose cost grows with shared_buffers (target for the snapshots: ≤ 3 ms)',
      ],
    });
  } finally {
    await c.end().catch(() => undefined);
    await server.stop();
  }
}

async function benchMariadb(): Promise<void> {
  const binaries = findInnodbServers()[0];
  if (!binaries) throw new Error('no MariaDB/MySQL server binaries');
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': '128M' } });
  const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
  try {
    await c.query('CREATE DATABASE b');
    await c.query('USE b');
    await c.query('CREATE TABLE t (id INT PRIMARY KEY, payload CHAR(32)) ENGINE=InnoDB');
    await c.query('INSERT INTO t SELECT seq, MD5(seq) FROM seq_1_to_100000');
    await bench({
      title: `${binaries.product} ${binaries.version}`,
      url: server.url('b'),
      statements: [
        ['trivial: SELECT 1 FROM t LIMIT 1', 'SELECT 1 FROM t LIMIT 1', 15],
        ['~1 s: SELECT SLEEP(1)', 'SELECT SLEEP(1)', 3],
      ],
      bare: (sql) => c.query(sql),
      footnote: [
        'added/run = BufferLens per run − the bare statement: two status snapshots, two process-list checks, the',
        'transaction, ANALYZE FORMAT=JSON and (when on) one INNODB_BUFFER_PAGE_LRU read (target ≤ 3 ms)',
      ],
    });
  } finally {
    await c.end().catch(() => undefined);
    await server.stop();
  }
}

benchPostgres()
  .then(benchMariadb)
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
