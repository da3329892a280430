// The workload curve checked against real runs: pgbench's schema on private servers, each workload run at
// several pool sizes from a restarted (empty) pool, the steady-state counters read after a warm-up, and
// the prediction for exactly the same numbers of transactions. PostgreSQL is driven by pgbench itself;
// MariaDB, which pgbench cannot drive, by `workload run`'s driver on the same schema.
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { LocalInnodbServer, type InnodbServerBinaries } from '../../src/local-server/mariadb';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { compileWorkload, predictCompiled } from '../../src/workload/predict-workload';
import { loadScripts } from '../../src/workload/load-scripts';
import { runWorkload } from '../../src/workload/run-workload';
import type { Value } from '../../src/workload/expression';

export interface CheckWorkload {
  name: string;
  /** pgbench's own arguments for it (PostgreSQL). */
  pgbench: string[];
  builtin?: string;
  file?: string;
  warmup: number;
  transactions: number;
}

export interface CheckPoint {
  poolMb: number;
  measuredHit: number;
  predictedHit: number;
  measuredReadsPerTx: number;
  predictedReadsPerTx: number;
  measuredRequestsPerTx: number;
  predictedRequestsPerTx: number;
  /** |predicted − measured| / measured miss ratio. */
  missError: number;
}

export interface CheckResult {
  engine: string;
  workload: string;
  scale: number;
  sessions: number;
  warmup: number;
  transactions: number;
  points: CheckPoint[];
  /** The predicted curve on a finer grid, for the chart. */
  curve: Array<{ poolMb: number; hit: number }>;
}

const ZIPF = `\\set aid random_zipfian(1, 100000 * :scale, 1.1)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n`;

export function checkWorkloads(scale: number): CheckWorkload[] {
  const dir = mkdtempSync(join(tmpdir(), 'bufferlens-workload-'));
  const zipf = join(dir, 'zipfian-select.sql');
  writeFileSync(zipf, ZIPF);
  return [
    { name: 'select-only', pgbench: ['-S'], builtin: 'select-only', warmup: 60_000 * Math.max(1, scale / 10), transactions: 60_000 * Math.max(1, scale / 10) },
    // pgbench gives a custom script :scale = 1 unless told: -D passes the data's scale.
    { name: 'zipfian select (s = 1.1)', pgbench: ['-f', zipf, '-D', `scale=${scale}`], file: zipf, warmup: 60_000, transactions: 60_000 },
    { name: 'tpcb-like', pgbench: ['-b', 'tpcb-like'], builtin: 'tpcb-like', warmup: 30_000, transactions: 30_000 },
  ];
}

const MB = 1048576;
const missError = (measured: number, predicted: number): number => (measured > 0 ? Math.abs(predicted - measured) / measured : predicted === 0 ? 0 : Infinity);
const CURVE_MB = [8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256];

async function pgCounters(url: string): Promise<{ hit: number; read: number }> {
  // A fresh session sees the counters the exited pgbench sessions reported; read until they settle.
  let last = { hit: -1, read: -1 };
  for (let i = 0; i < 20; i++) {
    const c = new Client({ connectionString: url });
    await c.connect();
    const r = await c.query('SELECT blks_hit::float8 AS hit, blks_read::float8 AS read FROM pg_stat_database WHERE datname = current_database()');
    await c.end();
    const now = r.rows[0] as { hit: number; read: number };
    if (now.hit === last.hit && now.read === last.read) return now;
    last = now;
    await new Promise((res) => setTimeout(res, 300));
  }
  return last;
}

export async function checkPostgres(
  binaries: PostgresBinaries,
  pgbenchBin: string,
  poolsMb: number[],
  scale: number,
  sessions: number,
  onProgress: (line: string) => void,
  only?: string[],
): Promise<CheckResult[]> {
  // Autovacuum off: its reads are another process's work, counted in the same database statistics.
  const server = await LocalPostgres.start({
    binaries,
    settings: { shared_buffers: `${poolsMb[0]}MB`, max_parallel_workers_per_gather: 0, autovacuum: 'off' },
  });
  const results: CheckResult[] = [];
  const pgbench = (args: string[]) =>
    execFileSync(pgbenchBin, ['-h', '127.0.0.1', '-p', String(server.port), '-U', 'postgres', ...args, 'postgres'], { stdio: 'pipe', maxBuffer: 1 << 26 });
  try {
    const engine = `PostgreSQL ${binaries.version}`;
    for (const w of checkWorkloads(scale).filter((x) => !only || only.some((o) => x.name.startsWith(o)))) {
      // Every workload on freshly loaded data: tpcb-like changes it.
      pgbench(['-i', '-s', String(scale), '-q']);
      const result: CheckResult = { engine, workload: w.name, scale, sessions, warmup: w.warmup, transactions: w.transactions, points: [], curve: [] };
      for (const mb of poolsMb) {
        await server.restart({ shared_buffers: `${mb}MB` });
        const target = parseConnectionUrl(server.url());
        const options = {
          scripts: loadScripts(w.file ? [w.file] : [], w.builtin ? [w.builtin] : []),
          fixed: new Map<string, Value>([['scale', { int: true, v: scale }]]),
        };
        const compiled = await compileWorkload(target, options);
        await server.restart();
        pgbench(['-n', ...w.pgbench, '-c', String(sessions), '-t', String(Math.round(w.warmup / sessions))]);
        const a = await pgCounters(server.url());
        pgbench(['-n', ...w.pgbench, '-c', String(sessions), '-t', String(Math.round(w.transactions / sessions))]);
        const b = await pgCounters(server.url());
        const hits = b.hit - a.hit;
        const reads = b.read - a.read;
        const sizes = mb === poolsMb[poolsMb.length - 1] ? [...new Set([...CURVE_MB, ...poolsMb])].sort((x, y) => x - y) : [mb];
        const report = predictCompiled(compiled, { ...options, warmup: w.warmup, transactions: w.transactions, sizes: sizes.map((s) => s * MB) });
        const p = report.curve.find((x) => x.poolBytes === mb * MB)!;
        const point: CheckPoint = {
          poolMb: mb,
          measuredHit: hits / (hits + reads),
          predictedHit: p.hitRatio,
          measuredReadsPerTx: reads / w.transactions,
          predictedReadsPerTx: p.readsPerTransaction,
          measuredRequestsPerTx: (hits + reads) / w.transactions,
          predictedRequestsPerTx: p.requestsPerTransaction,
          missError: missError(reads / (hits + reads), 1 - p.hitRatio),
        };
        result.points.push(point);
        if (sizes.length > 1) result.curve = report.curve.map((c) => ({ poolMb: c.poolBytes / MB, hit: c.hitRatio }));
        onProgress(
          `${engine} ${w.name} ${mb} MB: hit ${(point.measuredHit * 100).toFixed(2)} % measured, ${(point.predictedHit * 100).toFixed(2)} % predicted; reads/tx ${point.measuredReadsPerTx.toFixed(3)} / ${point.predictedReadsPerTx.toFixed(3)}; requests/tx ${point.measuredRequestsPerTx.toFixed(1)} / ${point.predictedRequestsPerTx.toFixed(1)}`,
        );
      }
      results.push(result);
    }
    return results;
  } finally {
    await server.stop();
  }
}

/** pgbench's schema on InnoDB: the same tables, keys and row widths `pgbench -i` creates. */
export async function loadPgbenchInnodb(server: LocalInnodbServer, scale: number): Promise<void> {
  const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
  try {
    await c.query('DROP DATABASE IF EXISTS pgbench');
    await c.query('CREATE DATABASE pgbench');
    await c.query('USE pgbench');
    await c.query('CREATE TABLE pgbench_branches (bid INT NOT NULL PRIMARY KEY, bbalance INT, filler CHAR(88)) ENGINE=InnoDB');
    await c.query('CREATE TABLE pgbench_tellers (tid INT NOT NULL PRIMARY KEY, bid INT, tbalance INT, filler CHAR(84)) ENGINE=InnoDB');
    await c.query('CREATE TABLE pgbench_accounts (aid INT NOT NULL PRIMARY KEY, bid INT, abalance INT, filler CHAR(84)) ENGINE=InnoDB');
    await c.query('CREATE TABLE pgbench_history (tid INT, bid INT, aid INT, delta INT, mtime TIMESTAMP NULL, filler CHAR(22)) ENGINE=InnoDB');
    await c.query(`INSERT INTO pgbench_branches SELECT seq, 0, '' FROM seq_1_to_${scale}`);
    await c.query(`INSERT INTO pgbench_tellers SELECT seq, (seq - 1) DIV 10 + 1, 0, '' FROM seq_1_to_${10 * scale}`);
    await c.query(`INSERT INTO pgbench_accounts SELECT seq, (seq - 1) DIV 100000 + 1, 0, '' FROM seq_1_to_${100_000 * scale}`);
    await c.query('ANALYZE TABLE pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history');
  } finally {
    await c.end();
  }
}

export async function checkInnodb(
  binaries: InnodbServerBinaries,
  poolsMb: number[],
  scale: number,
  sessions: number,
  onProgress: (line: string) => void,
  only?: string[],
): Promise<CheckResult[]> {
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': `${Math.max(...poolsMb)}M` } });
  const results: CheckResult[] = [];
  try {
    const engine = `MariaDB ${binaries.version.split('-')[0]}`;
    for (const w of checkWorkloads(scale).filter((x) => !only || only.some((o) => x.name.startsWith(o)))) {
      await loadPgbenchInnodb(server, scale);
      const result: CheckResult = { engine, workload: w.name, scale, sessions, warmup: w.warmup, transactions: w.transactions, points: [], curve: [] };
      for (const mb of poolsMb) {
        await server.restart({ 'innodb-buffer-pool-size': `${mb}M` });
        const target = parseConnectionUrl(server.url('pgbench'));
        const options = {
          scripts: loadScripts(w.file ? [w.file] : [], w.builtin ? [w.builtin] : []),
          fixed: new Map<string, Value>([['scale', { int: true, v: scale }]]),
        };
        const compiled = await compileWorkload(target, options);
        await server.restart();
        // Committed, like pgbench: the private database is disposable, and a rollback would double the writes.
        const m = await runWorkload(compiled, target, {
          sessions,
          warmupSeconds: 0,
          seconds: 0,
          warmupTransactions: w.warmup,
          transactions: w.transactions,
          commit: true,
        });
        const sizes = mb === poolsMb[poolsMb.length - 1] ? [...new Set([...CURVE_MB, ...poolsMb])].sort((x, y) => x - y) : [mb];
        // Sizes count the LRU's pages: the share of the configured size this server gives its LRU list.
        const usable = compiled.poolPages / ((mb * MB) / compiled.pageBytes);
        const lruBytes = (s: number) => Math.round(((s * MB) / compiled.pageBytes) * usable) * compiled.pageBytes;
        const report = predictCompiled(compiled, {
          ...options,
          warmup: m.warmupTransactions,
          transactions: m.transactions,
          tps: m.transactionsPerSecond,
          sizes: sizes.map((s) => (s === mb ? compiled.poolPages * compiled.pageBytes : lruBytes(s))),
        });
        const p = report.curve.find((x) => x.poolPages === compiled.poolPages)!;
        const point: CheckPoint = {
          poolMb: mb,
          measuredHit: m.hitRatio,
          predictedHit: p.hitRatio,
          measuredReadsPerTx: m.readsPerTransaction,
          predictedReadsPerTx: p.readsPerTransaction,
          measuredRequestsPerTx: m.requests / m.transactions,
          predictedRequestsPerTx: p.requestsPerTransaction,
          missError: missError(1 - m.hitRatio, 1 - p.hitRatio),
        };
        result.points.push(point);
        if (sizes.length > 1)
          result.curve = report.curve.map((c) => ({ poolMb: Math.round((c.poolPages * compiled.pageBytes) / usable / MB), hit: c.hitRatio }));
        onProgress(
          `${engine} ${w.name} ${mb} MB: hit ${(point.measuredHit * 100).toFixed(2)} % measured, ${(point.predictedHit * 100).toFixed(2)} % predicted; reads/tx ${point.measuredReadsPerTx.toFixed(3)} / ${point.predictedReadsPerTx.toFixed(3)}; requests/tx ${point.measuredRequestsPerTx.toFixed(1)} / ${point.predictedRequestsPerTx.toFixed(1)}`,
        );
      }
      results.push(result);
    }
    return results;
  } finally {
    await server.stop();
  }
}
