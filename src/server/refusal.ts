// Whether BufferLens will refuse a statement, decided from its text as the measurement's first check does,
// so that its lens says so and why instead of offering to measure. Only statements whose first word is a
// command the client knows: a typo keeps its measure lens, and the server then names the syntax error.
import type { Dialect } from '../shared/dialect';
import { checkPostgresStatement, POSTGRES_COMMANDS } from '../measure/postgres/statement-kind';
import { checkInnodbStatement, MYSQL_COMMANDS } from '../measure/innodb/statement-kind';
import { editorWording } from '../shared/report-view';

/** Statements measured as they come: every keystroke rebuilds the lenses, and most statements are these. */
const MEASURED = new Set(['SELECT', 'WITH', 'INSERT', 'UPDATE', 'DELETE', 'VALUES', 'TABLE', 'MERGE', 'REPLACE']);
/** Decisions per statement text, so a keystroke re-checks only what changed. */
const decided = new Map<string, string | undefined>();

/** Why the statement will be refused, in the editor's words; undefined when it may be measured. */
export function refusalOf(sql: string, dialect: Dialect): string | undefined {
  const word = /^[\s(]*([A-Za-z]+)/.exec(sql.replace(/^(\s*(--[^\n]*\n|\/\*[\s\S]*?\*\/|#[^\n]*\n))*/, ''))?.[1]?.toUpperCase();
  if (!word || MEASURED.has(word) || !(dialect === 'postgresql' ? POSTGRES_COMMANDS : MYSQL_COMMANDS).has(word)) return undefined;
  const key = `${dialect}\u0000${sql}`;
  if (decided.has(key)) return decided.get(key);
  const check = dialect === 'postgresql' ? checkPostgresStatement(sql, false) : checkInnodbStatement(sql, false);
  const reason = check.ok || check.kind !== 'refused' ? undefined : editorWording(check.reason);
  if (decided.size > 10_000) decided.clear();
  decided.set(key, reason);
  return reason;
}
