// `workload run`: drive the workload against the server with N sessions and measure the steady state
// from the server's own counters. Reads run in read-only transactions; a script that writes runs in a
// transaction that is rolled back, unless the user commits on a database named as disposable. The
// script's own BEGIN/END are left out: BufferLens owns each transaction.
import type { Client } from 'pg';
import type { Connection } from 'mysql2/promise';
import type { ConnectionTarget } from '../db/connection-url';
import { connectPostgres } from '../db/postgres';
import { connectMysql } from '../db/mysql';
import { SeededRandom } from '../sim/random';
import type { CompiledWorkload } from './compiled';
import type { Value } from './expression';
import { WorkloadInputError } from './load-scripts';
import { executeScript } from './script';
import type { WorkloadMeasurement } from '../shared/workload-report';
import type { RunMode } from '../measure/gate';
import { gateWorkload } from './workload-gate';

export interface RunWorkloadOptions {
  sessions: number;
  /** Warm-up, then the measured part: by time, or (when given) by transactions in total. */
  warmupSeconds: number;
  seconds: number;
  warmupTransactions?: number;
  transactions?: number;
  commit: boolean;
  signal?: AbortSignal;
  seed?: number;
}

interface Counters {
  requests: number;
  reads: number;
}

interface DriverSession {
  run(sql: string): Promise<void>;
  /** Stops the statement running now, from a second connection: a signal must not wait for it. */
  cancel(): Promise<void>;
  close(): Promise<void>;
}

const CONTROL = /^\s*(begin|start\s+transaction|end|commit|rollback|abort)\s*;?\s*$/i;

async function postgresSession(target: ConnectionTarget): Promise<DriverSession> {
  const c: Client = await connectPostgres(target);
  const pid = (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
  const cancel = async () => {
    const second = await connectPostgres(target);
    await second.query('SELECT pg_cancel_backend($1)', [pid]).finally(() => second.end());
  };
  return { run: async (sql) => void (await c.query(sql)), cancel, close: () => c.end() };
}

async function mysqlSession(target: ConnectionTarget): Promise<DriverSession> {
  const c: Connection = await connectMysql(target);
  const cancel = async () => {
    const second = await connectMysql(target);
    await second.query(`KILL QUERY ${Number(c.threadId)}`).finally(() => second.end());
  };
  return { run: async (sql) => void (await c.query(sql)), cancel, close: () => c.end() };
}

/** The server's page requests and reads so far: the database's (PostgreSQL) or the instance's (InnoDB). */
export async function readCounters(target: ConnectionTarget): Promise<Counters> {
  if (target.engine === 'postgresql') {
    const c = await connectPostgres(target);
    try {
      const r = await c.query(`SELECT blks_hit::float8 AS hit, blks_read::float8 AS read FROM pg_stat_database WHERE datname = current_database()`);
      return { requests: r.rows[0].hit + r.rows[0].read, reads: r.rows[0].read };
    } finally {
      await c.end();
    }
  }
  const c = await connectMysql(target);
  try {
    const [rows] = await c.query(`SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_read_requests', 'Innodb_buffer_pool_reads')`);
    const m = new Map((rows as Array<{ Variable_name: string; Value: string }>).map((r) => [r.Variable_name, Number(r.Value)]));
    return { requests: m.get('Innodb_buffer_pool_read_requests') ?? 0, reads: m.get('Innodb_buffer_pool_reads') ?? 0 };
  } finally {
    await c.end();
  }
}

/**
 * PostgreSQL's sessions report their counters when they end (and at most once a second while they run):
 * read until two readings a moment apart agree, so the exited sessions' counts are in.
 */
async function settledCounters(target: ConnectionTarget, signal: AbortSignal | undefined): Promise<Counters> {
  let last = await readCounters(target);
  for (let i = 0; i < 20 && !signal?.aborted; i++) {
    await new Promise((r) => setTimeout(r, target.engine === 'postgresql' ? 250 : 0));
    const now = await readCounters(target);
    if (target.engine !== 'postgresql' || (now.requests === last.requests && now.reads === last.reads)) return now;
    last = now;
  }
  return last;
}

/** One phase: sessions run transactions until the deadline or the count; returns transactions and errors. */
async function drive(
  w: CompiledWorkload,
  target: ConnectionTarget,
  o: RunWorkloadOptions,
  modes: RunMode[],
  limit: { seconds: number; transactions?: number },
  seed: number,
): Promise<{ transactions: number; errors: number; seconds: number; firstError?: string }> {
  const open = target.engine === 'postgresql' ? postgresSession : mysqlSession;
  const sessions: DriverSession[] = [];
  try {
    for (let i = 0; i < o.sessions; i++) sessions.push(await open(target));
  } catch (err) {
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
    throw err;
  }
  // Each script's transaction as the gate decided its statements: read-only unless one of them writes.
  const readOnly = target.engine === 'postgresql' ? 'BEGIN TRANSACTION READ ONLY' : 'START TRANSACTION READ ONLY';
  const bracket = modes.map((m) => ({ begin: m === 'read-only' ? readOnly : 'BEGIN', end: m === 'committed' ? 'COMMIT' : 'ROLLBACK' }));
  const cumulative: number[] = [];
  let total = 0;
  for (const s of w.scripts) cumulative.push((total += s.script.weight));
  const t0 = performance.now();
  const deadline = t0 + limit.seconds * 1000;
  let started = 0;
  let done = 0;
  let errors = 0;
  let firstError: string | undefined;
  const more = (): boolean => !o.signal?.aborted && (limit.transactions !== undefined ? started < limit.transactions : performance.now() < deadline);
  const loop = async (session: DriverSession, k: number): Promise<void> => {
    const rnd = new SeededRandom(seed * 7919 + k);
    while (more()) {
      started++;
      const pick = rnd.next() * total;
      let si = 0;
      while (cumulative[si] <= pick) si++;
      const { sql, sleepMicros } = executeScript(w.scripts[si].script, { variables: new Map<string, Value>(w.fixed), random: rnd });
      try {
        await session.run(bracket[si].begin);
        for (const statement of sql) if (!CONTROL.test(statement)) await session.run(statement);
        await session.run(bracket[si].end);
        done++;
      } catch (err) {
        errors++;
        firstError ??= (err as Error).message;
        await session.run('ROLLBACK').catch(() => undefined);
        if (errors > 100 && errors > done) throw new Error(`the workload fails: ${firstError}`, { cause: err });
      }
      if (sleepMicros > 0) await new Promise((r) => setTimeout(r, sleepMicros / 1000));
    }
  };
  // A signal stops the statements running now, so that the run ends within a second, not after them.
  const onAbort = () => void Promise.all(sessions.map((s) => s.cancel().catch(() => undefined)));
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(sessions.map((s, k) => loop(s, k)));
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  }
  return { transactions: done, errors, seconds: (performance.now() - t0) / 1000, ...(firstError ? { firstError } : {}) };
}

export async function runWorkload(w: CompiledWorkload, target: ConnectionTarget, o: RunWorkloadOptions): Promise<WorkloadMeasurement> {
  const gate = await gateWorkload(
    w.scripts.map((s) => s.script),
    target,
    { commit: o.commit, allowSideEffects: false },
  );
  const writes = gate.modes.some((m) => m !== 'read-only');
  const seed = o.seed ?? 1;
  const stopIfCancelled = () => {
    if (o.signal?.aborted) throw new WorkloadInputError('cancelled');
  };
  const warm = await drive(w, target, o, gate.modes, { seconds: o.warmupSeconds, transactions: o.warmupTransactions }, seed);
  stopIfCancelled();
  const before = await settledCounters(target, o.signal);
  stopIfCancelled();
  const run = await drive(w, target, o, gate.modes, { seconds: o.seconds, transactions: o.transactions }, seed + 1);
  stopIfCancelled();
  const after = await settledCounters(target, o.signal);
  stopIfCancelled();
  if (run.transactions === 0) {
    throw new WorkloadInputError(
      `no transaction of the workload completed${run.errors ? ` (${run.errors} failed; the first: ${run.firstError})` : ''}: nothing was measured`,
    );
  }
  const requests = after.requests - before.requests;
  const reads = after.reads - before.reads;
  const notes: string[] = [...gate.notes];
  if (writes && !o.commit)
    notes.push(
      target.engine === 'postgresql'
        ? 'Every transaction was rolled back; on PostgreSQL each rolled-back write leaves a dead row version until VACUUM.'
        : 'Every transaction was rolled back.',
    );
  if (run.errors) notes.push(`${run.errors} transactions failed and were rolled back (first: ${run.firstError}).`);
  notes.push(
    'The counters are the whole server\u2019s (InnoDB) or the whole database\u2019s (PostgreSQL): other sessions\u2019 work during the run is in them.',
  );
  const poolBytes = w.poolPages * w.pageBytes;
  return {
    poolPages: w.poolPages,
    poolBytes,
    sessions: o.sessions,
    seconds: run.seconds,
    warmupTransactions: warm.transactions,
    transactions: run.transactions,
    transactionsPerSecond: run.transactions / Math.max(0.001, run.seconds),
    requests,
    reads,
    hitRatio: requests > 0 ? 1 - reads / requests : 1,
    readsPerTransaction: run.transactions ? reads / run.transactions : 0,
    counters:
      target.engine === 'postgresql'
        ? 'pg_stat_database blks_hit + blks_read (requests) and blks_read (reads) of this database'
        : 'Innodb_buffer_pool_read_requests (requests) and Innodb_buffer_pool_reads (reads, read-ahead not counted)',
    committed: writes && o.commit,
    errors: run.errors,
    notes,
  };
}
