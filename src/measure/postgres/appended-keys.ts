// Which indexes an INSERT … SELECT appends to: those whose first column takes, in every inserted row, a value
// beyond the largest the index holds (new dates, ids or codes past the table's end), so every entry goes to
// the right-most leaf and the leaves split off past it, never to a random leaf. The rows' values are in no
// statistic: the SELECT is asked again after the runs (they were rolled back, so it finds the same rows), in
// a read-only transaction, for each column's smallest value beside the index's largest (NULLs put aside).
import type { Client } from 'pg';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { maskSql } from '../../sql/mask';
import { quotePostgresName } from '../../sql/quote';
import { readOnly } from './after-runs';

const INSERT_SELECT = /^\s*INSERT\s+INTO\s+((?:"(?:[^"]|"")+"|[\w$]+)(?:\s*\.\s*(?:"(?:[^"]|"")+"|[\w$]+))?)\s*(?:\(([^()]*)\))?\s*(?=SELECT\b|WITH\b)/i;

/** The INSERT's target, its column list (undefined: the table's columns in order) and its query, or undefined. */
export function insertSelectParts(statement: string): { table: string; columns?: string[]; query: string } | undefined {
  const masked = maskSql(statement, 'postgresql');
  const m = INSERT_SELECT.exec(masked);
  if (!m) return undefined;
  const query = statement.slice(m[0].length).replace(/;\s*$/, '');
  // What follows the query (ON CONFLICT, RETURNING) would not parse inside a subquery.
  if (/\b(ON\s+CONFLICT|RETURNING)\b/i.test(masked.slice(m[0].length))) return undefined;
  const columns = m[2] === undefined ? undefined : statement.slice(m.index + m[0].indexOf('(') + 1, m.index + m[0].lastIndexOf(')')).split(',');
  return { table: statement.slice(m.index + m[0].indexOf(m[1]), m.index + m[0].indexOf(m[1]) + m[1].length), columns: columns?.map((c) => c.trim()), query };
}

/** Plan names of the target's indexes whose inserted leading values all lie beyond the index's largest. */
export async function readAppendedKeys(client: Client, statement: string, facts: PgRelationFacts[], timeoutMs: number): Promise<string[]> {
  const parts = insertSelectParts(statement);
  if (!parts) return [];
  return readOnly(
    client,
    timeoutMs,
    [],
    async () => {
      const { cte, columns } = await insertedRows(client, parts);
      const target = targetTable(parts);
      const indexes = facts.filter((f) => f.kind === 'index' && f.table === target && f.columns?.[0] && columns.includes(f.columns[0]));
      if (indexes.length === 0) return [];
      const tests = indexes.map((f, k) => {
        const c = quotePostgresName(f.columns![0]!);
        // ORDER BY … LIMIT 1 rather than min and max, which not every ordered type has (uuid).
        const largest = `(SELECT t.${c} FROM ${parts.table} AS t WHERE t.${c} IS NOT NULL ORDER BY t.${c} DESC LIMIT 1)`;
        return `(SELECT s.${c} FROM s ORDER BY s.${c} LIMIT 1) > ${largest} AS a${k}`;
      });
      const res = await client.query<Record<string, boolean | null>>(
        `${cte} SELECT ${tests.join(', ')}`,
      );
      return indexes.filter((_, k) => res.rows[0]?.[`a${k}`] === true).map((f) => f.planName);
    },
    'the keys an INSERT … SELECT appends',
  );
}

/** A name as the catalog holds it: its quotes taken off (a doubled quote inside is one). */
export const unquoted = (name: string): string => name.replace(/^"|"$/g, '').replace(/""/g, '"');

/** The INSERT's target table as the catalog names it. */
export const targetTable = (parts: { table: string }): string => unquoted(parts.table.split('.').pop()!.trim());

/** The INSERT's rows as a query asks them again: its SELECT as the CTE s, under the columns as the catalog names them. */
export async function insertedRows(client: Client, parts: { table: string; columns?: string[]; query: string }): Promise<{ cte: string; columns: string[] }> {
  const columns = (parts.columns ?? (await tableColumns(client, parts.table))).map(unquoted);
  return { cte: `WITH s(${columns.map((c) => quotePostgresName(c)).join(', ')}) AS (${parts.query})`, columns };
}

export async function tableColumns(client: Client, table: string): Promise<string[]> {
  const res = await client.query<{ name: string }>(
    'SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum',
    [table],
  );
  return res.rows.map((r) => r.name);
}
