// What EXPLAIN ANALYZE can measure, and what must be refused before anything runs.
import { splitPostgresOffsets } from '../split-postgres';
import type { StatementCheck } from './statement-check';

/** Statements PostgreSQL's EXPLAIN ANALYZE accepts (the grammar's ExplainableStmt). */
const EXPLAINABLE = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE', 'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'EXECUTE', 'DECLARE']);

/** Every command PostgreSQL's grammar starts with, to tell a typo from a statement EXPLAIN does not take. */
export const POSTGRES_COMMANDS = new Set(
  (
    'ABORT ALTER ANALYZE BEGIN CALL CHECKPOINT CLOSE CLUSTER COMMENT COMMIT COPY CREATE DEALLOCATE DECLARE DELETE DISCARD DO DROP END ' +
    'EXECUTE EXPLAIN FETCH GRANT IMPORT INSERT LISTEN LOAD LOCK MERGE MOVE NOTIFY PREPARE REASSIGN REFRESH REINDEX RELEASE RESET REVOKE ' +
    'ROLLBACK SAVEPOINT SECURITY SELECT SET SHOW START TABLE TRUNCATE UNLISTEN UPDATE VACUUM VALUES WITH'
  ).split(' '),
);

/** Statements that cannot run inside a transaction block, so a rollback could not undo them. */
const NON_TRANSACTIONAL: Array<[RegExp, string]> = [
  [/^VACUUM\b/, 'VACUUM'],
  [/^CREATE\s+(UNIQUE\s+)?INDEX\s+CONCURRENTLY\b/, 'CREATE INDEX CONCURRENTLY'],
  [/^DROP\s+INDEX\s+CONCURRENTLY\b/, 'DROP INDEX CONCURRENTLY'],
  [/^REINDEX\b.*\bCONCURRENTLY\b/s, 'REINDEX CONCURRENTLY'],
  [/^(CREATE|DROP)\s+DATABASE\b/, 'CREATE/DROP DATABASE'],
  [/^(CREATE|DROP)\s+TABLESPACE\b/, 'CREATE/DROP TABLESPACE'],
  [/^ALTER\s+SYSTEM\b/, 'ALTER SYSTEM'],
  [/^CLUSTER\s*$/, 'CLUSTER without a table'],
  [/^(BEGIN|START|COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE|PREPARE\s+TRANSACTION)\b/, 'transaction control'],
];

/** The statement text without leading comments, upper-cased keywords for matching. */
function head(sql: string): string {
  let s = sql;
  for (;;) {
    const t = s.replace(/^\s+/, '');
    if (t.startsWith('--')) s = t.slice(t.indexOf('\n') < 0 ? t.length : t.indexOf('\n') + 1);
    else if (t.startsWith('/*')) {
      const end = t.indexOf('*/');
      s = end < 0 ? '' : t.slice(end + 2);
    } else return t.replace(/^\(+\s*/, '').toUpperCase();
  }
}

export function checkPostgresStatement(input: string, _commit: boolean): StatementCheck {
  const parts = splitPostgresOffsets(input);
  if (parts.length === 0) return { ok: false, kind: 'input', reason: 'no statement to measure: the input is empty or only comments' };
  const [s, e] = parts[0];
  const statement = input.slice(s, e).trimEnd();
  const h = head(statement);
  for (const [re, name] of NON_TRANSACTIONAL) {
    if (re.test(h)) {
      return {
        ok: false,
        kind: 'refused',
        reason: `${name} cannot run inside a transaction block, so BufferLens could not roll it back; and EXPLAIN ANALYZE cannot measure it`,
      };
    }
  }
  const keyword = /^[A-Z]+/.exec(h)?.[0] ?? '';
  const createAs = /^CREATE\s+(TEMP\w*\s+|UNLOGGED\s+)?(TABLE|MATERIALIZED\s+VIEW)\b.*\bAS\b/s.test(h);
  // A first word that is no command at all (SELEC): the server names the syntax error and where it is.
  // Safe to send: the statement only ever runs behind EXPLAIN, which parses it before anything runs.
  if (keyword && !POSTGRES_COMMANDS.has(keyword) && !EXPLAINABLE.has(keyword)) {
    return { ok: true, statement, offset: s, otherStatements: parts.length - 1, dataChanging: false, warnings: [] };
  }
  if (!EXPLAINABLE.has(keyword) && !createAs) {
    return {
      ok: false,
      kind: 'refused',
      reason:
        `EXPLAIN ANALYZE cannot measure ${keyword || 'this'} statements; ` +
        'BufferLens measures SELECT, INSERT, UPDATE, DELETE, MERGE, VALUES, EXECUTE and CREATE TABLE … AS',
    };
  }
  const dataChanging = createAs || /^(INSERT|UPDATE|DELETE|MERGE)\b/.test(h) || /\b(INSERT|UPDATE|DELETE|MERGE)\b/.test(h) || /\bINTO\b/.test(h);
  const warnings: string[] = [];
  if (parts.length > 1) warnings.push(`the input has ${parts.length} statements; only the first was measured`);
  return { ok: true, statement, offset: s, otherStatements: parts.length - 1, dataChanging, warnings };
}
