// pg_stat_statements' top-level statements of the current database, and a numeric indexed column's range.
import type { Client } from 'pg';
import type { ConnectionTarget } from '../../db/connection-url';
import { connectPostgres } from '../../db/postgres';
import { StatisticsUnavailable, type StatementStatistics } from '../statement-statistics';

export async function postgresStatementStatistics(target: ConnectionTarget): Promise<StatementStatistics> {
  const c: Client = await connectPostgres(target);
  const close = () => c.end();
  let statements;
  try {
    const r = await c.query(
      `SELECT query, calls::float8 AS calls FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND toplevel
        ORDER BY calls DESC`,
    );
    statements = r.rows.map((row) => ({ text: row.query as string, calls: row.calls as number }));
  } catch (err) {
    await close();
    throw new StatisticsUnavailable(
      `pg_stat_statements could not be read (${(err as Error).message}): it needs shared_preload_libraries = 'pg_stat_statements' and CREATE EXTENSION ` +
      `pg_stat_statements`,
    );
  }
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const rangeOf = async (table: string, column: string): Promise<[number, number] | undefined> => {
    const ok = await c.query(
      `SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
        WHERE i.indrelid = to_regclass($1) AND a.attname = $2 AND a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'numeric'::regtype)`,
      [table, column],
    );
    if (ok.rows.length === 0) return undefined;
    const m = await c.query(`SELECT min(${quote(column)})::float8 AS lo, max(${quote(column)})::float8 AS hi FROM ${quote(table)}`);
    return m.rows[0].lo === null ? undefined : [Math.floor(m.rows[0].lo), Math.ceil(m.rows[0].hi)];
  };
  return { source: 'pg_stat_statements', statements, rangeOf, close };
}
