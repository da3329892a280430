// Which of a scan's rows hold a column's value out of line (in the TOAST table), and in how many chunks,
// read after the last run for each column the plan's expressions read again (detoasting.ts). Asked of the
// rows the scan picks before its filter (its table under its alias, with its index condition), which the
// runs read already; a sequential scan of a large table is asked of a sample of its blocks. Only a value's
// stored size is read (pg_column_size reads the TOAST pointer, not the value), so nothing of the TOAST
// table is touched. PostgreSQL 17 and later tell whether a value is out of line
// (pg_column_toast_chunk_id); before, a value stored larger than a chunk is taken as out of line (a row with
// such a value inline would exceed the size at which PostgreSQL moves values out).
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import type { PgRelationFacts, PgToastValues } from '../../predict/postgres/facts';
import { explainIdentifier, scanCondition, toastKey, toastUses } from '../../predict/postgres/detoasting';
import { toastChunkBytes } from '../../predict/postgres/toast-layout';
import { TOAST_CHUNK_ID_FROM_MAJOR } from '../../predict/postgres/layout-constants';
import { readOnly } from './after-runs';
import { quotePostgresName } from '../../sql/quote';

/** Blocks of a sequentially scanned table asked about at most: beyond, a sample of this many. */
export const MAX_ASKED_BLOCKS = 16_384;

export async function readToastValues(
  client: Client,
  root: PlanNode,
  facts: PgRelationFacts[],
  settings: { major: number; blockSize: number },
  timeoutMs: number,
): Promise<Record<string, PgToastValues>> {
  const table = (name: string) => facts.find((f) => f.kind === 'table' && f.planName === name);
  // A table whose TOAST table is empty holds no value out of line: nothing to ask.
  const stored = (name: string) => (facts.find((f) => f.kind === 'table' && f.planName === table(name)?.toast)?.pages ?? 0) > 0;
  const { uses } = toastUses(root, (name) => (stored(name) ? table(name)?.toastColumns : undefined));
  const asked = new Map(uses.map((u) => [toastKey(u), u] as const));
  if (asked.size === 0) return {};
  return readOnly(
    client,
    timeoutMs,
    {},
    async () => {
      const out: Record<string, PgToastValues> = {};
      for (const [key, use] of asked) {
        const t = table(use.scan.relation!);
        const from = t && fromClause(use.scan, t);
        if (!from) continue;
        const ref = `${quotePostgresName(use.scan.alias ?? use.scan.relation!)}.${quotePostgresName(use.column)}`;
        const chunk = toastChunkBytes(settings.blockSize);
        const outOfLine = storedOutOfLine(ref, settings);
        // A later clause of a filter: the rows the clauses before it let through.
        const reached = use.before === undefined ? 'true' : namesOnly(use.before, use.scan.alias ?? use.scan.relation!) ? `(${use.before})` : undefined;
        if (!reached) continue;
        const r = await client.query<PgToastValues>(
          `SELECT count(*)::float8 AS scanned, count(*) FILTER (WHERE ${reached})::float8 AS rows,
                  count(*) FILTER (WHERE ${reached} AND ${outOfLine})::float8 AS values,
                  coalesce(sum(ceil(pg_column_size(${ref})::float8 / ${chunk})) FILTER (WHERE ${reached} AND ${outOfLine}), 0)::float8 AS chunks,
                  coalesce(sum(pg_column_size(${ref})) FILTER (WHERE ${reached} AND ${outOfLine}), 0)::float8 AS bytes
             ${from}`,
        );
        const row = r.rows[0];
        if (row && row.scanned > 0) out[key] = { scanned: row.scanned, rows: row.rows, values: row.values, chunks: row.chunks, bytes: row.bytes };
      }
      return out;
    },
    'which rows hold values out of line (TOAST)',
  );
}

/**
 * SQL that tells whether the value at `ref` is stored out of line: by its chunk id from PostgreSQL 17, before
 * by a stored size beyond a chunk (a row with such a value inline would exceed the size at which PostgreSQL
 * moves values out). Only the stored size or the pointer is read, never the value.
 */
export function storedOutOfLine(ref: string, settings: { major: number; blockSize: number }): string {
  return settings.major >= TOAST_CHUNK_ID_FROM_MAJOR
    ? `pg_column_toast_chunk_id(${ref}) IS NOT NULL`
    : `pg_column_size(${ref}) > ${toastChunkBytes(settings.blockSize) + 4}`;
}

/** The scan's rows before its filter: its table under its alias, picked by its index condition. */
function fromClause(scan: PlanNode, t: PgRelationFacts): string | undefined {
  const alias = quotePostgresName(scan.alias ?? scan.relation!);
  const condition = scanCondition(scan);
  if (condition !== undefined) return namesOnly(condition, scan.alias ?? scan.relation!) ? `FROM ${t.reportName} AS ${alias} WHERE ${condition}` : undefined;
  if (scan.nodeType !== 'Seq Scan') return undefined;
  const sample = t.pages > MAX_ASKED_BLOCKS ? ` TABLESAMPLE SYSTEM (${((100 * MAX_ASKED_BLOCKS) / t.pages).toFixed(4)}) REPEATABLE (0)` : '';
  return `FROM ${t.reportName} AS ${alias}${sample}`;
}

/**
 * The expression names no relation but the scan's own alias and no parameter or subplan: asked alone, it
 * means what it meant in the plan (a join's inner condition names the outer rows, and is not asked).
 */
export function namesOnly(expr: string, alias: string): boolean {
  if (/\$\d|SubPlan|InitPlan/i.test(expr)) return false;
  const own = explainIdentifier(alias);
  const qualifiers = [...expr.replace(/'(?:[^']|'')*'/g, "''").matchAll(/(?:^|[^\w$."])("(?:[^"]|"")+"|[A-Za-z_][\w$]*)\.(?=["A-Za-z_])/g)];
  return qualifiers.every((m) => m[1] === own);
}
