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
export function replaceSelectList(statement: string, expression: string, dialect: Dialect, options: { unordered?: boolean } = {}): string | undefined {
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
  if (words.some((w) => refused.has(w.word))) return undefined;
  // A LIMIT counts the result's rows: over an aggregate (a call in the select list) it is not the rows read.
  const limited = words.some((w) => (w.word === 'LIMIT' || w.word === 'FETCH') && w.depth === 0);
  if (limited && masked.slice(selects[0].at + 6, from.at).includes('(')) return undefined;
  const order = words.find((w) => w.word === 'ORDER' && w.depth === 0 && w.at > from.at);
  if (options.unordered) return order ? `SELECT ${expression} ${statement.slice(from.at, order.at).trimEnd()}` : undefined;
  return `SELECT ${expression} ${statement.slice(from.at)}`;
}
