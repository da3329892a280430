// One-off queries for test set-up and checks, each on its own connection.
import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';

export async function pgQuery<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** The same for a private MariaDB on 127.0.0.1, as root: the rows of one statement. */
export async function mariadbQuery<T = Record<string, unknown>>(port: number, text: string): Promise<T[]> {
  const c = await createConnection({ host: '127.0.0.1', port, user: 'root' });
  try {
    return (await c.query(text))[0] as T[];
  } finally {
    await c.end();
  }
}

/**
 * lab.s on a private MariaDB in sysbench's row shape (id AUTO_INCREMENT, k, c CHAR(120), pad CHAR(60):
 * 73 rows a leaf): `rows` rows in id order, k drawn over 1..kMax (or equal to id), its index built after
 * the load as sysbench does (every leaf full), then analysed.
 */
export async function createLabSbtest(port: number, o: { rows: number; k: 'random' | 'id'; kMax?: number; index: boolean }): Promise<void> {
  const k = o.k === 'id' ? 'seq' : `FLOOR(1 + RAND(7919) * ${o.kMax ?? o.rows})`;
  for (const q of [
    'CREATE DATABASE lab',
    'CREATE TABLE lab.s (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL) ENGINE=InnoDB',
    `INSERT INTO lab.s (k, c, pad) SELECT ${k}, LPAD(seq, 120, '7-'), LPAD(seq, 60, '3-') FROM lab.seq_1_to_${o.rows}`,
    ...(o.index ? ['CREATE INDEX k ON lab.s (k)'] : []),
    'ANALYZE TABLE lab.s',
  ])
    await mariadbQuery(port, q);
}

/** One statement in a transaction that is rolled back, on its own connection to database `db`. */
export async function mariadbRolledBack(port: number, db: string, text: string): Promise<void> {
  const c = await createConnection({ host: '127.0.0.1', port, user: 'root', database: db });
  try {
    await c.query('BEGIN');
    await c.query(text);
    await c.query('ROLLBACK');
  } finally {
    await c.end();
  }
}

/**
 * acc on a private PostgreSQL in pgbench's accounts shape (aid, bid, abalance, filler char(84): 61 rows to a
 * full page at fillfactor 100): 200,000 rows in aid order, its primary key built after the load, vacuumed and
 * analysed, checkpointed; `then` runs after the vacuum (rolled-back writes, say), before the checkpoint.
 */
export async function createPgAccounts(url: string, then: string[] = []): Promise<void> {
  for (const q of [
    'CREATE EXTENSION IF NOT EXISTS pg_buffercache',
    'CREATE TABLE acc (aid int NOT NULL, bid int, abalance int, filler char(84)) WITH (fillfactor = 100)',
    "INSERT INTO acc SELECT g, 1 + g / 100000, 0, '' FROM generate_series(1, 200000) g",
    'ALTER TABLE acc ADD PRIMARY KEY (aid)',
    'VACUUM ANALYZE acc',
    ...then,
    'CHECKPOINT',
  ])
    await pgQuery(url, q);
}

/**
 * docs on a private PostgreSQL: 100,000 rows (id, k = id % 1000, body), one in ten with 6 kB of hex digits
 * (barely compressible: stored out of line, 4 chunks), vacuumed and analysed, then `then`, then checkpointed.
 */
export async function createPgDocs(url: string, then: string[] = []): Promise<void> {
  for (const q of [
    'CREATE EXTENSION IF NOT EXISTS pg_buffercache',
    'CREATE TABLE docs (id int PRIMARY KEY, k int NOT NULL, body text)',
    `INSERT INTO docs SELECT g, g % 1000, CASE WHEN g % 10 = 0 THEN (SELECT string_agg(md5(g::text || '-' || i), '') FROM generate_series(1, 188) i) ELSE 'short' END FROM generate_series(1, 100000) g`,
    ...then,
    'VACUUM ANALYZE docs',
    'CHECKPOINT',
  ])
    await pgQuery(url, q);
}
