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
import { classifyStatement } from '../sql/classify/classify';
import { ENGINES } from '../measure/engines';
import { statementRole } from './statement-text';

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

/** Refuses what a workload run could not undo or should not send; returns whether any script writes. */
export function checkWorkloadStatements(w: CompiledWorkload, commit: boolean): { writes: boolean } {
  let writes = false;
  for (const s of w.scripts) {
    for (const st of s.statements) {
      if (CONTROL.test(st.text)) continue;
      const role = statementRole(st.text, w.engine === 'postgresql' ? 'postgresql' : 'mysql');
      if (role === 'write') writes = true;
      else if (role !== 'read') {
        throw new WorkloadInputError(
          `${s.script.name}:${st.line}: a workload runs SELECT, INSERT, UPDATE and DELETE statements; "${st.text.trim().split(/\s+/)[0]}" is none of them${commit ? '' : ', and could not be rolled back if it committed implicitly'}`,
        );
      }
    }
  }
  return { writes };
}

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

async function readCounters(target: ConnectionTarget): Promise<Counters> {
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
  writes: boolean,
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
  const begin = writes ? 'BEGIN' : target.engine === 'postgresql' ? 'BEGIN TRANSACTION READ ONLY' : 'START TRANSACTION READ ONLY';
  const end = writes && !o.commit ? 'ROLLBACK' : 'COMMIT';
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
        await session.run(begin);
        for (const statement of sql) if (!CONTROL.test(statement)) await session.run(statement);
        await session.run(end);
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

/**
 * On MySQL and MariaDB a rollback undoes only transactional tables: a write to a MyISAM (or other
 * non-transactional) table, or through a trigger that may write one, is refused unless committing. The
 * catalogs say what each written table is; the text only names it.
 */
async function checkMysqlWriteSet(w: CompiledWorkload, target: ConnectionTarget): Promise<void> {
  const written = new Map<string, string>();
  for (const s of w.scripts)
    for (const st of s.statements)
      for (const t of classifyStatement(st.text, 'mysql').writtenTables) written.set(t, `${s.script.name.replace(/#\d+$/, '')}:${st.line}`);
  if (written.size === 0) return;
  const c = await connectMysql(target);
  try {
    for (const [name, where] of written) {
      const [schema, table] = name.includes('.') ? name.split('.') : [null, name];
      const [rows] = await c.query(
        `SELECT t.ENGINE AS engine, (SELECT COUNT(*) FROM information_schema.TRIGGERS g WHERE g.EVENT_OBJECT_SCHEMA = t.TABLE_SCHEMA AND g.EVENT_OBJECT_TABLE = t.TABLE_NAME) AS triggers
           FROM information_schema.TABLES t WHERE t.TABLE_SCHEMA = COALESCE(?, DATABASE()) AND t.TABLE_NAME = ?`,
        [schema, table],
      );
      const row = (rows as Array<{ engine: string | null; triggers: number }>)[0];
      if (!row) continue; // the server names a missing table when the statement runs
      if (row.engine && row.engine.toUpperCase() !== 'INNODB')
        throw new WorkloadInputError(
          `${where}: ${name} is a ${row.engine} table, which a rollback cannot undo; run the workload on InnoDB tables, or commit on a disposable database`,
        );
      if (Number(row.triggers) > 0)
        throw new WorkloadInputError(`${where}: ${name} has triggers, which may write where a rollback cannot undo; commit on a disposable database to run it`);
    }
  } finally {
    await c.end();
  }
}

/**
 * Measure's gate for every statement of the workload, before any runs: what each reaches beyond its
 * transaction, resolved through the server's catalogs (functions and what they call, triggers, defaults,
 * views), is refused where a rollback cannot undo it. Returns what the report must say.
 */
async function checkReach(w: CompiledWorkload, target: ConnectionTarget, commit: boolean): Promise<string[]> {
  const statements = w.scripts.flatMap((s) =>
    s.statements.filter((st) => st.role !== 'control').map((st) => ({ sql: st.text, where: `${s.script.name.replace(/#\d+$/, '')}:${st.line}` })),
  );
  const unique = [...new Map(statements.map((st) => [st.sql, st])).values()];
  // The text's own verdict first (INTO OUTFILE, in any comment form), as measure's check gives it.
  const dialect = ENGINES[target.engine].dialect;
  for (const st of unique) {
    const refusal = classifyStatement(st.sql, dialect, commit).refusal;
    if (refusal) throw new WorkloadInputError(`${st.where}: ${refusal}`);
  }
  const reach = await ENGINES[target.engine].reach(
    target,
    unique.map((st) => st.sql),
    { commit, allowSideEffects: false },
  );
  const notes = new Set<string>();
  reach.forEach((r, k) => {
    if (r.refusal) throw new WorkloadInputError(`${unique[k].where}: ${r.refusal}`);
    for (const warning of r.warnings) notes.add(`${unique[k].where}: ${warning}.`);
  });
  return [...notes];
}

export async function runWorkload(w: CompiledWorkload, target: ConnectionTarget, o: RunWorkloadOptions): Promise<WorkloadMeasurement> {
  const { writes } = checkWorkloadStatements(w, o.commit);
  if (writes && !o.commit && target.engine === 'mysql') await checkMysqlWriteSet(w, target);
  const reachNotes = await checkReach(w, target, o.commit);
  const seed = o.seed ?? 1;
  const stopIfCancelled = () => {
    if (o.signal?.aborted) throw new WorkloadInputError('cancelled');
  };
  const warm = await drive(w, target, o, writes, { seconds: o.warmupSeconds, transactions: o.warmupTransactions }, seed);
  stopIfCancelled();
  const before = await settledCounters(target, o.signal);
  stopIfCancelled();
  const run = await drive(w, target, o, writes, { seconds: o.seconds, transactions: o.transactions }, seed + 1);
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
  const notes: string[] = [...reachNotes];
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
