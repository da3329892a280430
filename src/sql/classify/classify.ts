// One classification of a statement from its text, for every path that needs one before the server is
// asked: the language server's lenses, measuring, budgets and workloads. Text is a first line only: what
// a statement reaches (triggers, rules, routines) is resolved through the server's catalogs when it runs.
import type { Dialect } from '../../shared/dialect';
import { maskSql } from '../mask';
import { checkInnodbStatement } from './mysql-kind';
import { updateSetClause } from './mysql-update-columns';
import { checkPostgresStatement } from './postgres-kind';
import { updatedColumns } from './postgres-update-columns';
import type { StatementCheck } from './statement-check';

/** read: changes no data; write: changes data (rolled back unless committed); control: a transaction's own; other: neither. */
export type StatementRole = 'read' | 'write' | 'control' | 'other';

export interface StatementClass {
  /** The first keyword, upper-cased; '' where there is none. */
  verb: string;
  role: StatementRole;
  /** Tables it writes, as its text names them (the first only, where the text says more). */
  writtenTables: string[];
  /** An UPDATE's assigned columns, where its SET clause was read. */
  updatedColumns?: string[];
  /** Why BufferLens refuses to measure it, where it does. */
  refusal?: string;
}

const CONTROL = new Set(['BEGIN', 'START', 'END', 'COMMIT', 'ROLLBACK', 'ABORT']);
const READS = new Set(['SELECT', 'WITH', 'TABLE', 'VALUES']);
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE', 'MERGE']);

/** The statement's first keyword, past comments and opening parentheses (MySQL's executable comments are code). */
export function firstKeyword(sql: string, dialect: Dialect): string {
  return /^[\s(]*([A-Za-z]+)/.exec(maskSql(sql, dialect))?.[1]?.toUpperCase() ?? '';
}

export function classifyStatement(sql: string, dialect: Dialect, commit = false): StatementClass {
  const verb = firstKeyword(sql, dialect);
  const check: StatementCheck = dialect === 'postgresql' ? checkPostgresStatement(sql, commit) : checkInnodbStatement(sql, commit);
  const role: StatementRole = CONTROL.has(verb)
    ? 'control'
    : check.ok && check.dataChanging
      ? 'write'
      : WRITES.has(verb)
        ? 'write'
        : READS.has(verb)
          ? 'read'
          : 'other';
  const out: StatementClass = { verb, role, writtenTables: role === 'write' ? writtenTables(sql, dialect) : [] };
  const set = verb === 'UPDATE' ? (dialect === 'postgresql' ? updatedColumns(sql) : (updateSetClause(sql)?.columns ?? null)) : null;
  if (set) out.updatedColumns = set;
  if (!check.ok && check.kind === 'refused') out.refusal = check.reason;
  return out;
}

/** The table an INSERT, REPLACE, UPDATE, DELETE or MERGE names first (best effort: the server's plan refines it). */
export function writtenTables(statement: string, dialect: Dialect): string[] {
  const h = maskSql(statement, dialect)
    .replace(/\s+/g, ' ')
    .replace(/\s*\.\s*/g, '.');
  const name = '([`"\\w.$]+)';
  const m =
    new RegExp(`^[\\s(]*(?:INSERT|REPLACE)(?:\\s+(?:LOW_PRIORITY|DELAYED|HIGH_PRIORITY|IGNORE))*\\s+(?:INTO\\s+)?${name}`, 'i').exec(h) ??
    new RegExp(`^[\\s(]*UPDATE(?:\\s+(?:LOW_PRIORITY|IGNORE|ONLY))*\\s+${name}`, 'i').exec(h) ??
    new RegExp(`^[\\s(]*DELETE(?:\\s+(?:LOW_PRIORITY|QUICK|IGNORE))*\\s+FROM\\s+(?:ONLY\\s+)?${name}`, 'i').exec(h) ??
    new RegExp(`^[\\s(]*MERGE\\s+INTO\\s+(?:ONLY\\s+)?${name}`, 'i').exec(h);
  return m ? [m[1].replace(/[`"]/g, '')] : [];
}
