// The page budget written above one statement of a document: the document split as the lenses split it,
// the statement found by its text, its annotation lines read. Pure, for the editor's lens and diagnostics.
import { budgetAbove, BudgetSyntaxError, type AnnotatedBudget } from '../shared/budget';
import type { Dialect } from '../shared/dialect';
import { splitMysql } from './split-mysql';
import { splitPostgres } from './split-postgres';

export type StatementBudget = { budget: AnnotatedBudget } | { error: string; line: number } | undefined;

const key = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** The statement of the document with this text (whitespace aside), as the lenses split it. */
function find(text: string, sql: string, dialect: Dialect) {
  const wanted = key(sql);
  return (dialect === 'postgresql' ? splitPostgres(text) : splitMysql(text)).find((s) => key(s.sql) === wanted);
}

/**
 * Where a position in a statement (1-based line and column of the statement as split, which is how the
 * measurement reports a server's error) is in the document, 0-based; undefined when it is not there.
 */
export function documentPosition(
  text: string,
  sql: string,
  dialect: Dialect,
  at: { line: number; column: number },
): { line: number; character: number } | undefined {
  const st = find(text, sql, dialect);
  if (!st) return undefined;
  return at.line <= 1
    ? { line: st.start.line, character: st.start.character + Math.max(0, at.column - 1) }
    : { line: st.start.line + at.line - 1, character: Math.max(0, at.column - 1) };
}

export function budgetOfStatement(text: string, sql: string, dialect: Dialect): StatementBudget {
  const st = find(text, sql, dialect);
  if (!st) return undefined;
  try {
    const budget = budgetAbove(text.split('\n'), st.start.line);
    return budget ? { budget } : undefined;
  } catch (err) {
    if (err instanceof BudgetSyntaxError) return { error: err.message, line: Math.max(0, st.start.line - 1) };
    throw err;
  }
}
