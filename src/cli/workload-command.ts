// `bufferlens workload predict|run`: the pool-size curve of a statement mix, and its measured point.
import { writeFileSync } from 'node:fs';
import { intOption, parse, UsageError } from './args';
import type { ConnectionTarget } from '../db/connection-url';
import { jsonSafe, terminalSafe } from './terminal';
import { workloadTable } from './workload-output';
import { fixedVariables, loadScripts, WorkloadInputError } from '../workload/load-scripts';
import { compileWorkload, predictCompiled, type PredictWorkloadOptions } from '../workload/predict-workload';
import { runWorkload } from '../workload/run-workload';
import { ScriptError } from '../workload/script';
import { workloadFromStatistics } from '../workload/from-statistics';
import { addThroughput } from '../workload/workload-report';
import { parseTarget, recommend, TARGET_FORMS, TargetSyntaxError } from '../workload/target';

const MiB = 1048576;

function sizesOption(value: string | boolean | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const out = String(value)
    .split(',')
    .map((s) => {
      const m = /^(\d+(?:\.\d+)?)\s*(MB|MiB|M|GB|GiB|G)?$/i.exec(s.trim());
      if (!m) throw new UsageError(`--sizes takes sizes like 64MB,1GB, not "${s}"`);
      return Number(m[1]) * (/^g/i.test(m[2] ?? 'M') ? 1024 * MiB : MiB);
    });
  return [...new Set(out)].sort((a, b) => a - b);
}

export const WORKLOAD_USAGE =
  'bufferlens workload predict|run --url URL [--builtin NAME[@W]]… [FILE[@W]]… [--set name=value]… [--json] [--out FILE]\n' +
  '       bufferlens workload from-stats --url URL [--top N] [--out FILE]';

export const WORKLOAD_DETAILS = [
  'A workload is pgbench custom scripts (\\set name random(1, 100000 * :scale), random_zipfian, random_exponential,',
  "random_gaussian; sysbench's random_special, random_pareto; :name substitution), one transaction per script,",
  'chosen by weight (FILE@W). A file whose statements carry "-- bufferlens: weight N" lines is a mix of its own.',
  'The same syntax serves MySQL/MariaDB.',
  "--builtin NAME[@W]   pgbench's select-only, simple-update or tpcb-like",
  '--set name=value     a fixed variable (pgbench -D); :scale defaults to the rows of pgbench_branches',
  '--sizes 64MB,1GB     pool sizes to predict, and always the pool now (default: 8 MiB to twice the data)',
  '--warmup-transactions N, --transactions N   simulated (predict) or run (run) transactions',
  '--tps N              transactions per second, for reads per second',
  `--target T           the smallest pool on the curve that reaches T: ${TARGET_FORMS}`,
  '                     (transactions per second and p95 latency come from workload run; --sizes sets the grid)',
  '--seed N             the draw of parameters',
  "predict  EXPLAINs each statement (nothing runs), replays the mix through the engine's pool model",
  'run      also drives the workload with --sessions N (default 4) for --warmup SECONDS (default 10) and',
  '         --duration SECONDS (default 30), reads only in read-only transactions, writes rolled back unless',
  "         --commit --disposable DB names the URL's database; then predicts the same transactions",
  "from-stats  writes a workload of the server's top statements by calls (pg_stat_statements; MySQL/MariaDB",
  "         performance_schema digests), each parameter drawn uniformly over its indexed column's range",
  'Exit 0 on success, 2 on bad input, 1 when the server fails.',
];

/** A workload's own input errors (a script, a -D value) are the user's: said as usage errors. */
function inputErrorsAsUsage<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof WorkloadInputError || err instanceof ScriptError || err instanceof TargetSyntaxError) throw new UsageError(err.message);
    throw err;
  }
}

function workloadOptions(
  positionals: string[],
  v: Record<string, string | boolean | string[] | undefined>,
  list: (x: unknown) => string[],
): PredictWorkloadOptions {
  return {
    scripts: loadScripts(positionals, list(v.builtin)),
    fixed: fixedVariables(list(v.set)),
    sizes: sizesOption(v.sizes as string | undefined),
    warmup: intOption(v['warmup-transactions'] as string | undefined, 'warmup-transactions', 0, 1e9),
    transactions: intOption(v.transactions as string | undefined, 'transactions', 1, 1e9),
    tps: intOption(v.tps as string | undefined, 'tps', 1, 1e9),
    seed: intOption(v.seed as string | undefined, 'seed', 0, 2 ** 31) ?? 1,
  };
}

export async function runWorkloadCommand(argv: string[], urlOption: (v: string | boolean | undefined) => ConnectionTarget): Promise<number> {
  const [mode, ...rest] = argv;
  if (mode === 'from-stats') return fromStats(rest, urlOption);
  if (mode !== 'predict' && mode !== 'run') throw new UsageError('workload takes predict, run or from-stats');
  const { values, positionals } = parse(
    rest,
    {
      url: { type: 'string' },
      builtin: { type: 'string', multiple: true },
      set: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      out: { type: 'string' },
      sizes: { type: 'string' },
      'warmup-transactions': { type: 'string' },
      transactions: { type: 'string' },
      tps: { type: 'string' },
      seed: { type: 'string' },
      sessions: { type: 'string' },
      warmup: { type: 'string' },
      duration: { type: 'string' },
      commit: { type: 'boolean' },
      disposable: { type: 'string' },
      target: { type: 'string' },
    },
    { min: 0, max: 100, what: 'FILE' },
  );
  const target = urlOption(values.url);
  const v = values as Record<string, string | boolean | string[] | undefined>;
  const list = (x: unknown): string[] => (Array.isArray(x) ? x : typeof x === 'string' ? [x] : []);
  const commit = v.commit === true;
  if (commit && mode !== 'run') throw new UsageError('--commit applies to workload run');
  if (commit && (typeof v.disposable !== 'string' || v.disposable !== target.database)) {
    throw new UsageError(`--commit keeps the workload's changes: name the URL's database as disposable with --disposable ${target.database ?? 'DB'}`);
  }
  const options = inputErrorsAsUsage(() => workloadOptions(positionals, v, list));
  const goal = typeof v.target === 'string' ? inputErrorsAsUsage(() => parseTarget(v.target as string)) : undefined;
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const s of signals) process.on(s, onSignal);
  try {
    const compiled = await compileWorkload(target, options);
    let report;
    if (mode === 'run') {
      const measured = await runWorkload(compiled, target, {
        sessions: intOption(v.sessions as string | undefined, 'sessions', 1, 256) ?? 4,
        warmupSeconds: intOption(v.warmup as string | undefined, 'warmup', 0, 86_400) ?? 10,
        seconds: intOption(v.duration as string | undefined, 'duration', 1, 86_400) ?? 30,
        warmupTransactions: options.warmup,
        transactions: options.transactions,
        commit,
        signal: abort.signal,
        seed: options.seed,
      });
      // The prediction replays as many transactions as ran, from an empty pool.
      report = predictCompiled(compiled, {
        ...options,
        warmup: measured.warmupTransactions,
        transactions: Math.max(1, measured.transactions),
        tps: options.tps ?? Math.round(measured.transactionsPerSecond),
      });
      report.measured = measured;
      addThroughput(report);
    } else report = predictCompiled(compiled, options);
    if (goal) report.target = recommend(report, goal);
    const text = values.json ? jsonSafe(JSON.stringify(report, null, 2)) + '\n' : terminalSafe(workloadTable(report));
    if (typeof values.out === 'string') writeFileSync(values.out, jsonSafe(JSON.stringify(report, null, 2)) + '\n');
    process.stdout.write(text);
    return 0;
  } catch (err) {
    if (err instanceof WorkloadInputError || err instanceof ScriptError) throw new UsageError(err.message);
    throw err;
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
}

async function fromStats(argv: string[], urlOption: (v: string | boolean | undefined) => ConnectionTarget): Promise<number> {
  const { values } = parse(argv, { url: { type: 'string' }, top: { type: 'string' }, out: { type: 'string' } }, { min: 0, max: 0, what: '' });
  const target = urlOption(values.url);
  try {
    const text = (await workloadFromStatistics(target, intOption(values.top, 'top', 1, 1000) ?? 10)) ?? '';
    if (typeof values.out === 'string') writeFileSync(values.out, text);
    process.stdout.write(typeof values.out === 'string' ? `${values.out}\n` : terminalSafe(text));
    return 0;
  } catch (err) {
    if (err instanceof WorkloadInputError) throw new UsageError(err.message);
    throw err;
  }
}
