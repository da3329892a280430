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
import { openCounterReader, settledCounters } from './counter-sampler';
import { costsFromPairs, costsFromReadTime, latencyStats, type PairedRound } from './throughput';

/** How long each completed transaction took, ms. */
type TransactionLog = number[];

interface Pick {
  script: number;
  sql: string[];
  sleepMicros: number;
}

/**
 * Draws and runs the mix's transactions: each script's as the gate decided its statements (read-only unless
 * one of them writes), the script's own BEGIN/END left out. `rollBack` overrides a commit (the probe's).
 */
function transactionRunner(w: CompiledWorkload, target: ConnectionTarget, modes: RunMode[]) {
  const readOnly = target.engine === 'postgresql' ? 'BEGIN TRANSACTION READ ONLY' : 'START TRANSACTION READ ONLY';
  const bracket = modes.map((m) => ({ begin: m === 'read-only' ? readOnly : 'BEGIN', end: m === 'committed' ? 'COMMIT' : 'ROLLBACK' }));
  const cumulative: number[] = [];
  let total = 0;
  for (const s of w.scripts) cumulative.push((total += s.script.weight));
  return {
    pick(rnd: SeededRandom): Pick {
      const at = rnd.next() * total;
      let script = 0;
      while (cumulative[script] <= at) script++;
      const { sql, sleepMicros } = executeScript(w.scripts[script].script, { variables: new Map<string, Value>(w.fixed), random: rnd });
      return { script, sql, sleepMicros };
    },
    /** Runs one transaction; returns its latency, ms. */
    async run(session: DriverSession, pick: Pick, rollBack = false): Promise<number> {
      const began = performance.now();
      await session.run(bracket[pick.script].begin);
      for (const statement of pick.sql) if (!CONTROL.test(statement)) await session.run(statement);
      await session.run(rollBack ? 'ROLLBACK' : bracket[pick.script].end);
      return performance.now() - began;
    },
  };
}

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

async function openSessions(target: ConnectionTarget, n: number): Promise<DriverSession[]> {
  const open = target.engine === 'postgresql' ? postgresSession : mysqlSession;
  const sessions: DriverSession[] = [];
  try {
    for (let i = 0; i < n; i++) sessions.push(await open(target));
  } catch (err) {
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
    throw err;
  }
  return sessions;
}

/** The probe's length: rounds until either limit. */
const PROBE_SECONDS = 5;
const PROBE_ROUNDS = 200;

/**
 * The paired probe that tells a page read's cost apart (throughput.ts): each round every session runs a newly
 * drawn transaction, then the same one again, the server's reads counted around each half. Rolled back
 * whatever the mix does: these transactions are the measurement's, not the workload's.
 */
async function probeReadCost(w: CompiledWorkload, target: ConnectionTarget, o: RunWorkloadOptions, modes: RunMode[], seed: number): Promise<PairedRound[]> {
  const sessions = await openSessions(target, o.sessions);
  const tx = transactionRunner(w, target, modes);
  // PostgreSQL's sessions report their counts at most once a second unless asked to at once.
  const report = target.engine === 'postgresql' ? 'SELECT pg_stat_force_next_flush()' : undefined;
  const rnds = sessions.map((_, k) => new SeededRandom(seed * 104729 + k));
  const rounds: PairedRound[] = [];
  const onAbort = () => void Promise.all(sessions.map((s) => s.cancel().catch(() => undefined)));
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let reader;
  try {
    reader = await openCounterReader(target);
    const deadline = performance.now() + PROBE_SECONDS * 1000;
    while (!o.signal?.aborted && rounds.length < PROBE_ROUNDS && performance.now() < deadline) {
      const picks = rnds.map((r) => tx.pick(r));
      const half = async () => {
        const ms = await Promise.all(
          sessions.map(async (s, k) => {
            const latency = await tx.run(s, picks[k], true);
            if (report) await s.run(report);
            return latency;
          }),
        );
        return ms.reduce((a, b) => a + b, 0);
      };
      try {
        const r0 = (await reader.read()).reads;
        const firstMs = await half();
        const r1 = (await reader.read()).reads;
        const repeatMs = await half();
        const r2 = (await reader.read()).reads;
        rounds.push({ transactions: sessions.length, firstMs, repeatMs, firstReads: r1 - r0, repeatReads: r2 - r1 });
      } catch {
        // A failed transaction ends the probe with the rounds it has; the sessions leave nothing open.
        await Promise.all(sessions.map((s) => s.run('ROLLBACK').catch(() => undefined)));
        break;
      }
    }
    return rounds;
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    await reader?.close().catch(() => undefined);
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  }
}

/** One phase: sessions run transactions until the deadline or the count; returns transactions and errors. */
async function drive(
  w: CompiledWorkload,
  target: ConnectionTarget,
  o: RunWorkloadOptions,
  modes: RunMode[],
  limit: { seconds: number; transactions?: number },
  seed: number,
  log: TransactionLog,
): Promise<{ transactions: number; errors: number; seconds: number; firstError?: string }> {
  const sessions = await openSessions(target, o.sessions);
  const tx = transactionRunner(w, target, modes);
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
      const pick = tx.pick(rnd);
      try {
        log.push(await tx.run(session, pick));
        done++;
      } catch (err) {
        errors++;
        firstError ??= (err as Error).message;
        await session.run('ROLLBACK').catch(() => undefined);
        if (errors > 100 && errors > done) throw new Error(`the workload fails: ${firstError}`, { cause: err });
      }
      if (pick.sleepMicros > 0) await new Promise((r) => setTimeout(r, pick.sleepMicros / 1000));
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

/** The measured phase, between two settled readings of the server's counters by one reader. */
async function countedRun(w: CompiledWorkload, target: ConnectionTarget, o: RunWorkloadOptions, modes: RunMode[], seed: number, runLog: TransactionLog) {
  const counters = await openCounterReader(target);
  try {
    const before = await settledCounters(counters, target.engine, o.signal);
    if (o.signal?.aborted) throw new WorkloadInputError('cancelled');
    const cpuBefore = process.cpuUsage();
    const run = await drive(w, target, o, modes, { seconds: o.seconds, transactions: o.transactions }, seed, runLog);
    const cpu = process.cpuUsage(cpuBefore);
    if (o.signal?.aborted) throw new WorkloadInputError('cancelled');
    return { before, run, cpu, after: await settledCounters(counters, target.engine, o.signal) };
  } finally {
    await counters.close().catch(() => undefined);
  }
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
  const runLog: TransactionLog = [];
  const warm = await drive(w, target, o, gate.modes, { seconds: o.warmupSeconds, transactions: o.warmupTransactions }, seed, []);
  stopIfCancelled();
  const { before, run, cpu, after } = await countedRun(w, target, o, gate.modes, seed + 1, runLog);
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
  const latency = latencyStats(runLog);
  const readsPerTransaction = reads / run.transactions;
  const timed = before.readTimeMs !== undefined && after.readTimeMs !== undefined;
  // The server's own read time where it keeps one; else the paired probe, after the run (it disturbs nothing counted).
  const fitted = timed
    ? costsFromReadTime(after.readTimeMs! - before.readTimeMs!, reads, latency.meanMs, readsPerTransaction)
    : await probeReadCost(w, target, o, gate.modes, seed + 2).then(
        (rounds) => costsFromPairs(rounds, latency.meanMs, readsPerTransaction),
        // The run's measurement stands without the probe; only the costs are then not reported.
        (err: Error) => ({ notReported: `the probe that tells a page read's cost failed: ${err.message}` }),
      );
  stopIfCancelled();
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
    readsPerTransaction,
    counters:
      target.engine === 'postgresql'
        ? 'pg_stat_database blks_hit + blks_read (requests) and blks_read (reads) of this database'
        : 'Innodb_buffer_pool_read_requests (requests) and Innodb_buffer_pool_reads (reads, read-ahead not counted)',
    committed: writes && o.commit,
    errors: run.errors,
    latency,
    clientCpuShare: (cpu.user + cpu.system) / 1e6 / Math.max(0.001, run.seconds),
    ...('costs' in fitted ? { costs: fitted.costs } : { costsNotReported: fitted.notReported }),
    notes,
  };
}
