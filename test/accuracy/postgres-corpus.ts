// A PostgreSQL accuracy corpus shaped like a real OLTP benchmark rather than like the model: sysbench's schema
// as its PostgreSQL driver creates it (sbtestN: id SERIAL PRIMARY KEY, k INTEGER with a secondary index,
// c CHAR(120), pad CHAR(60)), its statement classes with uniformly drawn parameters, plus the analytic and
// join shapes users write (aliases, LIMIT, ORDER BY, a parallel index-only count), on tables larger than the
// pool, at three shared_buffers sizes, in four states: cold (restart), warm (after a mixed workload), after a
// table-wide update that doubled the heaps (not vacuumed), and after VACUUM of those heaps. Shared by
// scripts/postgres-corpus.ts, which publishes it in docs/accuracy.md and records each prediction input.
// Not a test file itself.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Client } from 'pg';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { digits, measureCorpusStatement, pagesRead, seeded, type CorpusResult, type CorpusStatement } from './innodb-corpus';
import type { PredictFixtureInput } from '../predict/fixture-loop';

export const PG_TABLES = 4;
export const PG_ROWS = 150_000;
export const PG_STATES = ['cold', 'warm', 'updated', 'vacuumed'] as const;
export type PgCorpusState = (typeof PG_STATES)[number];

/** A recorded prediction input (gzipped JSON: a warm pool's buffer snapshot is large). */
export function readPgFixture(path: string): PredictFixtureInput {
  return JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as PredictFixtureInput;
}

/** One draw of every statement class; `rand` picks the tables and parameters. */
export function pgCorpusStatements(rand: () => number): CorpusStatement[] {
  const table = () => `sbtest${1 + Math.floor(rand() * PG_TABLES)}`;
  const id = (span = 0) => 1 + Math.floor(rand() * (PG_ROWS - span));
  const k = id;
  const other = (t: string) => `sbtest${1 + (Number(t.slice(6)) % PG_TABLES)}`;
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
      'wide primary range, 5,000 rows',
      (t) => {
        const a = id(5000);
        return `SELECT count(*), max(length(pad)) FROM ${t} WHERE id BETWEEN ${a} AND ${a + 4999}`;
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
        return `SELECT count(*) FROM ${t} WHERE k BETWEEN ${a} AND ${a + 19999}`;
      },
    ],
    ['secondary ORDER BY with LIMIT', (t) => `SELECT id, pad FROM ${t} WHERE k > ${k(1000)} ORDER BY k LIMIT 50`],
    ['count over most of the secondary index', (t) => `SELECT count(*) FROM ${t} WHERE k > ${k(PG_ROWS / 2)}`],
    [
      'aliased join on the primary key',
      (t) => {
        const a = id(300);
        return `SELECT a.id, b.c FROM ${t} a JOIN ${other(t)} b ON b.id = a.id WHERE a.id BETWEEN ${a} AND ${a + 299}`;
      },
    ],
    [
      'aliased join through k (random lookups)',
      (t) => {
        const a = id(300);
        return `SELECT count(b.pad) FROM ${t} AS a JOIN ${other(t)} AS b ON b.id = a.k WHERE a.id BETWEEN ${a} AND ${a + 299}`;
      },
    ],
    ['full scan with a filter', (t) => `SELECT count(*) FROM ${t} WHERE c LIKE '%${Math.floor(rand() * 90) + 10}-99%'`],
    ['index update (k = k + 1 by id)', (t) => `UPDATE ${t} SET k = k + 1 WHERE id = ${id()}`],
    ['non-index update (c by id)', (t) => `UPDATE ${t} SET c = '${digits(rand, 10)}' WHERE id = ${id()}`],
    ['delete by id', (t) => `DELETE FROM ${t} WHERE id = ${id()}`],
    ['single-row insert', (t) => `INSERT INTO ${t} (k, c, pad) VALUES (${k()}, '${digits(rand, 10)}', '${digits(rand, 5)}')`],
    [
      'batch update of a primary range, 1,000 rows',
      (t) => {
        const a = id(1000);
        return `UPDATE ${t} SET c = left(c, 100) || 'x' WHERE id BETWEEN ${a} AND ${a + 999}`;
      },
    ],
  ];
  return statements.map(([shape, make]) => ({ shape, sql: make(table()) }));
}

async function withClient<T>(url: string, f: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

/** What a mixed workload sends: point selects, ranges and committed single-row writes across the tables. */
async function mixedWorkload(c: Client, rand: () => number, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const t = `sbtest${1 + Math.floor(rand() * PG_TABLES)}`;
    const id = 1 + Math.floor(rand() * PG_ROWS);
    const x = rand();
    if (x < 0.6) await c.query(`SELECT c FROM ${t} WHERE id = ${id}`);
    else if (x < 0.8) await c.query(`SELECT sum(k) FROM ${t} WHERE id BETWEEN ${id} AND ${id + 99}`);
    else if (x < 0.9) await c.query(`SELECT id FROM ${t} WHERE k BETWEEN ${id} AND ${id + 50}`);
    else await c.query(`UPDATE ${t} SET k = k + 1 WHERE id = ${id}`);
  }
}

/** sysbench's prepare on PostgreSQL: the table, its rows in id order, then the k index; VACUUM ANALYZE as autovacuum would. */
export async function loadPgSbtest(url: string): Promise<void> {
  await withClient(url, async (c) => {
    await c.query('CREATE EXTENSION IF NOT EXISTS pg_buffercache');
    for (let n = 1; n <= PG_TABLES; n++) {
      await c.query(
        `CREATE TABLE sbtest${n} (id SERIAL NOT NULL, k INTEGER DEFAULT 0 NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id))`,
      );
      const groups = (count: number, salt: number) =>
        `concat_ws('-', ${Array.from({ length: count }, (_, g) => `lpad((abs(hashint4(g * ${salt * 31 + g + 1})) % 99999999999)::text, 11, '0')`).join(', ')})`;
      // k uniform over the ids, not tied to id (a hash of the row number, as sysbench's random draw is).
      await c.query(
        `INSERT INTO sbtest${n} (k, c, pad) SELECT 1 + (abs(hashint4(g + ${n * 7919})) % ${PG_ROWS}), ${groups(10, n)}, ${groups(5, n + 50)} FROM generate_series(1, ${PG_ROWS}) g`,
      );
      await c.query(`CREATE INDEX k_${n} ON sbtest${n} (k)`);
    }
    await c.query('VACUUM ANALYZE');
    await c.query('CHECKPOINT');
  });
}

/** A table-wide update of a non-indexed column, committed: on full pages every new version goes to a new page. */
async function updateEverything(url: string): Promise<void> {
  await withClient(url, async (c) => {
    for (let n = 1; n <= PG_TABLES; n++) await c.query(`UPDATE sbtest${n} SET pad = left(pad, 59) || 'u'`);
    await c.query('ANALYZE');
    await c.query('CHECKPOINT');
  });
}

export async function postgresCorpus(
  binaries: PostgresBinaries,
  pools = ['16MB', '32MB', '128MB'],
  onProgress: (line: string) => void = () => undefined,
): Promise<CorpusResult> {
  const engine = `PostgreSQL ${binaries.major}`;
  // Autovacuum off: the states say what was vacuumed, and a worker starting mid-measurement would be another session.
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: '256MB', autovacuum: false } });
  const result: CorpusResult = { engine, runs: [], inputs: [] };
  try {
    const url = server.url();
    await loadPgSbtest(url);
    const target = parseConnectionUrl(url);
    const measureOne = async (pool: string, state: PgCorpusState, s: CorpusStatement) => {
      const report = await measureCorpusStatement(target, result, pool, state, s);
      onProgress(
        `${engine} ${pool} ${state} ${s.shape}: ${report.runs.map((r) => `logical ${r.measured.logicalReads}/${r.predicted.logicalReads} read ${pagesRead(r.measured)}/${pagesRead(r.predicted)}`).join(' | ')}`,
      );
    };
    const cold = async (pool: string, state: PgCorpusState, seed: number) => {
      for (const s of pgCorpusStatements(seeded(seed))) {
        await server.restart({ shared_buffers: pool });
        await measureOne(pool, state, s);
      }
    };
    for (const [p, pool] of pools.entries()) {
      await cold(pool, 'cold', 1000 + p);
      await server.restart({ shared_buffers: pool });
      await withClient(url, (c) => mixedWorkload(c, seeded(2000 + p), 4000));
      for (const s of pgCorpusStatements(seeded(3000 + p))) await measureOne(pool, 'warm', s);
    }
    // The heaps doubled by a table-wide update, then the same heaps vacuumed: each measured cold.
    await updateEverything(url);
    for (const [p, pool] of pools.entries()) await cold(pool, 'updated', 4000 + p);
    await withClient(url, (c) => c.query('VACUUM ANALYZE'));
    for (const [p, pool] of pools.entries()) await cold(pool, 'vacuumed', 5000 + p);
    return result;
  } finally {
    await server.stop();
  }
}
