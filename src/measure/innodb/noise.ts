// InnoDB's counters are global: what else ran during a run, and whether the global read requests agree
// with the statement's own pages (MariaDB's r_engine_stats).
import type { Connection } from 'mysql2/promise';
import { sumEngineStats, type TableEngineStats } from '../../predict/innodb/plan';

export async function otherActiveSessions(conn: Connection): Promise<string[]> {
  const [rows] = await conn.query(
    `SELECT ID AS id, USER AS user, COMMAND AS command, LEFT(COALESCE(INFO, ''), 60) AS info FROM information_schema.PROCESSLIST
      WHERE ID <> CONNECTION_ID() AND COMMAND NOT IN ('Sleep', 'Daemon', 'Binlog Dump') AND USER NOT IN ('system user', 'event_scheduler')`,
  );
  return (rows as Array<{ id: number; user: string; command: string; info: string }>).map(
    (r) => `#${r.id} ${r.user} ${r.command}${r.info ? `: ${r.info}` : ''}`,
  );
}

export function noiseWarnings(
  run: number,
  others: { before: string[]; after: string[] },
  delta: Record<string, number>,
  stats: TableEngineStats[] | undefined,
  reading: boolean,
  product: 'mysql' | 'mariadb',
): string[] {
  const out: string[] = [];
  const names = [...new Set([...others.before, ...others.after])];
  if (names.length) out.push(`run ${run}: other sessions were active, so the global counters may include their reads: ${names.join('; ')}`);
  // r_engine_stats counts the pages of the tables a statement reads, not of those it writes (nor the
  // undo log and a rollback), so the cross-check holds for reading statements only.
  if (stats && stats.length && reading) {
    const s = sumEngineStats(stats);
    const global = delta.Innodb_buffer_pool_read_requests ?? 0;
    const gap = global - s.pagesAccessed;
    // A few extra requests per run are InnoDB's own (dictionary, change-buffer bitmap pages on reads).
    const tolerance = Math.max(16, Math.round(s.pagesAccessed * 0.05) + (delta.Innodb_buffer_pool_reads ?? 0) * 0.05);
    if (Math.abs(gap) > tolerance) {
      out.push(
        `run ${run}: the global read requests (${global.toLocaleString('en-US')}) differ from the statement's own pages accessed ` +
        `(${s.pagesAccessed.toLocaleString('en-US')}, ${product === 'mariadb' ? 'r_engine_stats' : 'engine stats'}) by ${gap.toLocaleString('en-US')}: ` +
        `something else was reading`,
      );
    } else if (gap !== 0) {
      // The runs table and the plan count different things; a user seeing two totals is told why.
      out.push(
        `run ${run}: the runs table counts the server-wide read requests (${global.toLocaleString('en-US')} before calibration), the plan only the pages ` +
        `of the statement's tables (${s.pagesAccessed.toLocaleString('en-US')}, r_engine_stats); the ${Math.abs(gap).toLocaleString('en-US')} ` +
        `${gap > 0 ? 'more' : 'fewer'} are InnoDB's own in the same window (data dictionary, change-buffer bitmap pages), within the ` +
        `${tolerance.toLocaleString('en-US')} allowed for them`,
      );
    }
  } else if (stats && stats.length && run === 1) {
    out.push(
      "the plan's page counts (r_engine_stats) are those of the tables the statement reads; the runs table's counters also count what a write touches " +
      "beyond them (secondary indexes changed, undo log, the rollback)",
    );
  }
  return out;
}

export function engineStatsRaw(stats: TableEngineStats[] | undefined): Record<string, number> {
  if (!stats) return {};
  const out: Record<string, number> = {};
  for (const s of stats) {
    out[`r_engine_stats.${s.table}.pages_accessed`] = s.pagesAccessed;
    out[`r_engine_stats.${s.table}.pages_read_count`] = s.pagesReadCount;
    out[`r_engine_stats.${s.table}.pages_prefetch_read_count`] = s.pagesPrefetchReadCount;
    out[`r_engine_stats.${s.table}.pages_read_time_ms`] = s.pagesReadTimeMs;
  }
  return out;
}
