// Whether BufferLens will refuse a statement, decided from its text as the measurement's first check does,
// so that its lens says so and why instead of offering to measure. Only statements whose first word is a
// command the client knows: a typo keeps its measure lens, and the server then names the syntax error.
import type { Dialect } from '../shared/dialect';
import { POSTGRES_COMMANDS } from '../sql/classify/postgres-kind';
import { MYSQL_COMMANDS } from '../sql/classify/mysql-kind';
import { classifyStatement, firstKeyword } from '../sql/classify/classify';
import { editorWording } from '../shared/report-view';

/** Statements measured as they come: every keystroke rebuilds the lenses, and most statements are these. */
const MEASURED = new Set(['SELECT', 'WITH', 'INSERT', 'UPDATE', 'DELETE', 'VALUES', 'TABLE', 'MERGE', 'REPLACE']);
/** Decisions per statement text, so a keystroke re-checks only what changed. */
const decided = new Map<string, string | undefined>();

/** Why the statement will be refused, in the editor's words; undefined when it may be measured. */
export function refusalOf(sql: string, dialect: Dialect): string | undefined {
  const word = firstKeyword(sql, dialect);
  if (!word || MEASURED.has(word) || !(dialect === 'postgresql' ? POSTGRES_COMMANDS : MYSQL_COMMANDS).has(word)) return undefined;
  const key = `${dialect}\u0000${sql}`;
  if (decided.has(key)) return decided.get(key);
  const refusal = classifyStatement(sql, dialect).refusal;
  const reason = refusal === undefined ? undefined : editorWording(refusal);
  if (decided.size > 10_000) decided.clear();
  decided.set(key, reason);
  return reason;
}
