// Which of an INSERT … SELECT's rows carry values stored out of line, and in how many chunks: each such value
// is read from where the SELECT found it (its TOAST chunks) and stored again under a new chunk id, chunk by
// chunk (a row owns its values). The rows' values are in no statistic: the SELECT is asked again after the
// runs (they were rolled back, so it finds the same rows), in a read-only transaction, for the stored size of
// each TOAST-able column it fills (pg_column_size reads the TOAST pointer, not the value; PostgreSQL 17 and
// later tell an out-of-line value by its chunk id, before a value stored larger than a chunk is taken so).
import type { Client } from 'pg';
import type { PgRelationFacts, PgToastValues } from '../../predict/postgres/facts';
import { toastChunkBytes } from '../../predict/postgres/toast-layout';
import { quotePostgresName } from '../../sql/quote';
import { readOnly } from './after-runs';
import { storedOutOfLine } from './toast-values';
import { insertedRows, insertSelectParts, targetTable } from './appended-keys';

/** Per target table (its plan name), the inserted rows and the values among them stored out of line. */
export async function readInsertedOutOfLine(
  client: Client,
  statement: string,
  facts: PgRelationFacts[],
  settings: { major: number; blockSize: number },
  timeoutMs: number,
): Promise<Record<string, PgToastValues>> {
  const parts = insertSelectParts(statement);
  if (!parts) return {};
  const target = facts.find((f) => f.kind === 'table' && f.planName === targetTable(parts));
  if (!target?.toastColumns?.length) return {};
  return readOnly(
    client,
    timeoutMs,
    {},
    async () => {
      const { cte, columns: cols } = await insertedRows(client, parts);
      const stored = cols.filter((c) => target.toastColumns!.includes(c)).map((c) => `s.${quotePostgresName(c)}`);
      if (stored.length === 0) return {};
      const chunk = toastChunkBytes(settings.blockSize);
      const out = (r: string) => storedOutOfLine(r, settings);
      const sum = (f: (r: string) => string) => stored.map(f).join(' + ');
      const res = await client.query<{ rows: string; values: string; chunks: string; bytes: string }>(
        `${cte}
         SELECT count(*)::float8 AS rows,
                coalesce(sum(${sum((r) => `(CASE WHEN ${out(r)} THEN 1 ELSE 0 END)`)}), 0)::float8 AS values,
                coalesce(sum(${sum((r) => `(CASE WHEN ${out(r)} THEN ceil(pg_column_size(${r})::float8 / ${chunk}) ELSE 0 END)`)}), 0)::float8 AS chunks,
                coalesce(sum(${sum((r) => `(CASE WHEN ${out(r)} THEN pg_column_size(${r}) ELSE 0 END)`)}), 0)::float8 AS bytes
           FROM s`,
      );
      const r = res.rows[0];
      if (!r || !(Number(r.rows) > 0)) return {};
      const rows = Number(r.rows);
      return { [target.planName]: { scanned: rows, rows, values: Number(r.values), chunks: Number(r.chunks), bytes: Number(r.bytes) } };
    },
    "the inserted rows' values stored out of line",
  );
}
