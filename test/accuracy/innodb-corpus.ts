// An InnoDB accuracy corpus shaped like a real OLTP benchmark rather than like the model: sysbench's schema
// (sbtestN: id AUTO_INCREMENT, k with a secondary index built after the load, c CHAR(120), pad CHAR(60)),
// its statement classes with uniformly drawn parameters, plus the analytic and join shapes users write
// (aliases, LIMIT, ORDER BY), on tables larger than the pool, at three pool sizes, cold (restart) and warm
// (after a mixed workload). Shared by scripts/innodb-corpus.ts, which publishes it in docs/accuracy.md and
// records each prediction input for the property test. Not a test file itself.
import { createConnection, type Connection } from 'mysql2/promise';
import { LocalInnodbServer, type InnodbServerBinaries } from '../../src/local-server/mariadb';
import { parseConnectionUrl, type ConnectionTarget } from '../../src/db/connection-url';
import { measure } from '../../src/measure/measure';
import type { Report } from '../../src/shared/report';
import type { PredictFixtureInput } from '../predict/fixture-loop';
import { SeededRandom } from '../../src/sim/random';

export const TABLES = 4;
export const ROWS = 150_000;

/** The project's seeded generator as a function, so the corpus draws the same parameters every time. */
export function seeded(seed: number): () => number {
  const r = new SeededRandom(seed);
  return () => r.next();
}

export interface CorpusStatement {
  /** The statement class, e.g. "point select". */
  shape: string;
  sql: string;
}

/** sysbench-style strings: groups of 11 digits joined by '-'. */
export function digits(rand: () => number, groups: number): string {
  return Array.from({ length: groups }, () => String(Math.floor(rand() * 1e11)).padStart(11, '0')).join('-');
}

/** One draw of every statement class; `rand` picks the tables and parameters. */
export function corpusStatements(rand: () => number): CorpusStatement[] {
  const table = () => `sbtest${1 + Math.floor(rand() * TABLES)}`;
  const id = (span = 0) => 1 + Math.floor(rand() * (ROWS - span));
  const k = id;
  const statements: Array<[string, (t: string) => string]> = [
    ['point select', (t) => `SELECT c FROM ${t} WHERE id = ${id()}`],
    [
      'primary range (sysbench simple range, 100 rows)',
      (t) => {
        const a = id(100);
        return `SELECT c FROM ${t} WHERE id BETWEEN ${a} AND ${a + 99}`;
      },
    ],
    [
      'sum over a primary range',
      (t) => {
        const a = id(100);
        return `SELECT SUM(k) FROM ${t} WHERE id BETWEEN ${a} AND ${a + 99}`;
      },
    ],
    [
      'primary range ORDER BY c',
      (t) => {
        const a = id(100);
        return `SELECT c FROM ${t} WHERE id BETWEEN ${a} AND ${a + 99} ORDER BY c`;
      },
    ],
    [
      'DISTINCT over a primary range',
      (t) => {
        const a = id(100);
        return `SELECT DISTINCT c FROM ${t} WHERE id BETWEEN ${a} AND ${a + 99} ORDER BY c`;
      },
    ],
    [
      'wide primary range, 5,000 rows',
      (t) => {
        const a = id(5000);
        return `SELECT COUNT(*), MAX(LENGTH(pad)) FROM ${t} WHERE id BETWEEN ${a} AND ${a + 4999}`;
      },
    ],
    ['primary range with LIMIT', (t) => `SELECT id, c FROM ${t} WHERE id > ${id(2000)} ORDER BY id LIMIT 1000`],
    [
      'secondary range with row lookups',
      (t) => {
        const a = k(400);
        return `SELECT id, c FROM ${t} WHERE k BETWEEN ${a} AND ${a + 399}`;
      },
    ],
    [
      'secondary range, covering index',
      (t) => {
        const a = k(20000);
        return `SELECT COUNT(*) FROM ${t} WHERE k BETWEEN ${a} AND ${a + 19999}`;
      },
    ],
    ['secondary ORDER BY with LIMIT', (t) => `SELECT id, pad FROM ${t} WHERE k > ${k(1000)} ORDER BY k LIMIT 50`],
    [
      'aliased join on the primary key',
      (t) => {
        const a = id(300);
        return `SELECT a.id, b.c FROM ${t} a JOIN sbtest${1 + (Number(t.slice(6)) % TABLES)} b ON b.id = a.id WHERE a.id BETWEEN ${a} AND ${a + 299}`;
      },
    ],
    [
      'aliased join through k (random lookups)',
      (t) => {
        const a = id(300);
        return `SELECT COUNT(b.pad) FROM ${t} AS a JOIN sbtest${1 + (Number(t.slice(6)) % TABLES)} AS b ON b.id = a.k WHERE a.id BETWEEN ${a} AND ${a + 299}`;
      },
    ],
    ['full scan with a filter', (t) => `SELECT COUNT(*) FROM ${t} WHERE c LIKE '%${Math.floor(rand() * 90) + 10}-99%'`],
    ['index update (k = k + 1 by id)', (t) => `UPDATE ${t} SET k = k + 1 WHERE id = ${id()}`],
    ['non-index update (c by id)', (t) => `UPDATE ${t} SET c = '${digits(rand, 10)}' WHERE id = ${id()}`],
    ['delete by id', (t) => `DELETE FROM ${t} WHERE id = ${id()}`],
    ['single-row insert', (t) => `INSERT INTO ${t} (k, c, pad) VALUES (${k()}, '${digits(rand, 10)}', '${digits(rand, 5)}')`],
    [
      'batch update of a primary range, 1,000 rows',
      (t) => {
        const a = id(1000);
        return `UPDATE ${t} SET c = CONCAT(LEFT(c, 100), 'x') WHERE id BETWEEN ${a} AND ${a + 999}`;
      },
    ],
  ];
  return statements.map(([shape, make]) => ({ shape, sql: make(table()) }));
}

/** What a mixed workload sends: point selects, ranges and committed single-row writes across the tables. */
export async function mixedWorkload(c: Connection, rand: () => number, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const t = `sbtest${1 + Math.floor(rand() * TABLES)}`;
    const id = 1 + Math.floor(rand() * ROWS);
    const x = rand();
    if (x < 0.6) await c.query(`SELECT c FROM ${t} WHERE id = ${id}`);
    else if (x < 0.8) await c.query(`SELECT SUM(k) FROM ${t} WHERE id BETWEEN ${id} AND ${id + 99}`);
    else if (x < 0.9) await c.query(`SELECT id FROM ${t} WHERE k BETWEEN ${id} AND ${id + 50}`);
    else await c.query(`UPDATE ${t} SET k = k + 1 WHERE id = ${id}`);
  }
}

export interface CorpusRun {
  pool: string;
  /** cold, warm, or the corpus's own states (PostgreSQL: after a table-wide update, vacuumed). */
  state: string;
  shape: string;
  sql: string;
  run: number;
  measuredLogical: number | null;
  predictedLogical: number | null;
  /** Pages read from disk: synchronous reads and read-ahead. */
  measuredRead: number | null;
  predictedRead: number | null;
  measuredReadAhead: number | null;
  predictedReadAhead: number | null;
  /** The band over the model's draws, where it guesses: [low, high] of logical reads and of pages read. */
  bandLogical?: [number, number];
  bandRead?: [number, number];
  coldReported: boolean;
}

export interface CorpusResult {
  engine: string;
  runs: CorpusRun[];
  /** Each measurement's prediction input, for the property test. */
  inputs: Array<{ name: string; input: PredictFixtureInput }>;
}

export const pagesRead = (r: Report['runs'][number]['measured']): number | null => (r.physicalReads === null ? null : r.physicalReads + (r.readAhead ?? 0));

/** The band of a run's prediction, where the draws disagree. */
export function bands(range: Report['runs'][number]['predictedRange']): Pick<CorpusRun, 'bandLogical' | 'bandRead'> {
  if (!range) return {};
  const out: Pick<CorpusRun, 'bandLogical' | 'bandRead'> = {};
  if (range.low.logicalReads !== null && range.high.logicalReads !== null && range.low.logicalReads !== range.high.logicalReads)
    out.bandLogical = [range.low.logicalReads, range.high.logicalReads];
  const lo = pagesRead(range.low);
  const hi = pagesRead(range.high);
  if (lo !== null && hi !== null && lo !== hi) out.bandRead = [lo, hi];
  return out;
}

/**
 * One corpus statement measured as BufferLens measures it (three runs, run 1 as found, writes rolled back):
 * its runs and its prediction input recorded in `result`. Shared by the InnoDB and PostgreSQL corpora.
 */
export async function measureCorpusStatement(
  target: ConnectionTarget,
  result: CorpusResult,
  pool: string,
  state: string,
  s: CorpusStatement,
  earlier?: Report,
): Promise<Report> {
  let input: PredictFixtureInput | undefined;
  const report = await measure(target, {
    ...(earlier ? { earlier } : {}),
    sql: s.sql,
    runs: 3,
    cold: 'no',
    commit: false,
    timing: false,
    timeoutMs: 120_000,
    whatIf: false,
    onPredictionInput: (i) => (input = { ...i, statement: s.sql }),
  });
  for (const r of report.runs) {
    result.runs.push({
      pool,
      state,
      shape: s.shape,
      sql: s.sql,
      run: r.run,
      measuredLogical: r.measured.logicalReads,
      predictedLogical: r.predicted.logicalReads,
      measuredRead: pagesRead(r.measured),
      predictedRead: pagesRead(r.predicted),
      measuredReadAhead: r.measured.readAhead,
      predictedReadAhead: r.predicted.readAhead,
      ...bands(r.predictedRange),
      coldReported: r.cold,
    });
  }
  if (input) result.inputs.push({ name: `${pool}-${state}-${s.shape}`, input });
  return report;
}

export async function loadSbtest(server: LocalInnodbServer): Promise<void> {
  const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', multipleStatements: false });
  try {
    await c.query('CREATE DATABASE sbtest');
    await c.query('USE sbtest');
    for (let n = 1; n <= TABLES; n++) {
      await c.query(
        `CREATE TABLE sbtest${n} (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '') ENGINE=InnoDB`,
      );
      // sysbench draws k uniformly over the table's ids and fills c and pad with groups of 11 digits. Each
      // RAND(constant) is one seeded sequence over the rows; RAND(seq) would reseed per row, and its first
      // values follow the seed almost linearly, which would tie k to id.
      const group = (seed: number) => `LPAD(FLOOR(RAND(${seed}) * 99999999999), 11, '0')`;
      const groups = (count: number, salt: number) => `CONCAT_WS('-', ${Array.from({ length: count }, (_, g) => group(salt * 100 + g)).join(', ')})`;
      await c.query(
        `INSERT INTO sbtest${n} (k, c, pad) SELECT FLOOR(1 + RAND(${n * 7919}) * ${ROWS}), ${groups(10, n)}, ${groups(5, n + 50)} FROM seq_1_to_${ROWS}`,
      );
      await c.query(`CREATE INDEX k_${n} ON sbtest${n} (k)`);
    }
    await c.query(`ANALYZE TABLE ${Array.from({ length: TABLES }, (_, n) => `sbtest${n + 1}`).join(', ')}`);
  } finally {
    await c.end();
  }
}

/** `seedOffset` draws other tables and parameters (and another warm-up) for a held-out sample of the same classes. */
export async function innodbCorpus(
  binaries: InnodbServerBinaries,
  pools = ['8M', '32M', '128M'],
  onProgress: (line: string) => void = () => undefined,
  seedOffset = 0,
): Promise<CorpusResult> {
  const engine = `MariaDB ${binaries.version.split('-')[0]}`;
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': '512M' } });
  const result: CorpusResult = { engine, runs: [], inputs: [] };
  try {
    await loadSbtest(server);
    const target = parseConnectionUrl(server.url('sbtest'));
    const measureOne = async (pool: string, state: 'cold' | 'warm', s: CorpusStatement) => {
      const report = await measureCorpusStatement(target, result, pool, state, s);
      onProgress(
        `${pool} ${state} ${s.shape}: ${report.runs.map((r) => `logical ${r.measured.logicalReads}/${r.predicted.logicalReads} read ${pagesRead(r.measured)}/${pagesRead(r.predicted)} (ahead ${r.measured.readAhead}/${r.predicted.readAhead})`).join(' | ')}`,
      );
    };
    for (const [p, pool] of pools.entries()) {
      const rand = seeded(1000 + p + seedOffset);
      for (const s of corpusStatements(rand)) {
        await server.restart({ 'innodb-buffer-pool-size': pool });
        await measureOne(pool, 'cold', s);
      }
      await server.restart({ 'innodb-buffer-pool-size': pool });
      const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'sbtest' });
      try {
        await mixedWorkload(c, seeded(2000 + p + seedOffset), 4000);
      } finally {
        await c.end();
      }
      for (const s of corpusStatements(seeded(3000 + p + seedOffset))) await measureOne(pool, 'warm', s);
    }
    return result;
  } finally {
    await server.stop();
  }
}

export interface Share {
  counted: number;
  within: number;
}

/**
 * Runs of 20 pages or more (measured) whose prediction is within 5 %: the draw shown, and (inBand) the
 * band over the draws widened by 5 %, for the runs where the model guesses.
 */
export function share(runs: CorpusRun[], metric: 'logical' | 'read'): Share & { inBand: number } {
  let counted = 0;
  let within = 0;
  let inBand = 0;
  for (const r of runs) {
    const m = metric === 'logical' ? r.measuredLogical : r.measuredRead;
    const p = metric === 'logical' ? r.predictedLogical : r.predictedRead;
    const band = (metric === 'logical' ? r.bandLogical : r.bandRead) ?? (p === null ? undefined : [p, p]);
    if (m === null || m < 20) continue;
    counted++;
    if (p !== null && Math.abs(p - m) <= 0.05 * m) within++;
    // Within 5 % of some value of the band, as `within` is of the draw shown.
    if (band && m >= band[0] / 1.05 && m <= band[1] / 0.95) inBand++;
  }
  return { counted, within, inBand };
}
