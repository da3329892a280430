// The primary keys a statement looks up in a clustered index, in the order it looks them up, read after
// the last run: where a secondary key's rows lie in the clustered index, or which rows a join's outer column
// points at, is in no statistic of InnoDB, and on an AUTO_INCREMENT key the layout places each one
// (key-position.ts). The statement is asked again with its select list replaced by the key, so it walks
// the same indexes in the same order; after the runs, so it touches nothing run 1 reads first. Two shapes:
// one table read through a secondary index that does not cover the query (its rows' primary keys), and two
// tables where the second is an eq_ref on its primary key from one column of the first (that column's
// values, and where the first is read through such a secondary index, its rows' primary keys too). A join's
// GROUP BY is cut (it groups the join's rows); DISTINCT, UNION, subqueries or a LIMIT over aggregates would
// give other rows.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/facts';
import type { TableAccess } from '../../predict/innodb/plan';
import { LOOKUP_ACCESS } from '../../predict/innodb/lookup-trace';
import { replaceSelectList } from '../../sql/select-list';
import { quoteMysqlName as quote } from '../../sql/quote';
import { readOnlyAfterRuns } from './after-runs';

/** Rows beyond this are not fetched again: the lookups are then drawn. */
export const MAX_LOOKUP_KEYS = 20_000;

interface LookupTarget {
  table: string;
  expression: string;
  rows: number;
}

/** Which tables' clustered indexes the keys go to, and the select-list expressions that give them. */
function lookupTargets(accesses: TableAccess[], indexes: InnodbIndexFacts[], aliases: Map<string, string>): LookupTarget[] {
  const keyOf = (table: string, leading = false) => {
    const c = indexes.find((f) => f.table === table && f.clustered);
    return c?.keyColumns?.length === 1 || (leading && c?.keyColumns?.length) ? c.keyColumns[0] : undefined;
  };
  const [a, b] = accesses;
  // The outer table as the statement names it: by its one alias, or by the table.
  const names = [...aliases].filter(([, table]) => table === a.table).map(([alias]) => alias);
  // A range or lookup through it, or a scan of it in its order that a LIMIT stops (ORDER BY … LIMIT).
  const secondary = (LOOKUP_ACCESS.has(a.accessType) || a.accessType === 'index') && a.key !== undefined && a.key !== 'PRIMARY' && !a.usingIndex;
  // A composite key's first column places its rows (range-placement.ts): rows of one value lie together.
  const own = secondary ? keyOf(a.table, true) : undefined;
  const outerLookups = (qualified: boolean): LookupTarget[] =>
    own ? [{ table: a.table, expression: qualified ? `${quote(names[0] ?? a.table)}.${quote(own)}` : quote(own), rows: a.rows * Math.max(1, a.loops) }] : [];
  if (accesses.length === 1) return outerLookups(false);
  if (accesses.length !== 2 || b.accessType !== 'eq_ref' || b.key !== 'PRIMARY' || b.ref?.length !== 1 || !keyOf(b.table)) return [];
  const m = /^[^.]+\.([^.]+)\.([^.]+)$/.exec(b.ref[0]);
  if (!m || m[1] !== a.table || a.table === b.table || names.length > 1) return [];
  // A join through the outer table's secondary index: its own rows' keys too, in the same pass.
  return [...outerLookups(true), { table: b.table, expression: `${quote(names[0] ?? a.table)}.${quote(m[2])}`, rows: Math.max(1, b.loops) }];
}

/**
 * The keys per table, for the two shapes above, on a table whose clustered key is one whole-number column
 * (or, for the first shape, whose composite key starts with one: that column's values).
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
  const targets = lookupTargets(accesses, indexes, aliases);
  if (targets.length === 0 || targets.some((t) => t.rows > MAX_LOOKUP_KEYS)) return {};
  const expression = targets.map((t) => t.expression).join(', ');
  // A GROUP BY over a join groups the rows the join produced: they are asked for without it.
  const sql =
    replaceSelectList(statement, expression, 'mysql') ??
    (accesses.length > 1 ? replaceSelectList(statement, expression, 'mysql', { ungrouped: true }) : undefined);
  if (!sql) return {};
  // A scan a LIMIT stopped fetched up to 8 rows more (InnoDB's prefetch, read-context.ts): their keys too.
  const past = accesses.length === 1 ? withPrefetchedRows(sql) : sql;
  // An ORDER BY … LIMIT the index does not give sorts every row it read, each looked up first: where the
  // statement gives fewer rows than its access read, it is asked again without them, in the index's order.
  const unordered = replaceSelectList(statement, expression, 'mysql', { unordered: true });
  // Read-only, as the runs were: a write hidden in a function of the WHERE clause fails instead of happening.
  const rows = await readOnlyAfterRuns(conn, `the keys ${targets.map((t) => t.table).join(' and ')} are looked up by`, failures, undefined, async () => {
    const ask = async (text: string) => {
      const [result] = await conn.query({ sql: text, rowsAsArray: true });
      return (result as unknown[][]).slice(0, MAX_LOOKUP_KEYS + 1).map((r) => r.map(Number));
    };
    const ordered = await ask(past);
    return unordered && ordered.length < targets[0].rows ? ask(unordered) : ordered;
  });
  if (!rows || rows.length > MAX_LOOKUP_KEYS) return {};
  const out: Record<string, number[]> = {};
  targets.forEach((t, k) => {
    const keys = rows.map((r) => r[k]);
    if (keys.every(Number.isSafeInteger)) out[t.table] = keys;
  });
  return out;
}

/** The statement with a closing `LIMIT n` raised by the 8 rows InnoDB's prefetch may fetch past it; else as it is. */
export function withPrefetchedRows(sql: string): string {
  return sql.replace(/\bLIMIT\s+(\d+)(\s*;?\s*)$/i, (_, limit: string, end: string) => `LIMIT ${Number(limit) + 8}${end}`);
}
