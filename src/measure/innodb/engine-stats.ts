// Pure parsing of MariaDB's ANALYZE FORMAT=JSON: per table, the r_engine_stats the statement itself
// caused, and the tables a plan names (EXPLAIN FORMAT=JSON, MariaDB and MySQL alike).

export interface TableEngineStats {
  table: string;
  pagesAccessed: number;
  pagesUpdated: number;
  pagesReadCount: number;
  pagesPrefetchReadCount: number;
  pagesReadTimeMs: number;
}

function walk(node: unknown, visit: (obj: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
  else if (node && typeof node === 'object') {
    visit(node as Record<string, unknown>);
    for (const v of Object.values(node as Record<string, unknown>)) walk(v, visit);
  }
}

export function engineStatsOf(analyze: unknown): TableEngineStats[] {
  const out: TableEngineStats[] = [];
  walk(analyze, (obj) => {
    const stats = obj.r_engine_stats as Record<string, number> | undefined;
    if (typeof obj.table_name === 'string' && stats && typeof stats === 'object') {
      out.push({
        table: obj.table_name,
        pagesAccessed: stats.pages_accessed ?? 0,
        pagesUpdated: stats.pages_updated ?? 0,
        pagesReadCount: stats.pages_read_count ?? 0,
        pagesPrefetchReadCount: stats.pages_prefetch_read_count ?? 0,
        pagesReadTimeMs: stats.pages_read_time_ms ?? 0,
      });
    }
  });
  return out;
}

/** Table names in a plan, without derived tables (<derived2>, <subquery3>, <union1,2>). */
export function planTables(plan: unknown): string[] {
  const names = new Set<string>();
  walk(plan, (obj) => {
    if (typeof obj.table_name === 'string' && !obj.table_name.startsWith('<')) names.add(obj.table_name);
  });
  return [...names];
}

export function sumEngineStats(stats: TableEngineStats[]) {
  return stats.reduce(
    (a, s) => ({
      pagesAccessed: a.pagesAccessed + s.pagesAccessed,
      pagesReadCount: a.pagesReadCount + s.pagesReadCount,
      pagesPrefetchReadCount: a.pagesPrefetchReadCount + s.pagesPrefetchReadCount,
      pagesReadTimeMs: a.pagesReadTimeMs + s.pagesReadTimeMs,
    }),
    { pagesAccessed: 0, pagesReadCount: 0, pagesPrefetchReadCount: 0, pagesReadTimeMs: 0 },
  );
}
