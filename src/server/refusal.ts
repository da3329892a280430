// Whether BufferLens will refuse a statement, decided from its text as the measurement's first check does,
// so that its lens says so and why instead of offering to measure. Only statements whose first word is a
// command the client knows: a typo keeps its measure lens, and the server then names the syntax error.
import type { Dialect } from '../shared/dialect';
import { checkPostgresStatement } from '../measure/postgres/statement-kind';
import { checkInnodbStatement } from '../measure/innodb/statement-kind';
import { editorWording } from '../shared/report-view';

const POSTGRES_COMMANDS = new Set('ABORT ALTER ANALYZE BEGIN CALL CHECKPOINT CLOSE CLUSTER COMMENT COMMIT COPY CREATE DEALLOCATE DECLARE DELETE DISCARD DO DROP END EXECUTE EXPLAIN FETCH GRANT IMPORT INSERT LISTEN LOAD LOCK MERGE MOVE NOTIFY PREPARE REASSIGN REFRESH REINDEX RELEASE RESET REVOKE ROLLBACK SAVEPOINT SECURITY SELECT SET SHOW START TABLE TRUNCATE UNLISTEN UPDATE VACUUM VALUES WITH'.split(' '));
const MYSQL_COMMANDS = new Set('ALTER ANALYZE BEGIN BINLOG CACHE CALL CHANGE CHECK CHECKSUM COMMIT CREATE DEALLOCATE DELETE DESC DESCRIBE DO DROP EXECUTE EXPLAIN FLUSH GRANT HANDLER HELP INSERT INSTALL KILL LOAD LOCK OPTIMIZE PREPARE PURGE RELEASE RENAME REPAIR REPLACE RESET REVOKE ROLLBACK SAVEPOINT SELECT SET SHOW SHUTDOWN START STOP TABLE TRUNCATE UNINSTALL UNLOCK UPDATE USE VALUES WITH XA'.split(' '));

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
