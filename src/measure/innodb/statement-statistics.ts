// performance_schema's statement digests of the current database, and a numeric indexed column's range.
import type { Connection } from 'mysql2/promise';
import type { ConnectionTarget } from '../../db/connection-url';
import { connectMysql } from '../../db/mysql';
import { StatisticsUnavailable, type StatementStatistics } from '../statement-statistics';

export async function innodbStatementStatistics(target: ConnectionTarget): Promise<StatementStatistics> {
  const c: Connection = await connectMysql(target);
  const close = () => c.end();
  let statements;
  try {
    const [rows] = await c.query(
      `SELECT DIGEST_TEXT AS query, COUNT_STAR AS calls FROM performance_schema.events_statements_summary_by_digest
        WHERE SCHEMA_NAME = DATABASE() AND DIGEST_TEXT IS NOT NULL ORDER BY COUNT_STAR DESC`,
    );
    statements = (rows as Array<{ query: string; calls: number }>).map((row) => ({ text: row.query, calls: Number(row.calls) }));
  } catch (err) {
    await close();
    throw new StatisticsUnavailable(
      `performance_schema's statement digests could not be read (${(err as { sqlMessage?: string }).sqlMessage ?? (err as Error).message}): ` +
        'MariaDB needs performance_schema = ON at server start',
    );
  }
  const rangeOf = async (table: string, column: string): Promise<[number, number] | undefined> => {
    const [ix] = await c.query(
      `SELECT 1 FROM information_schema.STATISTICS s JOIN information_schema.COLUMNS c USING (TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME)
        WHERE s.TABLE_SCHEMA = DATABASE() AND s.TABLE_NAME = ? AND s.COLUMN_NAME = ? AND s.SEQ_IN_INDEX = 1
          AND c.DATA_TYPE IN ('tinyint', 'smallint', 'mediumint', 'int', 'bigint', 'decimal')`,
      [table, column],
    );
    if ((ix as unknown[]).length === 0) return undefined;
    const [m] = await c.query(`SELECT MIN(\`${column}\`) AS lo, MAX(\`${column}\`) AS hi FROM \`${table}\``);
    const row = (m as Array<{ lo: number | null; hi: number | null }>)[0];
    return row.lo === null || row.hi === null ? undefined : [Math.floor(Number(row.lo)), Math.ceil(Number(row.hi))];
  };
  return { source: 'performance_schema.events_statements_summary_by_digest', statements, rangeOf, close };
}
