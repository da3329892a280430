// The demo database's tables, for `bufferlens demo` and the editor's Try the Demo Workload: they reproduce
// the seed experiments (one table below and one above the NBuffers/4 ring threshold, an index).
import { Client } from 'pg';
import type { LocalPostgres } from './postgres';

const SETUP = [
  'CREATE EXTENSION pg_buffercache',
  'CREATE EXTENSION pg_visibility',
  // 100,000 rows ≈ 834 blocks: below NBuffers/4 (4,096 of 128 MB), so a scan caches all of it.
  `CREATE TABLE small AS SELECT g AS id, md5(g::text) AS payload FROM generate_series(1, 100000) g`,
  // 500,000 rows ≈ 4,7xx blocks: above NBuffers/4, so each scanning process recycles a small ring.
  `CREATE TABLE events AS SELECT g AS id, md5(g::text) AS payload, now() AS created_at FROM generate_series(1, 500000) g`,
  'CREATE INDEX events_id ON events (id)',
  // Hint bits set and statistics fresh, so the measured runs only read.
  'VACUUM (FREEZE, ANALYZE) small',
  'VACUUM (FREEZE, ANALYZE) events',
  'CHECKPOINT',
];

/** Loads the demo tables; returns each table's size in blocks. */
export async function loadDemoData(server: LocalPostgres): Promise<Array<{ relname: string; blocks: number }>> {
  const client = new Client({ connectionString: server.url() });
  await client.connect();
  try {
    for (const statement of SETUP) await client.query(statement);
    const sizes = await client.query(
      `SELECT relname, (pg_relation_size(oid) / 8192)::int AS blocks FROM pg_class WHERE relname IN ('small', 'events') ORDER BY 1`,
    );
    return sizes.rows;
  } finally {
    await client.end();
  }
}
