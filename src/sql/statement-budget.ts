// The page budget written above one statement of a document: the document split as the lenses split it,
// the statement found by its text, its annotation lines read. Pure, for the editor's lens and diagnostics.
import { budgetAbove, BudgetSyntaxError, type AnnotatedBudget } from '../shared/budget';
import type { Dialect } from '../shared/dialect';
import { splitMysql } from './split-mysql';
import { splitPostgres } from './split-postgres';

export type StatementBudget = { budget: AnnotatedBudget } | { error: string; line: number } | undefined;

const key = (sql: string) => sql.replace(/\s+/g, ' ').trim();

export function budgetOfStatement(text: string, sql: string, dialect: Dialect): StatementBudget {
  const wanted = key(sql);
  const st = (dialect === 'postgresql' ? splitPostgres(text) : splitMysql(text)).find((s) => key(s.sql) === wanted);
  if (!st) return undefined;
  try {
    const budget = budgetAbove(text.split('\n'), st.start.line);
    return budget ? { budget } : undefined;
  } catch (err) {
    if (err instanceof BudgetSyntaxError) return { error: err.message, line: Math.max(0, st.start.line - 1) };
    throw err;
  }
}
