// One walk of an InnoDB JSON plan (MariaDB's ANALYZE FORMAT=JSON, EXPLAIN FORMAT=JSON of either server)
// into typed parts: the table accesses in execution order (what the predictor replays), the tables it
// names (what the measurement tracks) and MariaDB's per-table r_engine_stats (the statement's own pages).
// Pure.

export interface TableAccess {
  table: string;
  accessType: string;
  key?: string;
  rows: number;
  loops: number;
  /** The index covers the query: no clustered-index lookups. */
  usingIndex: boolean;
  /** `rows` were counted as the statement ran (ANALYZE's r_rows), not estimated: a scan stopped early shows. */
  executed: boolean;
  /**
   * The optimizer's estimate where `rows` were counted: for a range, what its index dive found between the
   * bounds, which a LIMIT does not shorten.
   */
  estimatedRows?: number;
  /** What a lookup's key is compared with: "db.table.column" of an earlier table, or "const". */
  ref?: string[];
  /** The indexes the optimizer considered (and estimated ranges on) before choosing `key`. */
  possibleKeys?: string[];
  /** A condition was pushed down to the index (index_condition); absent in plans recorded before it was read. */
  indexCondition?: boolean;
  /**
   * MariaDB's "Using buffer" (the access sits under the plan's `buffer` node): an UPDATE that changes the key
   * it scans by, or orders its rows, first collects the rows' positions and then reads each row again by
   * position (mysql_update, rnd_pos). Absent in plans recorded before it was read.
   */
  positionsFirst?: boolean;
}

export interface TableEngineStats {
  table: string;
  pagesAccessed: number;
  pagesUpdated: number;
  pagesReadCount: number;
  pagesPrefetchReadCount: number;
  pagesReadTimeMs: number;
}

export interface InnodbPlan {
  accesses: TableAccess[];
  /** Table names without derived tables (<derived2>, <subquery3>, <union1,2>). */
  tables: string[];
  /** Present only in MariaDB's ANALYZE output. */
  engineStats: TableEngineStats[];
}

/**
 * MariaDB's ANALYZE reports each table's loops (r_loops); MySQL's EXPLAIN FORMAT=JSON, not executed, does
 * not: there an inner table of a nested loop runs once per row the tables before it produced
 * (rows_produced_per_join of the previous one).
 */
export function parseInnodbPlan(json: unknown): InnodbPlan {
  const accesses: TableAccess[] = [];
  const tables = new Set<string>();
  const engineStats: TableEngineStats[] = [];
  const visit = (o: Record<string, unknown>, loops: number | undefined, buffered: boolean) => {
    if (typeof o.table_name !== 'string') return;
    if (!o.table_name.startsWith('<')) tables.add(o.table_name);
    if (typeof o.access_type === 'string') {
      accesses.push({
        table: o.table_name,
        accessType: o.access_type,
        key: typeof o.key === 'string' ? o.key : undefined,
        rows: Number(o.r_rows ?? o.rows_examined_per_scan ?? o.rows ?? 0),
        loops: Number(o.r_loops ?? loops ?? 1),
        usingIndex: o.using_index === true,
        executed: o.r_rows !== undefined,
        ...(o.r_rows !== undefined && o.rows !== undefined ? { estimatedRows: Number(o.rows) } : {}),
        ...(Array.isArray(o.ref) ? { ref: o.ref.map(String) } : {}),
        ...(Array.isArray(o.possible_keys) ? { possibleKeys: o.possible_keys.map(String) } : {}),
        indexCondition: o.index_condition !== undefined,
        ...(buffered ? { positionsFirst: true } : {}),
      });
    }
    const stats = o.r_engine_stats as Record<string, number> | undefined;
    if (stats && typeof stats === 'object') {
      engineStats.push({
        table: o.table_name,
        pagesAccessed: stats.pages_accessed ?? 0,
        pagesUpdated: stats.pages_updated ?? 0,
        pagesReadCount: stats.pages_read_count ?? 0,
        pagesPrefetchReadCount: stats.pages_prefetch_read_count ?? 0,
        pagesReadTimeMs: stats.pages_read_time_ms ?? 0,
      });
    }
  };
  const walk = (node: unknown, loops: number | undefined, buffered: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, loops, buffered));
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    visit(o, loops, buffered);
    for (const [k, v] of Object.entries(o)) {
      if (k === 'nested_loop' && Array.isArray(v)) {
        let before: number | undefined;
        for (const item of v) {
          walk(item, before, buffered);
          const t = (item as { table?: Record<string, unknown> })?.table;
          const produced = t ? Number(t.rows_produced_per_join) : NaN;
          before = Number.isFinite(produced) ? Math.max(1, produced) : undefined;
        }
      } else walk(v, loops, buffered || k === 'buffer');
    }
  };
  walk(json, undefined, false);
  return { accesses, tables: [...tables], engineStats };
}

/** The accesses with each alias replaced by its table (the plan names a table by its alias). */
export function resolveAliases(accesses: TableAccess[], aliases: Map<string, string>): TableAccess[] {
  const table = (name: string) => aliases.get(name) ?? name;
  // A ref names db.alias.column: the alias is resolved there too.
  const ref = (r: string) => r.replace(/^([^.]+)\.([^.]+)\.([^.]+)$/, (_, db: string, t: string, c: string) => `${db}.${table(t)}.${c}`);
  return accesses.map((a) => ({ ...a, table: table(a.table), ...(a.ref ? { ref: a.ref.map(ref) } : {}) }));
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
