// The CLI's command table. Forms and flags follow shared/contracts/cli.md; they are a public contract.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { standaloneHtml } from '../html/standalone-html';
import type { Report } from '../shared/report';
import { reportProblems } from '../store/report-schema';
import { intOption, parse, UsageError } from './args';
import { BadUrlError, parseConnectionUrl, type ConnectionTarget } from '../db/connection-url';
import { measure } from '../measure/measure';
import { formatReport } from './format-report';
import { jsonSafe, terminalSafe } from './terminal';
import { runDemo } from './demo';
import { runBench, runCachesimBench } from './bench';
import { SIMULATE } from './simulate-command';
import type { CliCommand } from './command';
import { engineForDialect } from '../measure/engines';
import { runCheck } from './check';
import { BudgetSyntaxError } from '../shared/budget';
import { checkJson, checkTable } from './check-output';
import { workloadReportProblems, type WorkloadReport } from '../shared/workload-report';
import { runWorkloadCommand, WORKLOAD_DETAILS, WORKLOAD_USAGE } from './workload-command';

export type { CliCommand };

function urlOption(value: string | boolean | undefined): ConnectionTarget {
  if (typeof value !== 'string') throw new UsageError('missing --url');
  try {
    return parseConnectionUrl(value);
  } catch (err) {
    if (err instanceof BadUrlError) throw new UsageError(err.message);
    throw err;
  }
}

function readInput(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let text: string;
  try {
    // Invalid UTF-8 would be replaced silently, and a different statement measured.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${path} is not valid UTF-8 text`);
  }
  // Unusable input is the user's, whatever is wrong with it: a usage error (exit 2), like invalid UTF-8.
  if (text.includes('\0')) throw new UsageError(`${path} contains a NUL character (\\0), which no server accepts in SQL text`);
  return text;
}

export interface MeasureRequest {
  target: ConnectionTarget;
  sql: string;
  runs: number;
  cold: 'no' | 'yes' | 'try';
  json: boolean;
  commit: boolean;
  allowSideEffects: boolean;
  timing: boolean;
  timeoutMs: number;
  createExtension: boolean;
  residency: 'auto' | 'always' | 'never';
  whatIf: boolean;
  whatIfPoolBytes?: number[];
  earlier?: Report;
}

export function parseMeasureArgs(argv: string[]): MeasureRequest {
  const { values, positionals } = parse(
    argv,
    {
      url: { type: 'string' },
      runs: { type: 'string' },
      cold: { type: 'boolean' },
      'cold-try': { type: 'boolean' },
      json: { type: 'boolean' },
      commit: { type: 'boolean' },
      'allow-side-effects': { type: 'boolean' },
      sql: { type: 'string' },
      'no-timing': { type: 'boolean' },
      timeout: { type: 'string' },
      'create-extension': { type: 'boolean' },
      residency: { type: 'string' },
      'no-residency': { type: 'boolean' },
      'what-if': { type: 'string' },
      'no-what-if': { type: 'boolean' },
      earlier: { type: 'string' },
    },
    { min: 0, max: 1, what: 'FILE' },
  );
  const target = urlOption(values.url);
  if (values.sql !== undefined && positionals.length) throw new UsageError('give either --sql TEXT or FILE, not both');
  if (values.sql === undefined && !positionals.length) throw new UsageError('missing the statement: --sql TEXT or FILE');
  const sql = typeof values.sql === 'string' ? values.sql : readInput(positionals[0]);
  return {
    target,
    sql,
    runs: intOption(values.runs, 'runs', 1, 100) ?? 3,
    cold: values['cold-try'] ? 'try' : values.cold ? 'yes' : 'no',
    json: values.json === true,
    commit: values.commit === true,
    allowSideEffects: values['allow-side-effects'] === true,
    timing: values['no-timing'] !== true,
    timeoutMs: (intOption(values.timeout, 'timeout', 1, 86_400) ?? 60) * 1000,
    createExtension: values['create-extension'] === true,
    residency: residencyOption(values.residency, values['no-residency'] === true),
    whatIf: values['no-what-if'] !== true,
    ...(typeof values['what-if'] === 'string' ? { whatIfPoolBytes: parseWhatIf(values['what-if']) } : {}),
    ...(typeof values.earlier === 'string' ? { earlier: earlierReport(values.earlier) } : {}),
  };
}

/** An earlier `measure --json` report of the statement, which run 1's prediction may start from. */
function earlierReport(file: string): Report {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--earlier: ${file} is not a JSON report (${(err as Error).message})`);
  }
  const problems = reportProblems(value);
  if (problems.length) throw new UsageError(`--earlier: ${file} is not a measurement report: ${problems.join('; ')}`);
  return value as Report;
}

const UNITS: Record<string, number> = { kb: 1024, mb: 1048576, gb: 1073741824, tb: 1099511627776 };

/** "pool=64MB,256MB,1GB" → bytes. */
export function parseWhatIf(spec: string): number[] {
  const m = /^pool=(.+)$/i.exec(spec.trim());
  if (!m) throw new UsageError(`--what-if takes pool=SIZE[,SIZE…] (e.g. pool=64MB,256MB,1GB), not "${spec}"`);
  return m[1].split(',').map((part) => {
    const x = /^\s*(\d+(?:\.\d+)?)\s*(kB|MB|GB|TB)\s*$/i.exec(part);
    if (!x) throw new UsageError(`--what-if: "${part}" is not a size like 256MB or 1GB`);
    return Math.round(Number(x[1]) * UNITS[x[2].toLowerCase()]);
  });
}

function residencyOption(value: string | boolean | undefined, off: boolean): 'auto' | 'always' | 'never' {
  if (off) return 'never';
  if (value === undefined) return 'auto';
  if (value === 'auto' || value === 'always' || value === 'never') return value;
  throw new UsageError(`--residency must be auto, always or never, not "${String(value)}"`);
}

export const COMMANDS: CliCommand[] = [
  {
    name: 'measure',
    summary: 'measure the buffer-pool I/O of one statement, run N times',
    usage:
      'bufferlens measure --url URL [--runs N] [--cold | --cold=try] [--json] [--commit] [--allow-side-effects] [--no-timing] ' +
      '[--timeout SECONDS] [--earlier REPORT.json] (--sql TEXT | FILE)',
    details: [
      'URL: postgres://user[:password]@host[:port]/db, postgresql://…, mysql://user[:password]@host[:port]/db',
      '     a Unix socket as ?host=/dir (PostgreSQL) or ?socket=/path (MySQL/MariaDB);',
      '     the password may come from PGPASSWORD / MYSQL_PWD instead.',
      '--runs N        runs of the statement (default 3); run 1 is cold or as found, the rest warm',
      "--cold          evict the statement's relations before run 1; fails where the server cannot",
      '--cold=try      the same, but measure anyway (and say so) where eviction is impossible',
      '--commit        keep the changes of a data-changing statement (default: every run is rolled back)',
      '--allow-side-effects  measure although the statement does what a rollback cannot undo (a file written,',
      '                a remote commit, a signalled session); without it such statements are refused',
      '--no-timing     EXPLAIN ANALYZE without per-node timing, to cut its overhead',
      '--timeout S     per-run statement timeout in seconds (default 60)',
      '--json          print one JSON document (schema: bufferlens-report-v1)',
      '--create-extension  create pg_buffercache in the database when it is missing (PostgreSQL)',
      '--residency auto|always|never  read which pages are cached around each run (auto: not on pools over 2 GiB)',
      '--no-residency  the same as --residency=never',
      '--what-if pool=64MB,256MB,1GB  re-simulate the runs with these pool sizes (default: ¼× to 8× the current)',
      '--no-what-if    skip the what-if re-simulations',
      '--earlier REPORT.json  an earlier --json report of the same statement: where its last run read no page and every',
      '                page it left cached still is, run 1 is predicted to find its pages cached; where it is of the',
      '                same write, rolled back, run 1 is predicted as the run after its runs (PostgreSQL)',
      '',
      'Ctrl-C (or SIGTERM, SIGHUP) stops the running statement on the server; nothing is left open.',
    ],
    async run(argv) {
      const req = parseMeasureArgs(argv);
      const abort = new AbortController();
      // Ctrl-C, a kill and a closed terminal all stop the statement on the server; nothing is left running.
      const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
      const onSignal = () => abort.abort();
      for (const s of signals) process.on(s, onSignal);
      try {
        const report = await measure(req.target, { ...req, signal: abort.signal });
        process.stdout.write(req.json ? jsonSafe(JSON.stringify(report, null, 2)) + '\n' : terminalSafe(formatReport(report)));
        return 0;
      } finally {
        for (const s of signals) process.off(s, onSignal);
      }
    },
  },
  {
    name: 'split',
    summary: "split a SQL file into statements, as the editor's CodeLens does",
    usage: 'bufferlens split --dialect postgresql|mysql [--json] FILE',
    details: ['--json   print [{"sql", "start": {"line", "character"}, "end": {…}}] with 0-based positions'],
    async run(argv) {
      const { values, positionals } = parse(argv, { dialect: { type: 'string' }, json: { type: 'boolean' } }, { min: 1, max: 1, what: 'FILE' });
      if (values.dialect !== 'postgresql' && values.dialect !== 'mysql') throw new UsageError('--dialect must be postgresql or mysql');
      const text = readInput(positionals[0]);
      const statements = engineForDialect(values.dialect).split(text);
      if (values.json) {
        process.stdout.write(jsonSafe(JSON.stringify(statements.map((st) => ({ sql: st.sql, start: st.start, end: st.end })))) + '\n');
      } else {
        for (const st of statements)
          process.stdout.write(terminalSafe(`-- ${st.start.line + 1}:${st.start.character + 1}–${st.end.line + 1}:${st.end.character + 1}\n${st.sql};\n\n`));
      }
      return 0;
    },
  },
  {
    name: 'report',
    summary: 'render a saved JSON report as one self-contained HTML page',
    usage: 'bufferlens report --html OUT.html [--theme light|dark] REPORT.json',
    details: [
      'The page is self-contained (script, styles and data inline) and loads nothing from the network.',
      'REPORT.json is a measurement report or a workload report (workload predict|run --json).',
    ],
    async run(argv) {
      const { values, positionals } = parse(argv, { html: { type: 'string' }, theme: { type: 'string' } }, { min: 1, max: 1, what: 'REPORT.json' });
      if (typeof values.html !== 'string') throw new UsageError('missing --html OUT.html');
      const theme = values.theme ?? 'light';
      if (theme !== 'light' && theme !== 'dark') throw new UsageError('--theme must be light or dark');
      let parsed: unknown;
      try {
        parsed = JSON.parse(readInput(positionals[0]));
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError(`${positionals[0]} is not JSON: ${(err as Error).message}`);
      }
      if ((parsed as { bufferlensWorkload?: unknown } | null)?.bufferlensWorkload !== undefined) {
        const wp = workloadReportProblems(parsed);
        if (wp.length) throw new UsageError(`${positionals[0]} is not a valid BufferLens workload report: ${wp.join('; ')}`);
        writeFileSync(values.html, standaloneHtml({ type: 'showWorkload', report: parsed as WorkloadReport }, join(__dirname, '..', 'media'), theme));
        process.stdout.write(`${values.html}\n`);
        return 0;
      }
      const problems = reportProblems(parsed);
      if (problems.length) throw new UsageError(`${positionals[0]} is not a valid BufferLens report (schemaVersion 1): ${problems.join('; ')}`);
      const report = parsed as Report;
      writeFileSync(values.html, standaloneHtml({ type: 'showReport', report }, join(__dirname, '..', 'media'), theme));
      process.stdout.write(`${values.html}\n`);
      return 0;
    },
  },
  {
    name: 'check',
    summary: 'measure every statement with a page budget and fail on a breach (for CI)',
    usage: 'bufferlens check --url URL [--runs N] [--budgets FILE.json] [--junit FILE] [--json] [--update [--margin PCT]] [--timeout SECONDS] [FILE.sql …]',
    details: [
      'A budget is a comment line directly above a statement:',
      '  -- bufferlens: budget logical <= 1200, physical(cold) <= 300 +10%, read-ahead(cold) <= 0',
      'metric: logical | physical | read-ahead; runs: (cold) run 1 from a cold pool, (warm) runs 2 and later,',
      '(any) every run (the default, for logical reads only); operator <=, <, = or >=; +N% (±N% for =) tolerance.',
      'The worst run a bound applies to decides. A bound that cannot be checked reliably on the server is',
      'refused with the reason: physical or read-ahead reads without (cold) or (warm), read-ahead on PostgreSQL,',
      'a (cold) bound where run 1 could not be cold (PostgreSQL 15/16 and InnoDB: only right after a restart).',
      '--budgets FILE  statements kept elsewhere: {"budgets": [{"name": …, "sql": …, "budget": "logical <= 1200"}]}',
      '--runs N        runs per statement (default 3)',
      '--junit FILE    JUnit XML: a test case per statement, a failure per breach, an error per unchecked bound',
      '--json          one JSON document: {"exitCode", "statements": [{"file", "line", "sql", "bounds": […]}]}',
      '--update        rewrite the budgets from the numbers measured now, upper bounds with a margin',
      '--margin PCT    the margin of --update (default 10)',
      'Every statement runs as `measure` runs it: inside a transaction that is rolled back.',
      'Exit 0: all within; 1: a budget breached; 2: a budget not checked, unreadable, or a statement failed (2 wins over 1: no verdict).',
    ],
    async run(argv) {
      const { values, positionals } = parse(
        argv,
        {
          url: { type: 'string' },
          runs: { type: 'string' },
          budgets: { type: 'string' },
          junit: { type: 'string' },
          json: { type: 'boolean' },
          update: { type: 'boolean' },
          margin: { type: 'string' },
          timeout: { type: 'string' },
        },
        { min: 0, max: 1000, what: 'FILE.sql' },
      );
      const target = urlOption(values.url);
      if (!positionals.length && typeof values.budgets !== 'string') throw new UsageError('name the budgeted files: FILE.sql … or --budgets FILE.json');
      for (const f of positionals) readInput(f);
      if (typeof values.budgets === 'string') readInput(values.budgets);
      const abort = new AbortController();
      const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
      const onSignal = () => abort.abort();
      for (const s of signals) process.on(s, onSignal);
      try {
        const { checked, exitCode } = await runCheck({
          target,
          files: positionals,
          ...(typeof values.budgets === 'string' ? { budgetsFile: values.budgets } : {}),
          runs: intOption(values.runs, 'runs', 1, 100) ?? 3,
          timeoutMs: (intOption(values.timeout, 'timeout', 1, 86_400) ?? 60) * 1000,
          json: values.json === true,
          ...(typeof values.junit === 'string' ? { junit: values.junit } : {}),
          update: values.update === true,
          margin: (intOption(values.margin, 'margin', 0, 1000) ?? 10) / 100,
          signal: abort.signal,
        });
        if (abort.signal.aborted) throw new UsageError('cancelled');
        process.stdout.write(values.json ? jsonSafe(checkJson(checked, exitCode)) + '\n' : terminalSafe(checkTable(checked)));
        return exitCode;
      } catch (err) {
        if (err instanceof SyntaxError) throw new UsageError(`the budgets file is not JSON: ${err.message}`);
        if (err instanceof BudgetSyntaxError) throw new UsageError(err.message);
        throw err;
      } finally {
        for (const s of signals) process.off(s, onSignal);
      }
    },
  },
  {
    name: 'workload',
    summary: 'predict the pool-size curve of a statement mix, and measure it on the server',
    usage: WORKLOAD_USAGE,
    details: WORKLOAD_DETAILS,
    run: (argv) => runWorkloadCommand(argv, urlOption),
  },
  SIMULATE,
  {
    name: 'bench',
    summary: 'benchmark the buffer-pool simulator against a plain LRU baseline, or against libCacheSim',
    usage: 'bufferlens bench [--json] [--accesses N] [--workload-accesses N] [--cachesim PATH [--trace FILE] [--rounds N] [--pool PAGES]]',
    details: [
      '--accesses N            trace length per run (default 10,000,000)',
      '--workload-accesses N   requests of the generated workload whose pool-size curve is timed (default 10,000,000; 0 leaves it out)',
      "--cachesim PATH         time whole-process replays of this program and libCacheSim's cachesim side by side",
      '                        on the same oracleGeneral files (the generated miss-heavy and hit-heavy traces)',
      '--trace FILE            an oracleGeneral trace of your own instead of the generated ones',
      '--rounds N              timings per program, the median kept (default 3)',
      '--pool PAGES            the cache size in pages (default 65,536)',
    ],
    async run(argv) {
      const { values } = parse(
        argv,
        {
          json: { type: 'boolean' },
          accesses: { type: 'string' },
          'workload-accesses': { type: 'string' },
          cachesim: { type: 'string' },
          trace: { type: 'string' },
          rounds: { type: 'string' },
          pool: { type: 'string' },
        },
        { min: 0, max: 0, what: '' },
      );
      const accesses = intOption(values.accesses, 'accesses', 1000, 100_000_000) ?? 10_000_000;
      if (typeof values.cachesim === 'string') {
        return runCachesimBench({
          json: values.json === true,
          cachesim: values.cachesim,
          trace: typeof values.trace === 'string' ? values.trace : undefined,
          accesses,
          rounds: intOption(values.rounds, 'rounds', 1, 99) ?? 3,
          pool: intOption(values.pool, 'pool', 1, 1 << 26) ?? 65_536,
        });
      }
      for (const flag of ['trace', 'rounds', 'pool']) if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with --cachesim PATH`);
      return runBench(values.json === true, accesses, intOption(values['workload-accesses'], 'workload-accesses', 0, 200_000_000) ?? 10_000_000);
    },
  },
  {
    name: 'demo',
    summary: 'start an embedded PostgreSQL, load sample data and measure sample statements',
    usage: 'bufferlens demo',
    details: [],
    async run(argv) {
      parse(argv, {}, { min: 0, max: 0, what: '' });
      await runDemo();
      return 0;
    },
  },
];
