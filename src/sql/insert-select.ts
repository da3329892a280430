// An INSERT … SELECT as each named column's expression and the query that gives the rows, so that what the
// rows would write into an index can be asked for without writing them. Pure; the text is read, not run.
import { maskSql } from './mask';

export interface InsertSelect {
  /** The table as written (possibly schema-qualified, quoted). */
  table: string;
  /** Each named column (unquoted) and the select-list expression that fills it, as written. */
  columns: Array<{ column: string; expression: string }>;
  /** The SELECT from its FROM on, as written: FROM, WHERE, GROUP BY, ORDER BY, LIMIT. */
  rest: string;
}

/**
 * `INSERT [IGNORE] [INTO] t (c1, …) SELECT e1, … FROM …` (MySQL and MariaDB). Undefined for any other shape:
 * no column list, VALUES, a WITH clause, DISTINCT, a set operation, ON DUPLICATE KEY UPDATE or RETURNING,
 * or as many expressions as columns not found.
 */
export function insertSelectColumns(statement: string): InsertSelect | undefined {
  const masked = maskSql(statement, 'mysql');
  const head = /^\s*INSERT\s+(?:IGNORE\s+)?(?:INTO\s+)?([`\w$.]+)\s*\(([^()]*)\)\s*SELECT\s+/di.exec(masked);
  if (!head?.indices) return undefined;
  const depth = depths(masked);
  const listStart = head.indices[0][1];
  const from = topLevelWord(masked, depth, /\bFROM\b/gi, listStart);
  if (from < 0 || topLevelWord(masked, depth, /\b(UNION|EXCEPT|INTERSECT|DUPLICATE|RETURNING)\b/gi, listStart) >= 0) return undefined;
  if (/^\s*(DISTINCT|DISTINCTROW|ALL)\b/i.test(masked.slice(listStart, from))) return undefined;
  const expressions = splitTopLevel(statement, masked, depth, listStart, from);
  const columns = statement
    .slice(head.indices[2][0], head.indices[2][1])
    .split(',')
    .map((c) => c.trim().replace(/^`|`$/g, ''));
  if (columns.some((c) => c === '') || expressions.length !== columns.length) return undefined;
  return {
    table: statement.slice(head.indices[1][0], head.indices[1][1]),
    columns: columns.map((column, k) => ({ column, expression: expressions[k] })),
    rest: statement.slice(from).trim().replace(/;\s*$/, ''),
  };
}

/** Parenthesis depth at each position of masked text. */
function depths(masked: string): Int32Array {
  const out = new Int32Array(masked.length);
  let d = 0;
  for (let k = 0; k < masked.length; k++) {
    if (masked[k] === ')') d--;
    out[k] = d;
    if (masked[k] === '(') d++;
  }
  return out;
}

function topLevelWord(masked: string, depth: Int32Array, word: RegExp, after: number): number {
  for (const m of masked.matchAll(word)) if (m.index >= after && depth[m.index] === 0) return m.index;
  return -1;
}

/** The text between `from` and `to` split at its top-level commas, each part trimmed. */
function splitTopLevel(text: string, masked: string, depth: Int32Array, from: number, to: number): string[] {
  const parts: string[] = [];
  let start = from;
  for (let k = from; k < to; k++) {
    if (masked[k] !== ',' || depth[k] !== 0) continue;
    parts.push(text.slice(start, k).trim());
    start = k + 1;
  }
  parts.push(text.slice(start, to).trim());
  return parts;
}
