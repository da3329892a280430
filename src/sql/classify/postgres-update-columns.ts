// The columns an UPDATE's SET clause assigns, which decide whether PostgreSQL can update a row in place
// (HOT: no indexed column changes). Read from the statement text: identifiers before '=' at the clause's
// top level, and the lists of a (a, b) = (…) assignment. null when the statement is not a plain UPDATE.
import { maskSql } from '../mask';

export function updatedColumns(statement: string): string[] | null {
  const text = maskSql(statement, 'postgresql');
  const m = /^\s*(?:WITH\b[\s\S]*?\)\s*)?UPDATE\s+(?:ONLY\s+)?[\w."]+(?:\s+(?:AS\s+)?[\w"]+)?\s+SET\s+/i.exec(text);
  if (!m) return null;
  const rest = text.slice(m.index + m[0].length);
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= rest.length; i++) {
    const ch = rest[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    const end = i === rest.length || (depth === 0 && (ch === ',' || /^\s(FROM|WHERE|RETURNING)\b/i.test(rest.slice(i, i + 11))));
    if (!end) continue;
    const item = rest.slice(start, i).trim();
    const target = item.split('=')[0].trim();
    for (const name of target.replace(/^\(|\)$/g, '').split(',')) {
      const col = name.trim().split(/[.[]/)[0].replace(/"/g, '');
      // Unquoted identifiers fold to lower case, as PostgreSQL folds them.
      if (col) out.push(/"/.test(name) ? col : col.toLowerCase());
    }
    if (i < rest.length && ch !== ',') break;
    start = i + 1;
  }
  return out;
}
