// A statement asked again for something else of the same rows: its select list replaced, the rest kept as
// written, so the server walks the same indexes in the same order. Only where that gives the same rows in
// the same order: one SELECT at the top, no DISTINCT, GROUP BY, HAVING, set operation, window, locking or
// INTO, and no LIMIT over an aggregate (it would count the result's rows, not the rows read).
import type { Dialect } from '../shared/dialect';
import { maskSql } from './mask';

/**
 * The statement with its select list replaced by `expression`, or undefined where that would give other rows.
 * `unordered`: also without its ORDER BY and what follows (LIMIT, OFFSET), for a plan that sorted every row
 * its scan returned: the scan's rows in the scan's order (undefined where there is no ORDER BY to cut).
 */
export function replaceSelectList(
  statement: string,
  expression: string,
  dialect: Dialect,
  options: { unordered?: boolean; ungrouped?: boolean } = {},
): string | undefined {
  const masked = maskSql(statement, dialect);
  const depthAt: number[] = [];
  let depth = 0;
  for (const ch of masked) {
    if (ch === ')') depth--;
    depthAt.push(depth);
    if (ch === '(') depth++;
  }
  const words = [
    ...masked.matchAll(/\b(SELECT|FROM|DISTINCT|DISTINCTROW|GROUP|HAVING|UNION|EXCEPT|INTERSECT|INTO|FOR|LOCK|WINDOW|OVER|LIMIT|FETCH|PROCEDURE|ORDER)\b/gi),
  ].map((m) => ({
    word: m[1].toUpperCase(),
    at: m.index,
    depth: depthAt[m.index],
  }));
  const selects = words.filter((w) => w.word === 'SELECT');
  if (selects.length !== 1 || selects[0].depth !== 0 || masked.slice(0, selects[0].at).trim() !== '') return undefined;
  const from = words.find((w) => w.word === 'FROM' && w.depth === 0);
  if (!from) return undefined;
  const refused = new Set(['DISTINCT', 'DISTINCTROW', 'GROUP', 'HAVING', 'UNION', 'EXCEPT', 'INTERSECT', 'INTO', 'FOR', 'LOCK', 'WINDOW', 'OVER', 'PROCEDURE']);
  if (options.ungrouped) return ungroupedRows(statement, expression, words, from.at, refused);
  if (words.some((w) => refused.has(w.word))) return undefined;
  // A LIMIT counts the result's rows: over an aggregate (a call in the select list) it is not the rows read.
  const limited = words.some((w) => (w.word === 'LIMIT' || w.word === 'FETCH') && w.depth === 0);
  if (limited && masked.slice(selects[0].at + 6, from.at).includes('(')) return undefined;
  const order = words.find((w) => w.word === 'ORDER' && w.depth === 0 && w.at > from.at);
  if (options.unordered) return order ? `SELECT ${expression} ${statement.slice(from.at, order.at).trimEnd()}` : undefined;
  return `SELECT ${expression} ${statement.slice(from.at)}`;
}

/**
 * The rows a GROUP BY groups, as its joins and scans produce them: the statement cut at its GROUP BY (and
 * what follows: HAVING, ORDER BY, LIMIT, which act on the groups). Undefined where there is no GROUP BY at
 * the top, or a refused word, an ORDER BY or a LIMIT before it.
 */
function ungroupedRows(
  statement: string,
  expression: string,
  words: Array<{ word: string; at: number; depth: number }>,
  from: number,
  refused: Set<string>,
): string | undefined {
  const group = words.find((w) => w.word === 'GROUP' && w.depth === 0 && w.at > from);
  if (!group) return undefined;
  const before = words.filter((w) => w.at < group.at);
  if (before.some((w) => refused.has(w.word) || w.word === 'LIMIT' || w.word === 'FETCH' || (w.word === 'ORDER' && w.depth === 0))) return undefined;
  return `SELECT ${expression} ${statement.slice(from, group.at).trimEnd()}`;
}

/**
 * A single-table UPDATE or DELETE as the SELECT of the rows it changes, in the order it finds them:
 * `UPDATE t [AS a] SET … WHERE …` and `DELETE FROM t WHERE …` become `SELECT * FROM t [AS a] WHERE …`, their
 * ORDER BY and LIMIT kept. Undefined for any other shape (a multi-table write, a join, no WHERE).
 */
export function writeAsSelect(statement: string, dialect: Dialect): string | undefined {
  const masked = maskSql(statement, dialect);
  if (masked.includes('(')) return undefined;
  const head = /^\s*UPDATE\s+(?!LOW_PRIORITY|IGNORE)([^,;]+?)\s+SET\s/di.exec(masked) ?? /^\s*DELETE\s+FROM\s+([^,;]+?)\s+(?=WHERE\s)/di.exec(masked);
  if (!head?.indices?.[1] || /\b(JOIN|USING)\b/i.test(head[1])) return undefined;
  const [tableStart, tableEnd] = head.indices[1];
  const where = /\bWHERE\b/i.exec(masked.slice(tableEnd));
  if (!where) return undefined;
  const whereAt = tableEnd + where.index;
  if (/\b(RETURNING|SELECT)\b/i.test(masked.slice(whereAt))) return undefined;
  return `SELECT * FROM ${statement.slice(tableStart, tableEnd)} ${statement.slice(whereAt)}`;
}
