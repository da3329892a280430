// Before/after snapshots of PostgreSQL's cumulative statistics, one round trip each, and their deltas.
// They are server-wide (pg_stat_io, pg_stat_database) or per relation (pg_statio_*), so other sessions
// show in them: the report keeps them as raw counters beside EXPLAIN's statement-exact numbers.
import type { Client } from 'pg';

export type CounterSnapshot = Record<string, number>;

export async function readCounters(client: Client, relOids: number[], hasStatIo: boolean, major: number): Promise<CounterSnapshot> {
  const ioColumns = major >= 18 ? 'reads, read_bytes, read_time, hits, evictions, reuses' : 'reads, read_time, hits, evictions, reuses';
  const r = await client.query({
    text: `SELECT json_build_object(
             'db', (SELECT json_build_object('blks_read', blks_read, 'blks_hit', blks_hit, 'blk_read_time', blk_read_time)
                      FROM pg_stat_database WHERE datname = current_database()),
             'rel', (SELECT json_build_object(
                        'heap_blks_read', sum(heap_blks_read), 'heap_blks_hit', sum(heap_blks_hit),
                        'idx_blks_read', sum(coalesce(idx_blks_read, 0)), 'idx_blks_hit', sum(coalesce(idx_blks_hit, 0)),
                        'toast_blks_read', sum(coalesce(toast_blks_read, 0)), 'toast_blks_hit', sum(coalesce(toast_blks_hit, 0)))
                       FROM pg_statio_all_tables WHERE relid = ANY($1::oid[])),
             'io', ${
               hasStatIo
                 ? `(SELECT json_object_agg(context, row_to_json(x)) FROM (
                      SELECT context, ${ioColumns.split(', ').map((c) => `sum(${c}) AS ${c}`).join(', ')}
                        FROM pg_stat_io
                       WHERE object = 'relation' AND backend_type IN ('client backend', 'background worker')
                       GROUP BY context) x)`
                 : 'NULL'
             }) AS s`,
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
