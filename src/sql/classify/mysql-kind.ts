// What may be measured on MySQL/MariaDB inside START TRANSACTION … ROLLBACK, and what must be refused.
import { splitMysqlOffsets } from '../split-mysql';
import type { CheckedStatement, StatementCheck } from './statement-check';
import { executableComment, maskSql } from '../mask';

export type InnodbStatementKind = 'read' | 'dml';

/** The commands MySQL's and MariaDB's grammars start with, to tell a typo from a statement not measured. */
export const MYSQL_COMMANDS = new Set(
  (
    'ALTER ANALYZE BEGIN BINLOG CACHE CALL CHANGE CHECK CHECKSUM COMMIT CREATE DEALLOCATE DELETE DESC DESCRIBE DO DROP EXECUTE EXPLAIN ' +
    'FLUSH GRANT HANDLER HELP INSERT INSTALL KILL LOAD LOCK OPTIMIZE PREPARE PURGE RELEASE RENAME REPAIR REPLACE RESET REVOKE ROLLBACK ' +
    'SAVEPOINT SELECT SET SHOW SHUTDOWN START STOP TABLE TRUNCATE UNINSTALL UNLOCK UPDATE USE VALUES WITH XA'
  ).split(' '),
);

/** What can be measured, as a refusal says it. */
const MEASURED_VERBS = 'BufferLens measures SELECT, INSERT, UPDATE, DELETE and REPLACE statements';

/** Statements that commit implicitly: a rollback after them undoes nothing. */
const IMPLICIT_COMMIT = new RegExp(
  '^(' +
    [
      'CREATE',
      'ALTER',
      'DROP',
      'RENAME',
      'TRUNCATE',
      'LOCK\\s+TABLES?',
      'UNLOCK\\s+TABLES?',
      'GRANT',
      'REVOKE',
      'ANALYZE\\s+TABLE',
      'OPTIMIZE',
      'REPAIR',
      'CHECK\\s+TABLE',
      'FLUSH',
      'INSTALL',
      'UNINSTALL',
      'LOAD\\s+INDEX',
      'CACHE\\s+INDEX',
      'START\\s+TRANSACTION',
      'BEGIN',
      'COMMIT',
      'ROLLBACK',
      'SET\\s+AUTOCOMMIT',
      'XA',
      'LOAD\\s+DATA',
      'RESET',
      'PURGE',
      'CHANGE\\s+(MASTER|REPLICATION)',
      'START\\s+(SLAVE|REPLICA)',
      'STOP\\s+(SLAVE|REPLICA)',
    ].join('|') +
    ')\\b',
);

/** Statements refused whatever the user allows: they act on other sessions or the server, not on data. */
const NEVER: Array<[RegExp, string]> = [
  [/^KILL\b/, "KILL ends another session's statement or connection, which no rollback gives back"],
  [/^SHUTDOWN\b/, 'SHUTDOWN stops the server'],
];

export type InnodbStatementCheck = ({ ok: true; kind: InnodbStatementKind } & CheckedStatement) | Extract<StatementCheck, { ok: false }>;

function head(sql: string): string {
  let s = sql;
  for (;;) {
    const t = s.replace(/^\s+/, '');
    if (t.startsWith('#') || /^--\s/.test(t)) s = t.slice(t.indexOf('\n') < 0 ? t.length : t.indexOf('\n') + 1);
    else if (t.startsWith('/*') && !executableComment(t, 0)) {
      const end = t.indexOf('*/');
      s = end < 0 ? '' : t.slice(end + 2);
    } else return t.replace(/^\(+\s*/, '').toUpperCase();
  }
}

export function checkInnodbStatement(input: string, commit: boolean): InnodbStatementCheck {
  const parts = splitMysqlOffsets(input);
  if (parts.length === 0) return { ok: false, kind: 'input', reason: 'no statement to measure: the input is empty or only comments' };
  const statement = input.slice(parts[0][0], parts[0][1]);
  const h = head(statement);
  const warnings = parts.length > 1 ? [`the input has ${parts.length} statements; only the first was measured`] : [];
  const never = NEVER.find(([re]) => re.test(h));
  if (never) return { ok: false, kind: 'refused', reason: `${never[1]}: BufferLens never sends it` };
  if (IMPLICIT_COMMIT.test(h)) {
    const word =
      /^[A-Z]+(\s+(TEMPORARY\s+)?(TABLES?|INDEX|VIEW|DATABASE|SCHEMA|USER|PROCEDURE|FUNCTION|TRIGGER|EVENT|SERVER))?/.exec(h)?.[0] ?? 'this statement';
    if (!commit) {
      return {
        ok: false,
        kind: 'refused',
        reason: `${word} commits implicitly, so BufferLens could not roll it back (--commit measures it and keeps its effects)`,
      };
    }
  }
  const masked = maskSql(h, 'mysql');
  if (/\bINTO\s+(OUTFILE|DUMPFILE)\b/.test(masked)) {
    return { ok: false, kind: 'refused', reason: 'SELECT … INTO OUTFILE/DUMPFILE writes a file on the server, which a rollback cannot remove' };
  }
  if (/^(SHOW|DESCRIBE|DESC|EXPLAIN|DO|HELP)\b/.test(h)) {
    return {
      ok: false,
      kind: 'refused',
      reason: `${MEASURED_VERBS}; ${/^[A-Z]+/.exec(h)![0]} cannot be measured (the server's ANALYZE does not take it)`,
    };
  }
  if (/^(SELECT|WITH|TABLE|VALUES)\b/.test(h)) {
    return { ok: true, statement, offset: parts[0][0], kind: 'read', dataChanging: false, otherStatements: parts.length - 1, warnings };
  }
  if (/^(INSERT|UPDATE|DELETE|REPLACE)\b/.test(h) || (commit && IMPLICIT_COMMIT.test(h))) {
    return { ok: true, statement, offset: parts[0][0], kind: 'dml', dataChanging: true, otherStatements: parts.length - 1, warnings };
  }
  if (/^CALL\b/.test(h) && !commit) {
    return {
      ok: false,
      kind: 'refused',
      reason: 'a stored procedure may commit or change non-transactional state, so BufferLens could not promise a rollback (--commit measures it)',
    };
  }
  if (commit) return { ok: true, statement, offset: parts[0][0], kind: 'dml', dataChanging: true, otherStatements: parts.length - 1, warnings };
  const word = /^[A-Z]+/.exec(h)?.[0];
  // Not sent to the server to name a syntax error: on MySQL the statement would run as it is written.
  if (word && !MYSQL_COMMANDS.has(word)) {
    return {
      ok: false,
      kind: 'input',
      reason: `"${statement.trim().split(/\s+/)[0].slice(0, 30)}" is not a MySQL or MariaDB command (a typo?); ${MEASURED_VERBS}`,
    };
  }
  return {
    ok: false,
    kind: 'refused',
    reason: `BufferLens measures SELECT, INSERT, UPDATE, DELETE and REPLACE statements; "${h.slice(0, 30)}" is none of them`,
  };
}
