// The primary keys of the rows a secondary index looked up, in that index's order, read after the last
// run: where a secondary key's rows lie in the clustered index is in no statistic of InnoDB, and on an
// AUTO_INCREMENT key the layout places each one (key-position.ts). The statement is asked again with its
// select list replaced by the key, so it walks the same index; after the runs, so it touches nothing run 1
// reads first. Only a plain SELECT of one table: a join's lookups come from another table's rows, and
// GROUP BY, DISTINCT, UNION, subqueries or a LIMIT over aggregates would give other rows.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/facts';
import type { TableAccess } from '../../predict/innodb/plan';
import { LOOKUP_ACCESS } from '../../predict/innodb/lookup-trace';
import { maskSql } from '../../sql/mask';

/** Rows beyond this are not fetched again: the lookups are then drawn. */
export const MAX_LOOKUP_KEYS = 20_000;

const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;

/** The statement with its select list replaced by `column`, or undefined where that would give other rows. */
export function keysQuery(statement: string, column: string): string | undefined {
  const masked = maskSql(statement, 'mysql');
  const depthAt: number[] = [];
  let depth = 0;
  for (const ch of masked) {
    if (ch === ')') depth--;
    depthAt.push(depth);
    if (ch === '(') depth++;
  }
  const words = [...masked.matchAll(/\b(SELECT|FROM|DISTINCT|DISTINCTROW|GROUP|HAVING|UNION|EXCEPT|INTERSECT|INTO|FOR|LOCK|WINDOW|OVER|LIMIT|PROCEDURE)\b/gi)].map((m) => ({
    word: m[1].toUpperCase(),
    at: m.index,
    depth: depthAt[m.index],
  }));
  const selects = words.filter((w) => w.word === 'SELECT');
  if (selects.length !== 1 || selects[0].depth !== 0 || masked.slice(0, selects[0].at).trim() !== '') return undefined;
  const from = words.find((w) => w.word === 'FROM' && w.depth === 0);
  if (!from) return undefined;
  const refused = new Set(['DISTINCT', 'DISTINCTROW', 'GROUP', 'HAVING', 'UNION', 'EXCEPT', 'INTERSECT', 'INTO', 'FOR', 'LOCK', 'WINDOW', 'OVER', 'PROCEDURE']);
  if (words.some((w) => refused.has(w.word))) return undefined;
  // A LIMIT counts the result's rows: over an aggregate (a call in the select list) it is not the rows read.
  const limited = words.some((w) => w.word === 'LIMIT' && w.depth === 0);
  if (limited && masked.slice(selects[0].at + 6, from.at).includes('(')) return undefined;
  return `SELECT ${quote(column)} ${statement.slice(from.at)}`;
}

/**
 * The keys per table, for a statement whose one table access is a secondary index that looks its rows up
 * (not covering), on a table whose clustered key is one whole-number column. A failure costs only this:
 * the lookups stay drawn.
 */
export async function readLookupKeys(conn: Connection, statement: string, accesses: TableAccess[], indexes: InnodbIndexFacts[]): Promise<Record<string, number[]>> {
  if (accesses.length !== 1) return {};
  const a = accesses[0];
  if (!LOOKUP_ACCESS.has(a.accessType) || a.key === undefined || a.key === 'PRIMARY' || a.usingIndex) return {};
  const clustered = indexes.find((f) => f.table === a.table && f.clustered);
  const column = clustered?.keyColumns?.length === 1 ? clustered.keyColumns[0] : undefined;
  if (!column || a.rows * Math.max(1, a.loops) > MAX_LOOKUP_KEYS) return {};
  const sql = keysQuery(statement, column);
  if (!sql) return {};
  try {
    const [rows] = await conn.query({ sql, rowsAsArray: true });
    const keys = (rows as unknown[][]).slice(0, MAX_LOOKUP_KEYS + 1).map((r) => Number(r[0]));
    if (keys.length > MAX_LOOKUP_KEYS || !keys.every(Number.isSafeInteger)) return {};
    return { [a.table]: keys };
  } catch {
    return {};
  }
}
