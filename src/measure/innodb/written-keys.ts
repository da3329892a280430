// The secondary keys of the rows a rolled-back UPDATE or DELETE changed, read after the last run: which
// leaves of each secondary index the write delete-marks is in no statistic of InnoDB, and rows found one way
// (one customer's orders) may share few values of another index's key (their dates), so few leaves. Per
// index whose entries the write changes (a DELETE: every secondary index; an UPDATE: those with an assigned
// column), its first key column's values, with that column's lowest and highest value, which place each
// value in the index (range-placement.ts). The statement is asked as a SELECT of the rows it changes, which
// the rollback put back where they were, read-only as the runs' re-asks are. The prediction places the
// entries by them (write-trace.ts).
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/facts';
import { keyRangeName } from '../../predict/innodb/facts';
import { replaceSelectList } from '../../sql/select-list';
import { updateSetClause } from '../../sql/classify/mysql-update-columns';
import { quoteMysqlName as quote } from '../../sql/quote';
import { readOnlyAfterRuns } from './after-runs';
import { readColumnRange } from './key-ranges';
import { MAX_LOOKUP_KEYS } from './lookup-keys';

export interface WrittenKeys {
  /** Per table column (keyRangeName): the changed rows' values, in the order the SELECT gives them. */
  keys: Record<string, number[]>;
  /** The same columns' lowest and highest values in the table. */
  ranges: Record<string, [number, number]>;
}

/** The first key column of each secondary index of `table` whose entries the write changes. */
export function changedKeyColumns(statement: string, table: string, indexes: InnodbIndexFacts[]): string[] {
  const update = /^\s*UPDATE\b/i.test(statement);
  const set = update ? updateSetClause(statement)?.columns.map((c) => c.toLowerCase()) : undefined;
  if (update && !set) return [];
  const columns = indexes
    .filter((f) => f.table === table && !f.clustered)
    .filter((f) => !set || (f.keyColumns ?? []).some((k) => set.includes(k.toLowerCase())))
    .map((f) => f.keyColumns?.[0])
    .filter((c): c is string => c !== undefined);
  return [...new Set(columns)];
}

/**
 * `asked` is the write as a SELECT of its rows (writeAsSelect). Whole numbers only; a column of another type,
 * more rows than MAX_LOOKUP_KEYS or a failure leaves that index's entries drawn (the failure is named).
 */
export async function readWrittenKeys(
  conn: Connection,
  asked: string,
  statement: string,
  table: string,
  indexes: InnodbIndexFacts[],
  failures: string[],
): Promise<WrittenKeys> {
  const out: WrittenKeys = { keys: {}, ranges: {} };
  const columns = changedKeyColumns(statement, table, indexes);
  const sql = columns.length > 0 ? replaceSelectList(asked, columns.map(quote).join(', '), 'mysql') : undefined;
  if (!sql) return out;
  const rows = await readOnlyAfterRuns(conn, `the keys of the rows ${table} changed`, failures, undefined, async () => {
    const [result] = await conn.query({ sql, rowsAsArray: true });
    return (result as unknown[][]).slice(0, MAX_LOOKUP_KEYS + 1).map((r) => r.map((v) => (v === null ? NaN : Number(v))));
  });
  if (!rows || rows.length === 0 || rows.length > MAX_LOOKUP_KEYS) return out;
  const clustered = indexes.find((f) => f.table === table && f.clustered);
  const schema = clustered?.reportName.split('.')[0];
  for (const [k, column] of columns.entries()) {
    const values = rows.map((r) => r[k]);
    if (!schema || !values.every(Number.isSafeInteger)) continue;
    const range = await readColumnRange(conn, schema, table, column, failures);
    if (!range) continue;
    out.keys[keyRangeName(table, column)] = values;
    out.ranges[keyRangeName(table, column)] = range;
  }
  return out;
}
