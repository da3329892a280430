// `workload predict`: compile the workload on the server (plans and catalogs only; nothing is executed),
// build one trace of its transactions, and replay it at every pool size.
import type { ConnectionTarget } from '../db/connection-url';
import { connectPostgres } from '../db/postgres';
import { connectMysql } from '../db/mysql';
import type { CompiledWorkload } from './compiled';
import { dataPages } from './compiled';
import { defaultSizes, poolCurve } from './curve';
import type { Value } from './expression';
import { InnodbWorkloadModel } from './innodb-model';
import { usesVariable, WorkloadInputError } from './load-scripts';
import { PostgresWorkloadModel } from './postgres-model';
import type { WorkloadScript } from './script';
import { buildTrace } from './trace';
import { workloadReport } from './workload-report';
import { gateWorkload } from './workload-gate';
import type { WorkloadReport } from '../shared/workload-report';

export interface PredictWorkloadOptions {
  scripts: WorkloadScript[];
  fixed: Map<string, Value>;
  /** Transactions before the counted ones; undefined: enough to fill the largest pool several times. */
  warmup?: number;
  transactions?: number;
  /** Pool sizes in bytes; always with the current size; undefined: powers of two from 8 MiB to twice the data. */
  sizes?: number[];
  /** Transactions per second, for reads per second. */
  tps?: number;
  seed?: number;
}

/** pgbench's :scale when a script needs it and it was not given: the rows of pgbench_branches. */
async function pgbenchScale(query: (sql: string) => Promise<number>, options: PredictWorkloadOptions): Promise<void> {
  if (options.fixed.has('scale') || !usesVariable(options.scripts, 'scale')) return;
  try {
    options.fixed.set('scale', { int: true, v: await query('SELECT count(*) AS n FROM pgbench_branches') });
  } catch {
    throw new WorkloadInputError('the workload uses :scale and pgbench_branches could not be counted: set it (scale=N)');
  }
}

export async function compileWorkload(target: ConnectionTarget, options: PredictWorkloadOptions): Promise<CompiledWorkload> {
  // EXPLAIN runs nothing of a write, but planning evaluates immutable functions: what they reach is gated.
  await gateWorkload(options.scripts, target, { commit: true, allowSideEffects: false });
  if (target.engine === 'postgresql') {
    const client = await connectPostgres(target);
    try {
      // Read-only: EXPLAIN without ANALYZE plans a write without running it, and this makes sure.
      await client.query('BEGIN TRANSACTION READ ONLY');
      await pgbenchScale(async (sql) => Number((await client.query(sql)).rows[0].n), options);
      return await new PostgresWorkloadModel(client).compile(options.scripts, options.fixed);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  }
  const conn = await connectMysql(target);
  try {
    // MySQL and MariaDB refuse even EXPLAIN of an UPDATE in a read-only transaction. EXPLAIN without
    // ANALYZE does not run the statement; the transaction is rolled back all the same.
    await conn.query('START TRANSACTION');
    await pgbenchScale(async (sql) => Number(((await conn.query(sql))[0] as Array<{ n: number }>)[0].n), options);
    return await new InnodbWorkloadModel(conn).compile(options.scripts, options.fixed);
  } finally {
    await conn.query('ROLLBACK').catch(() => undefined);
    await conn.end().catch(() => undefined);
  }
}

/** Transactions enough for about `accesses` page requests, from a short trial of the mix. */
function transactionsFor(w: CompiledWorkload, accesses: number, seed: number): number {
  const trial = buildTrace(w, 0, 2000, seed + 1);
  const perTx = Math.max(1, trial.accesses.length / 2000);
  return Math.max(1000, Math.ceil(accesses / perTx));
}

function withPoolNow(sizes: number[], poolPages: number): number[] {
  return [...new Set([...sizes, ...(poolPages > 0 ? [poolPages] : [])])].sort((a, b) => a - b);
}

export function predictCompiled(w: CompiledWorkload, options: PredictWorkloadOptions): WorkloadReport {
  const seed = options.seed ?? 1;
  // The pool now is always among the sizes, given or not: the per-statement numbers and "4× the pool now"
  // are read at it.
  const sizes = options.sizes
    ? withPoolNow(
        options.sizes.map((b) => Math.max(1, Math.round(b / w.pageBytes))),
        w.poolPages,
      )
    : defaultSizes(w);
  // Every page of the largest pool is requested a dozen times during warm-up, so the pool reaches its
  // steady state; the counted part is as long again.
  const span = Math.min(50_000_000, Math.max(1_000_000, 12 * Math.max(dataPages(w), Math.max(...sizes))));
  const warmup = options.warmup ?? transactionsFor(w, span, seed);
  const transactions = options.transactions ?? transactionsFor(w, span, seed);
  const trace = buildTrace(w, warmup, transactions, seed);
  // At a known rate, time-based rules see the real pace: requests per transaction × transactions per second.
  const perTx = trace.accesses.length / Math.max(1, warmup + transactions);
  const curve = poolCurve(w, trace, sizes, options.tps ? { accessesPerSecond: options.tps * perTx } : {});
  return workloadReport(w, trace, curve, seed, options.tps);
}

export async function predictWorkload(target: ConnectionTarget, options: PredictWorkloadOptions): Promise<WorkloadReport> {
  return predictCompiled(await compileWorkload(target, options), options);
}
