// What BufferLens adds around a statement, per run, on loopback: the marginal cost of one more run
// (snapshots, residency, transaction) against the bare statement and against EXPLAIN ANALYZE alone.
// Printed as ratios measured in the same run; not a timed test.
import { Client } from 'pg';
import { findSystemPostgres, findEmbeddedPostgres, LocalPostgres } from '../src/local-server/postgres';
import { parseConnectionUrl } from '../src/db/connection-url';
import { measure } from '../src/measure/measure';
import { findInnodbServers, LocalInnodbServer } from '../src/local-server/mariadb';
import { createConnection } from 'mysql2/promise';

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

async function benchPostgres(): Promise<void> {
  const binaries = findSystemPostgres()[0] ?? findEmbeddedPostgres();
  if (!binaries) throw new Error('no PostgreSQL binaries');
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: '128MB' } });
  try {
    const c = new Client({ connectionString: server.url() });
    await c.connect();
    await c.query('CREATE EXTENSION pg_buffercache');
    await c.query(`CREATE TABLE t AS SELECT g AS id, md5(g::text) AS payload FROM generate_series(1, 100000) g`);
    await c.query('VACUUM ANALYZE t');
    const target = parseConnectionUrl(server.url());
    console.log(`PostgreSQL ${binaries.version}, loopback, median of repeated runs (ms)`);
    console.log('statement'.padEnd(50), 'bare'.padStart(9), 'EXPLAIN'.padStart(9), 'BufferLens/run'.padStart(15), 'added/run'.padStart(10), 'ratio'.padStart(7));
    for (const [label, sql, reps] of [
      ['trivial: SELECT 1 FROM t LIMIT 1', 'SELECT 1 FROM t LIMIT 1', 15],
      ['~1 s: SELECT pg_sleep(1)', 'SELECT pg_sleep(1)', 3],
    ] as Array<[string, string, number]>) {
      const bare = await median(reps, () => c.query(sql));
      const explain = await median(reps, () => c.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`));
      const options = { sql, cold: 'no' as const, commit: false, timing: true, timeoutMs: 60_000, whatIf: false };
      for (const residency of ['always', 'never'] as const) {
        const one = await median(reps, () => measure(target, { ...options, residency, runs: 1 }));
        const many = await median(Math.max(3, Math.floor(reps / 3)), () => measure(target, { ...options, residency, runs: 6 }));
        const perRun = (many - one) / 5;
        console.log(
          `${label} (residency ${residency === 'always' ? 'on' : 'off'})`.padEnd(50),
          bare.toFixed(2).padStart(9),
          explain.toFixed(2).padStart(9),
          perRun.toFixed(2).padStart(15),
          (perRun - explain).toFixed(2).padStart(10),
          `${(perRun / bare).toFixed(2)}×`.padStart(7),
        );
      }
    }
    console.log('added/run = BufferLens per run − EXPLAIN ANALYZE alone: counter snapshots, transaction, the per-run prediction and (when on) one');
    console.log('pg_buffercache scan per run, whose cost grows with shared_buffers (target for the snapshots: ≤ 3 ms)');
    await c.end();
  } catch (err) {
    console.error(server.logTail(10));
    throw err;
  } finally {
    await server.stop();
  }
}

async function benchMariadb(): Promise<void> {
  const binaries = findInnodbServers()[0];
  if (!binaries) throw new Error('no MariaDB/MySQL server binaries');
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': '128M' } });
  try {
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await c.query('CREATE DATABASE b');
    await c.query('USE b');
    await c.query('CREATE TABLE t (id INT PRIMARY KEY, payload CHAR(32)) ENGINE=InnoDB');
    await c.query('INSERT INTO t SELECT seq, MD5(seq) FROM seq_1_to_100000');
    const target = parseConnectionUrl(server.url('b'));
    console.log(`\n${binaries.product} ${binaries.version}, loopback, median of repeated runs (ms)`);
    console.log('statement'.padEnd(50), 'bare'.padStart(9), 'BufferLens/run'.padStart(15), 'added/run'.padStart(10), 'ratio'.padStart(7));
    for (const [label, sql, reps] of [
      ['trivial: SELECT 1 FROM t LIMIT 1', 'SELECT 1 FROM t LIMIT 1', 15],
      ['~1 s: SELECT SLEEP(1)', 'SELECT SLEEP(1)', 3],
    ] as Array<[string, string, number]>) {
      const bare = await median(reps, () => c.query(sql));
      const options = { sql, cold: 'no' as const, commit: false, timing: true, timeoutMs: 60_000, whatIf: false };
      for (const residency of ['always', 'never'] as const) {
        const one = await median(reps, () => measure(target, { ...options, residency, runs: 1 }));
        const many = await median(Math.max(3, Math.floor(reps / 3)), () => measure(target, { ...options, residency, runs: 6 }));
        const perRun = (many - one) / 5;
        console.log(
          `${label} (residency ${residency === 'always' ? 'on' : 'off'})`.padEnd(50),
          bare.toFixed(2).padStart(9),
          perRun.toFixed(2).padStart(15),
          (perRun - bare).toFixed(2).padStart(10),
          `${(perRun / bare).toFixed(2)}×`.padStart(7),
        );
      }
    }
    console.log('added/run = BufferLens per run − the bare statement: two status snapshots, two processlist checks,');
    console.log('the transaction, ANALYZE FORMAT=JSON and (when on) one INNODB_BUFFER_PAGE_LRU read (target ≤ 3 ms)');
    await c.end();
  } finally {
    await server.stop();
  }
}

benchPostgres()
  .then(benchMariadb)
  .catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
