// What a workload statement's text says, for both engines' models: its role in the transaction, and
// which variable an INSERT puts in a column. The plans say the rest.
import type { Dialect } from '../shared/dialect';
import { classifyStatement, type StatementRole } from '../sql/classify/classify';

/** The statement's role, as every path classifies it (sql/classify). */
export function statementRole(sql: string, dialect: Dialect): StatementRole {
  return classifyStatement(sql, dialect).role;
}

/**
 * Which variable an INSERT puts in an index's first column: `INSERT INTO t (a, b) VALUES (:x, :y)`. A value
 * given for an auto-increment column is where the row goes (sysbench re-inserts the id it deleted); only a
 * column left to its sequence is appended at the right edge.
 */
export function insertedKey(text: string, ix: { firstColumn: string; ascending: boolean }): { variable: string } | { constant: number } | 'ascending' {
  const m = /insert\s+into\s+[^(]+\(([^)]*)\)\s*values\s*\(([^)]*)\)/i.exec(text);
  if (m) {
    const cols = m[1].split(',').map((c) => c.trim().replace(/["`]/g, '').toLowerCase());
    const vals = m[2].split(',').map((v) => v.trim());
    const v = vals[cols.indexOf(ix.firstColumn.toLowerCase())];
    if (v?.startsWith(':')) return { variable: v.slice(1) };
    if (v !== undefined && /^-?\d+(\.\d+)?$/.test(v)) return { constant: Number(v) };
  }
  return 'ascending';
}

/** The columns an UPDATE's SET assigns (lower case): `UPDATE t SET k = k + 1, c = :c WHERE …` gives k and c. */
export function assignedColumns(text: string): string[] {
  // Strings go first, so a WHERE, a comma or an = inside a value is not read as part of the clause.
  const bare = text.replace(/'(?:[^']|'')*'/g, "''");
  const m = /\bset\b([\s\S]*?)(?:\bwhere\b|\border\s+by\b|\blimit\b|;|$)/i.exec(bare);
  if (!m || !/^\s*update\b/i.test(bare)) return [];
  return [...m[1].matchAll(/(?:^|,)\s*(?:[`"]?\w+[`"]?\.)?[`"]?(\w+)[`"]?\s*=/g)].map((a) => a[1].toLowerCase());
}
