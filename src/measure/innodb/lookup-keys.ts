// The primary keys a statement looks up in a clustered index, in the order it looks them up, read after
// the last run: where a secondary key's rows lie in the clustered index, or which rows a join's outer column
// points at, is in no statistic of InnoDB, and on an AUTO_INCREMENT key the layout places each one
// (key-position.ts). The statement is asked again with its select list replaced by the key, so it walks
// the same indexes in the same order; after the runs, so it touches nothing run 1 reads first. Two shapes:
// one table read through a secondary index that does not cover the query (its rows' primary keys), and two
// tables where the second is an eq_ref on its primary key from one column of the first (that column's
// values). GROUP BY, DISTINCT, UNION, subqueries or a LIMIT over aggregates would give other rows.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/facts';
import type { TableAccess } from '../../predict/innodb/plan';
import { LOOKUP_ACCESS } from '../../predict/innodb/lookup-trace';
import { replaceSelectList } from '../../sql/select-list';
import { quoteMysqlName as quote } from '../../sql/quote';
import { readOnlyAfterRuns } from './after-runs';

/** Rows beyond this are not fetched again: the lookups are then drawn. */
export const MAX_LOOKUP_KEYS = 20_000;

/** Which table's clustered index the keys go to, and the select-list expression that gives them. */
function lookupTarget(
  accesses: TableAccess[],
  indexes: InnodbIndexFacts[],
  aliases: Map<string, string>,
): { table: string; expression: string; rows: number } | undefined {
  const keyOf = (table: string) => {
    const c = indexes.find((f) => f.table === table && f.clustered);
    return c?.keyColumns?.length === 1 ? c.keyColumns[0] : undefined;
  };
  const [a, b] = accesses;
  if (accesses.length === 1 && LOOKUP_ACCESS.has(a.accessType) && a.key !== undefined && a.key !== 'PRIMARY' && !a.usingIndex) {
    const column = keyOf(a.table);
    return column ? { table: a.table, expression: quote(column), rows: a.rows * Math.max(1, a.loops) } : undefined;
  }
  if (accesses.length !== 2 || b.accessType !== 'eq_ref' || b.key !== 'PRIMARY' || b.ref?.length !== 1 || !keyOf(b.table)) return undefined;
  const m = /^[^.]+\.([^.]+)\.([^.]+)$/.exec(b.ref[0]);
  if (!m || m[1] !== a.table || a.table === b.table) return undefined;
  // The outer column as the statement names it: by the table's one alias, or by the table.
  const names = [...aliases].filter(([, table]) => table === a.table).map(([alias]) => alias);
  if (names.length > 1) return undefined;
  return { table: b.table, expression: `${quote(names[0] ?? a.table)}.${quote(m[2])}`, rows: Math.max(1, b.loops) };
}

/**
 * The keys per table, for the two shapes above, on a table whose clustered key is one whole-number column.
 * A failure costs only this, and is named: the lookups stay drawn.
 */
export async function readLookupKeys(
  conn: Connection,
  statement: string,
  accesses: TableAccess[],
  indexes: InnodbIndexFacts[],
  aliases: Map<string, string>,
  failures: string[],
): Promise<Record<string, number[]>> {
  const target = lookupTarget(accesses, indexes, aliases);
  if (!target || target.rows > MAX_LOOKUP_KEYS) return {};
  const sql = replaceSelectList(statement, target.expression, 'mysql');
  if (!sql) return {};
  // An ORDER BY … LIMIT the index does not give sorts every row it read, each looked up first: where the
  // statement gives fewer rows than its access read, it is asked again without them, in the index's order.
  const unordered = replaceSelectList(statement, target.expression, 'mysql', { unordered: true });
  // Read-only, as the runs were: a write hidden in a function of the WHERE clause fails instead of happening.
  const keys = await readOnlyAfterRuns(conn, `the keys ${target.table} is looked up by`, failures, undefined, async () => {
    const ask = async (text: string) => {
      const [rows] = await conn.query({ sql: text, rowsAsArray: true });
      return (rows as unknown[][]).slice(0, MAX_LOOKUP_KEYS + 1).map((r) => Number(r[0]));
    };
    const ordered = await ask(sql);
    return unordered && ordered.length < target.rows ? ask(unordered) : ordered;
  });
  if (!keys || keys.length > MAX_LOOKUP_KEYS || !keys.every(Number.isSafeInteger)) return {};
  return { [target.table]: keys };
}
