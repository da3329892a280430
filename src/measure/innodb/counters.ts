// Snapshots of InnoDB's global counters, one round trip each.
import type { Connection } from 'mysql2/promise';

export const STATUS_COUNTERS = [
  'Innodb_buffer_pool_read_requests',
  'Innodb_buffer_pool_reads',
  'Innodb_buffer_pool_read_ahead',
  'Innodb_buffer_pool_read_ahead_rnd',
  'Innodb_buffer_pool_read_ahead_evicted',
  'Innodb_buffer_pool_write_requests',
  'Innodb_buffer_pool_pages_flushed',
  'Innodb_pages_read',
  'Innodb_data_reads',
  'Innodb_data_read',
  // What an INSERT wrote, for the prediction to replay: MySQL counts InnoDB rows; MariaDB 10.6+ has only
  // the handler's row writes (temporary tables included).
  'Innodb_rows_inserted',
  'Handler_write',
  // What an UPDATE or DELETE changed, likewise.
  'Innodb_rows_updated',
  'Innodb_rows_deleted',
  'Handler_update',
  'Handler_delete',
] as const;

/** Change-buffer metrics from INNODB_METRICS; present only when their module is enabled. */
export const IBUF_METRICS = ['ibuf_merges', 'ibuf_merges_insert', 'ibuf_merges_delete_mark', 'ibuf_merges_delete', 'ibuf_size'] as const;

export type InnodbSnapshot = Record<string, number>;

/** `withMetrics`: the user may read INNODB_METRICS (it needs PROCESS); without, the status counters alone. */
export function snapshotQuery(statusTable: string, product: 'mysql' | 'mariadb', withMetrics = true): string {
  const names = STATUS_COUNTERS.map((n) => `'${product === 'mariadb' ? n.toUpperCase() : n}'`).join(', ');
  const metrics = IBUF_METRICS.map((n) => `'${n}'`).join(', ');
  const status = `SELECT VARIABLE_NAME AS name, VARIABLE_VALUE AS value FROM ${statusTable} WHERE VARIABLE_NAME IN (${names})`;
  if (!withMetrics) return status;
  // One statement, so before and after each cost one round trip.
  return `${status}
          UNION ALL
          SELECT CONCAT('metric.', NAME), COUNT FROM information_schema.INNODB_METRICS
           WHERE NAME IN (${metrics}) AND ${product === 'mariadb' ? 'ENABLED = 1' : "STATUS = 'enabled'"}`;
}

export function parseSnapshot(rows: Array<{ name: string; value: string | number }>): InnodbSnapshot {
  const out: InnodbSnapshot = {};
  const canonical = new Map(STATUS_COUNTERS.map((n) => [n.toLowerCase(), n]));
  for (const { name, value } of rows) {
    const key = canonical.get(name.toLowerCase()) ?? name;
    out[key] = Number(value);
  }
  return out;
}

export async function readInnodbCounters(conn: Connection, query: string): Promise<InnodbSnapshot> {
  const [rows] = await conn.query(query);
  return parseSnapshot(rows as Array<{ name: string; value: string }>);
}

export function innodbDelta(before: InnodbSnapshot, after: InnodbSnapshot): Record<string, number> {
  const d: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) if (k !== 'metric.ibuf_size') d[k] = v - (before[k] ?? 0);
  if (after['metric.ibuf_size'] !== undefined) d['metric.ibuf_size'] = after['metric.ibuf_size'];
  return d;
}

/** Says how to switch the change-buffer metrics on when they are off; BufferLens never changes global settings itself. */
export function ibufMetricsAdvice(snapshot: InnodbSnapshot): string | undefined {
  if (Object.keys(snapshot).some((k) => k.startsWith('metric.ibuf'))) return undefined;
  return "change-buffer merge counts are not reported: the INNODB_METRICS module is off (SET GLOBAL innodb_monitor_enable = 'module_ibuf_system' turns it on)";
}
