// What a workload statement's text says, for both engines' models: its role in the transaction, and
// which variable an INSERT puts in a column. The plans say the rest.
import type { Dialect } from '../shared/dialect';
import { classifyStatement, type StatementRole } from '../sql/classify/classify';

/** The statement's role, as every path classifies it (sql/classify). */
export function statementRole(sql: string, dialect: Dialect): StatementRole {
  return classifyStatement(sql, dialect).role;
}

/** Which variable an INSERT puts in an index's first column: `INSERT INTO t (a, b) VALUES (:x, :y)`. */
export function insertedKey(text: string, ix: { firstColumn: string; ascending: boolean }): { variable: string } | { constant: number } | 'ascending' {
  if (ix.ascending) return 'ascending';
  const m = /insert\s+into\s+[^(]+\(([^)]*)\)\s*values\s*\(([^)]*)\)/i.exec(text);
  if (m) {
    const cols = m[1].split(',').map((c) => c.trim().replace(/"/g, '').toLowerCase());
    const vals = m[2].split(',').map((v) => v.trim());
    const v = vals[cols.indexOf(ix.firstColumn.toLowerCase())];
    if (v?.startsWith(':')) return { variable: v.slice(1) };
    if (v !== undefined && /^-?\d+(\.\d+)?$/.test(v)) return { constant: Number(v) };
  }
  return 'ascending';
}
