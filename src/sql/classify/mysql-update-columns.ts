// The columns a MySQL/MariaDB UPDATE's SET clause assigns, which decide which secondary indexes the update
// changes, and which of them are assigned from themselves (`k = k + 1`, so the new key sits beside the old).
// Read from the statement text at the clause's top level; null when the statement is not an UPDATE.
import { maskSql } from '../mask';

export interface SetClause {
  columns: string[];
  selfRelative: string[];
}

const name = (s: string) => s.trim().replace(/`/g, '').split('.').pop()!.trim().toLowerCase();

export function updateSetClause(statement: string): SetClause | null {
  const masked = maskSql(statement, 'mysql');
  const m = /^\s*UPDATE\b[\s\S]*?\bSET\s+/i.exec(masked);
  if (!m) return null;
  const start = m.index + m[0].length;
  const items: Array<[number, number]> = [];
  let depth = 0;
  let from = start;
  let i = start;
  for (; i < masked.length; i++) {
    const ch = masked[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && ch === ',') {
      items.push([from, i]);
      from = i + 1;
    } else if (depth === 0 && /\s/.test(ch) && /^\s(WHERE|ORDER\s+BY|LIMIT|RETURNING)\b/i.test(masked.slice(i, i + 12))) break;
  }
  items.push([from, i]);
  const columns: string[] = [];
  const selfRelative: string[] = [];
  for (const [a, b] of items) {
    // Masked text keeps positions: split at the first '=' of the masked item, read names from the original.
    const eq = masked.slice(a, b).indexOf('=');
    if (eq < 0) continue;
    const col = name(statement.slice(a, a + eq));
    if (!col) continue;
    columns.push(col);
    const value = statement.slice(a + eq + 1, b).trim();
    const self = new RegExp(`^\`?(?:\\w+\`?\\.\`?)?${col.replace(/[^\w]/g, '')}\`?\\s*[-+]`, 'i');
    if (self.test(value)) selfRelative.push(col);
  }
  return { columns, selfRelative };
}
