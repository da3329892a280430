// Where a single index scan starts along its index: the share of the index's entries below its first key,
// from the leading column's statistics as the planner itself estimates an inequality (scalarineqsel): the
// most common values below the key, plus the histogram's share of the rest. Read from pg_stats only, so no
// page of the table or index is touched (asking the index itself would change the pool the next
// measurement finds). Only built-in column types: their comparison runs no user code. After the runs, in a
// read-only transaction with the measurement's statement timeout.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import { readOnly, scanNodes } from './after-runs';
import type { PgRelation } from './residency';
import { startFractionKey } from '../../predict/postgres/facts';

/** Object ids below this are the system's own (FirstNormalObjectId): their types' operators run no user code. */
const FIRST_USER_OID = 16384;

/** The lower bound (upper, walking backward) the condition sets on the leading column, as a literal's text. */
export function leadingBound(indexCond: string, column: string, backward: boolean): string | undefined {
  const col = column.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ops = backward ? '<=|<|=' : '>=|>|=';
  const literal = `'((?:[^']|'')*)'(?:::[\\w ]+(?:\\[\\])?)?|(-?\\d+(?:\\.\\d+)?)(?:::[\\w ]+)?`;
  const m = new RegExp(`\\((?:\\w+\\.)?"?${col}"? (?:${ops}) (?:${literal})\\)`).exec(indexCond);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2];
}

interface ColumnStats {
  nf: number;
  mcv_below: number;
  mcv_all: number;
  hb: number;
  hn: number;
}

/** The share of entries below the key: nulls sort last in an ascending B-tree, so they are never below it. */
export function fractionBelow(s: ColumnStats): number {
  const histogram = s.hn < 2 ? 0.5 : s.hb === 0 ? 0 : s.hb >= s.hn ? 1 : (s.hb - 0.5) / (s.hn - 1);
  return Math.min(1, Math.max(0, s.mcv_below + (1 - s.nf - s.mcv_all) * histogram));
}

/** Per single-loop index scan whose condition bounds its leading column by a literal: where it starts along the index. */
export async function readStartFractions(client: Client, root: PlanNode, relations: PgRelation[], timeoutMs: number): Promise<Record<string, number>> {
  const scans = scanNodes(root).filter(
    (n) => /^(Index|Index Only|Bitmap Index) Scan$/.test(n.nodeType) && !n.parallelAware && (n.actualLoops ?? 1) <= 1 && n.index && n.indexCond,
  );
  if (scans.length === 0) return {};
  return readOnly(
    client,
    timeoutMs,
    {},
    async () => {
      const out: Record<string, number> = {};
      for (const n of scans) {
        const rel = relations.find((r) => r.kind === 'index' && (r.name === n.index || r.name.endsWith(`.${n.index}`)));
        if (!rel) continue;
        const fraction = await startFraction(client, rel.oid, n);
        if (fraction !== undefined) out[startFractionKey(n.index!, n.indexCond!)] = fraction;
      }
      return out;
    },
    "where an index scan's first key lies (pg_stats)",
  );
}

async function startFraction(client: Client, indexOid: number, n: PlanNode): Promise<number | undefined> {
  const lead = await client.query<{ schema: string; table: string; column: string; type: string; typoid: number }>({
    text: `SELECT tn.nspname AS schema, t.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.atttypid::int AS typoid
             FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE i.indexrelid = $1 AND i.indpred IS NULL AND i.indoption[0] = 0`,
    values: [indexOid],
  });
  const c = lead.rows[0];
  if (!c || c.typoid >= FIRST_USER_OID) return undefined;
  const bound = leadingBound(n.indexCond!, c.column, n.backward === true);
  if (bound === undefined) return undefined;
  // The type's name comes from the catalog (format_type quotes what needs it) and is a system type.
  const t = c.type;
  const r = await client.query<ColumnStats>({
    text: `SELECT s.null_frac::float8 AS nf,
                  coalesce((SELECT sum(m.f) FROM unnest(s.most_common_vals::text::${t}[], s.most_common_freqs) m(v, f)
                             WHERE m.v < $1::${t}), 0)::float8 AS mcv_below,
                  coalesce((SELECT sum(f) FROM unnest(s.most_common_freqs) f), 0)::float8 AS mcv_all,
                  (SELECT count(*) FROM unnest(s.histogram_bounds::text::${t}[]) b WHERE b < $1::${t})::int AS hb,
                  coalesce(cardinality(s.histogram_bounds::text::${t}[]), 0)::int AS hn
             FROM pg_stats s WHERE s.schemaname = $2 AND s.tablename = $3 AND s.attname = $4`,
    values: [bound, c.schema, c.table, c.column],
  });
  return r.rows[0] ? fractionBelow(r.rows[0]) : undefined;
}
