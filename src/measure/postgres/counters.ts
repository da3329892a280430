// Before/after snapshots of PostgreSQL's cumulative statistics, one round trip each, and their deltas.
// They are server-wide (pg_stat_io, pg_stat_database) or per relation (pg_statio_*), so other sessions
// show in them: the report keeps them as raw counters beside EXPLAIN's statement-exact numbers.
import type { Client } from 'pg';

export type CounterSnapshot = Record<string, number>;

export async function readCounters(client: Client, relOids: number[], hasStatIo: boolean, major: number): Promise<CounterSnapshot> {
  const ioColumns = major >= 18 ? ['reads', 'read_bytes', 'read_time', 'hits', 'evictions', 'reuses'] : ['reads', 'read_time', 'hits', 'evictions', 'reuses'];
  // The pg_stat_get_* functions rather than the pg_statio_* views: the views join and aggregate over
  // every relation, which costs about a millisecond per snapshot; the functions are per relation.
  const r = await client.query({
    text: `SELECT json_build_object(
             'db', json_build_object(
                'blks_read', pg_stat_get_db_blocks_fetched(d.oid) - pg_stat_get_db_blocks_hit(d.oid),
                'blks_hit', pg_stat_get_db_blocks_hit(d.oid),
                'blk_read_time', pg_stat_get_db_blk_read_time(d.oid)),
             'rel', (SELECT json_build_object(
                        'blks_read', sum(pg_stat_get_blocks_fetched(o) - pg_stat_get_blocks_hit(o)),
                        'blks_hit', sum(pg_stat_get_blocks_hit(o)))
                       FROM unnest($1::oid[]) o),
             'io', ${
               hasStatIo
                 ? `(SELECT json_object_agg(context, row_to_json(x)) FROM (
                      SELECT context, ${ioColumns.map((c) => `sum(${c}) AS ${c}`).join(', ')}
                        FROM pg_stat_get_io()
                       WHERE object = 'relation' AND backend_type IN ('client backend', 'background worker')
                       GROUP BY context) x)`
                 : 'NULL'
             }) AS s
           FROM pg_database d WHERE d.datname = current_database()`,
    values: [relOids],
  });
  return flatten(r.rows[0].s);
}

function flatten(obj: unknown, prefix = '', out: CounterSnapshot = {}): CounterSnapshot {
  if (obj === null || obj === undefined) return out;
  if (typeof obj === 'object') {
    for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
      if (k === 'context') continue;
      flatten(v, prefix ? `${prefix}.${k}` : k, out);
    }
    return out;
  }
  const n = Number(obj);
  if (Number.isFinite(n)) out[prefix] = n;
  return out;
}

/** after − before per key; keys missing before count from 0. Float timings keep 3 decimals. */
export function counterDelta(before: CounterSnapshot, after: CounterSnapshot): Record<string, number> {
  const d: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) {
    const x = v - (before[k] ?? 0);
    d[k] = Number.isInteger(x) ? x : Math.round(x * 1000) / 1000;
  }
  return d;
}
