// Each index's height, read after the last run by a counted descent: the first entry of the index, read in
// its order (ANALYZE FORMAT=JSON of a covering `ORDER BY … LIMIT 1` through it), takes one page get per
// level, which MariaDB's r_engine_stats counts for that statement alone. The statistics give leaves and
// allocated pages but not levels, and the levels do not follow from the leaves: where rolled-back inserts
// split a sorted index's leaves to half full, its root still holds every pointer (measured on MariaDB 10.11:
// 296 leaves, 2 levels, where the leaves' fill put a third). MySQL has no per-statement page counts: there
// the height stays worked out from the leaves.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/facts';
import { quoteMysqlName as quote } from '../../sql/quote';
import { readOnlyAfterRuns } from './after-runs';
import { parseServerJson } from './server-json';

/** Per index (its report name), its levels from the root to the leaves; an index whose count fails is left out. */
export async function readIndexLevels(conn: Connection, indexes: InnodbIndexFacts[], failures: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const f of indexes) {
    const column = f.keyColumns?.[0];
    if (!column) continue;
    const schema = f.reportName.split('.')[0];
    const sql =
      `ANALYZE FORMAT=JSON SELECT ${quote(column)} FROM ${quote(schema)}.${quote(f.table)} FORCE INDEX (${quote(f.index)}) ` +
      `ORDER BY ${quote(column)} LIMIT 1`;
    const pages = await readOnlyAfterRuns(conn, `the levels of ${f.reportName}`, failures, undefined, async () => {
      const count = async () => {
        const [rows] = await conn.query(sql);
        return pagesAccessed(parseServerJson(Object.values((rows as Array<Record<string, string>>)[0])[0], sql));
      };
      // A secondary leaf read from disk adds a get of the change-buffer bitmap: the second count finds the path cached.
      await count();
      return count();
    });
    if (pages !== undefined && pages >= 1) out[f.reportName] = pages;
  }
  return out;
}

/** The one table's r_engine_stats.pages_accessed in an ANALYZE FORMAT=JSON plan, where it is there. */
export function pagesAccessed(plan: unknown): number | undefined {
  const table = (plan as { query_block?: { nested_loop?: Array<{ table?: { r_engine_stats?: { pages_accessed?: unknown } } }> } })?.query_block
    ?.nested_loop?.[0]?.table;
  const pages = table?.r_engine_stats?.pages_accessed;
  return typeof pages === 'number' ? pages : undefined;
}
