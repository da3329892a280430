// The page budget written above one statement of a document: the document split as the lenses split it,
// the statement found by its text, its annotation lines read. Pure, for the editor's lens and diagnostics.
import { budgetAbove, BudgetSyntaxError, type AnnotatedBudget } from '../shared/budget';
import type { Dialect } from '../shared/dialect';
import { splitMysql } from './split-mysql';
import { splitPostgres } from './split-postgres';

export type StatementBudget = { budget: AnnotatedBudget } | { error: string; line: number } | undefined;

const key = (sql: string) => sql.replace(/\s+/g, ' ').trim();

const split = (text: string, dialect: Dialect) => (dialect === 'postgresql' ? splitPostgres(text) : splitMysql(text));

/** The statement of the document with this text (whitespace aside), as the lenses split it. */
function find(text: string, sql: string, dialect: Dialect) {
  const wanted = key(split(sql, dialect)[0]?.sql ?? sql);
  return split(text, dialect).find((s) => key(s.sql) === wanted);
}

/**
 * Where a position in the text measured (1-based line and column, which is how the
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
  // The position is in the text measured, which may begin with what the split leaves out (blank lines, comments).
  const own = split(sql, dialect)[0]?.start ?? { line: 0, character: 0 };
  const onFirst = at.line - 1 === own.line;
  at = { line: at.line - own.line, column: onFirst ? at.column - own.character : at.column };
  return at.line <= 1
    ? { line: st.start.line, character: st.start.character + Math.max(0, at.column - 1) }
    : { line: st.start.line + at.line - 1, character: Math.max(0, at.column - 1) };
}

/**
 * The columns (0-based, end exclusive) an error at `character` of a line underlines: the word that starts
 * there, else the run of other characters up to the next space or word. A word that merely ends there is not
 * it: "abc)" with the error at ")" underlines ")", where the editor's word lookup would give "abc" and put
 * the marker three columns before the column the message names.
 */
export function errorSpan(line: string, character: number): { start: number; end: number } {
  const rest = line.slice(character);
  const word = /^\w+/.exec(rest) ?? /^[^\s\w]+/.exec(rest);
  return { start: character, end: character + Math.max(1, word?.[0].length ?? 1) };
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
