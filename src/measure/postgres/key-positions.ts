// Where each row a write adds an entry for lies along the table's indexes: the share of an index's entries
// below the row's key. An update that moves a row off its page puts an entry for the new version in every
// index, beside the old one where the key did not change, and an INSERT … SELECT one for each row it
// inserts, so the leaves a write dirties are those its rows' keys lie on. Rows a range selects by one column
// can share a few stretches of another index (one customer's orders, or columns that follow each other):
// 1,799 rows of one date range lay on 147 of the 1,168 blocks of a composite key (pg_buffercache after
// a lookup of each row's key), where a random leaf a row had put them on about 900. Placed as the planner
// places a key (scalarineqsel): the most common values below it, plus the histogram's share of the rest,
// interpolated within its bucket. Read from pg_stats and the written rows only, after the runs, in a
// read-only transaction (an UPDATE's rows are asked by written-rows.ts, an INSERT's SELECT again here);
// only leading columns whose type has a numeric image (numbers, dates and times, UUIDs), converted by the
// server's own built-in casts.
import type { Client } from 'pg';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import type { PgRelation } from './residency';
import { quotePostgresName } from '../../sql/quote';
import { readOnly } from './after-runs';
import { insertedRows, insertSelectParts, targetTable } from './appended-keys';

/** Beyond this many inserted rows their keys are not asked: their entries stay at random leaves. */
const MAX_INSERTED_ROWS = 100_000;

/** Positions kept to this many decimals: a leaf of a million-leaf index is still told apart. */
const DECIMALS = 7;

/** A built-in type's numeric image, the same order as the type's own comparison, by type oid. */
const IMAGES: Partial<Record<number, (ref: string) => string>> = {
  20: (r) => `${r}::float8`,
  21: (r) => `${r}::float8`,
  23: (r) => `${r}::float8`,
  26: (r) => `${r}::bigint::float8`,
  700: (r) => `${r}::float8`,
  701: (r) => `${r}::float8`,
  1700: (r) => `${r}::float8`,
  1082: (r) => `extract(epoch FROM ${r})::float8`,
  1114: (r) => `extract(epoch FROM ${r})::float8`,
  1184: (r) => `extract(epoch FROM ${r})::float8`,
  // A UUID compares byte by byte: its first 13 hex digits keep that order within a double's precision.
  2950: (r) => `('x' || substr(replace(${r}::text, '-', ''), 1, 13))::bit(52)::bigint::float8`,
};

/** An index whose entries a write's rows take, with the numeric image of its leading column. */
export interface KeyedIndex {
  index: string;
  schema: string;
  table: string;
  column: string;
  type: string;
  image: (ref: string) => string;
  descending: boolean;
}

/** A leading column's statistics as numeric images, as pg_stats holds them. */
export interface LeadStats {
  nullFrac: number;
  mcv: number[];
  freqs: number[];
  bounds: number[];
}

/**
 * The share of the entries below a key: the most common values below it (and its own, for a value that is
 * one: a new entry goes after its key's others), plus the histogram's share of the rest, interpolated in the
 * key's bucket. Nulls sort last in an ascending index, so they are never below a key.
 */
export function shareBelow(s: LeadStats, v: number): number {
  let mcvBelow = 0;
  let mcvAll = 0;
  s.mcv.forEach((m, k) => {
    mcvAll += s.freqs[k] ?? 0;
    if (m <= v) mcvBelow += s.freqs[k] ?? 0;
  });
  const rest = Math.max(0, 1 - s.nullFrac - mcvAll);
  return Math.min(1, Math.max(0, mcvBelow + rest * histogramShare(s.bounds, v)));
}

function histogramShare(bounds: number[], v: number): number {
  const n = bounds.length;
  if (n < 2) return 0.5;
  if (v <= bounds[0]) return 0;
  if (v >= bounds[n - 1]) return 1;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (bounds[mid] <= v) lo = mid;
    else hi = mid;
  }
  const width = bounds[hi] - bounds[lo];
  const within = width > 0 ? (v - bounds[lo]) / width : 0.5;
  return (lo + within) / (n - 1);
}

/**
 * The written table's indexes whose leading column has a numeric image: not partial (its entries are a
 * subset the column's statistics do not describe) and not on an expression.
 */
export async function keyedIndexes(client: Client, table: string, relations: PgRelation[], facts: PgRelationFacts[]): Promise<KeyedIndex[]> {
  const out: KeyedIndex[] = [];
  for (const f of facts.filter((x) => x.kind === 'index' && x.table === table && !x.predicate)) {
    const rel = relations.find((r) => r.kind === 'index' && r.name === f.reportName);
    if (!rel) continue;
    const r = await client.query<{ schema: string; table: string; column: string; type: string; typoid: number; desc: boolean }>({
      text: `SELECT tn.nspname AS schema, t.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
                    a.atttypid::int AS typoid, (i.indoption[0] & 1) = 1 AS desc
               FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
              WHERE i.indexrelid = $1 AND i.indpred IS NULL`,
      values: [rel.oid],
    });
    const c = r.rows[0];
    const image = c && IMAGES[c.typoid];
    if (c && image) out.push({ index: f.planName, schema: c.schema, table: c.table, column: c.column, type: c.type, image, descending: c.desc });
  }
  return out;
}

/** The leading column's statistics as numeric images, or undefined where the table has none (never analysed). */
export async function leadStats(client: Client, k: KeyedIndex): Promise<LeadStats | undefined> {
  // The type's name comes from the catalog (format_type quotes what needs it) and is a system type.
  const r = await client.query<{ nf: number; mcv: number[] | null; freqs: number[] | null; bounds: number[] | null }>({
    text: `SELECT s.null_frac::float8 AS nf,
                  (SELECT array_agg(${k.image('m.v')} ORDER BY m.o) FROM unnest(s.most_common_vals::text::${k.type}[]) WITH ORDINALITY m(v, o)) AS mcv,
                  s.most_common_freqs::float8[] AS freqs,
                  (SELECT array_agg(${k.image('b.v')} ORDER BY b.o) FROM unnest(s.histogram_bounds::text::${k.type}[]) WITH ORDINALITY b(v, o)) AS bounds
             FROM pg_stats s WHERE s.schemaname = $1 AND s.tablename = $2 AND s.attname = $3`,
    values: [k.schema, k.table, k.column],
  });
  const s = r.rows[0];
  if (!s || (!s.mcv && !s.bounds)) return undefined;
  return { nullFrac: Number(s.nf), mcv: s.mcv ?? [], freqs: s.freqs ?? [], bounds: s.bounds ?? [] };
}

/** Each row's position along the index from its key's numeric image (null: a null key, last in an ascending index). */
export function positionsOf(stats: LeadStats, keys: Array<number | null>, descending: boolean): number[] {
  const round = (x: number) => Number(x.toFixed(DECIMALS));
  return keys.map((v) => {
    const below = v === null ? 1 - stats.nullFrac / 2 : shareBelow(stats, v);
    return round(descending ? 1 - below : below);
  });
}

/**
 * Per index of an INSERT … SELECT's target (its plan name), each inserted row's position along it, in the
 * order the SELECT returns the rows: the SELECT is asked again after the runs (they were rolled back, so it
 * finds the same rows), each value cast to the index column's type. Indexes whose inserted keys all lie past
 * their largest (appended-keys.ts) are placed there already.
 */
export async function readInsertedKeyPositions(
  client: Client,
  statement: string,
  relations: PgRelation[],
  facts: PgRelationFacts[],
  appended: string[],
  timeoutMs: number,
): Promise<Record<string, number[]>> {
  const parts = insertSelectParts(statement);
  if (!parts) return {};
  const target = facts.find((f) => f.kind === 'table' && f.planName === targetTable(parts));
  if (!target) return {};
  return readOnly(
    client,
    timeoutMs,
    {},
    async () => {
      const { cte, columns: cols } = await insertedRows(client, parts);
      const keys = (await keyedIndexes(client, target.planName, relations, facts)).filter((k) => cols.includes(k.column) && !appended.includes(k.index));
      if (keys.length === 0) return {};
      const images = keys.map((k, n) => `${k.image(`(s.${quotePostgresName(k.column)})::${k.type}`)} AS k${n}`);
      const res = await client.query<Record<string, unknown>>(
        `${cte} SELECT ${images.join(', ')} FROM s LIMIT ${MAX_INSERTED_ROWS + 1}`,
      );
      if (res.rows.length > MAX_INSERTED_ROWS) return {};
      const out: Record<string, number[]> = {};
      for (const [n, k] of keys.entries()) {
        const stats = await leadStats(client, k);
        const values = res.rows.map((r) => (r[`k${n}`] === null ? null : Number(r[`k${n}`])));
        if (stats && values.length > 0 && values.every((v) => v === null || Number.isFinite(v))) out[k.index] = positionsOf(stats, values, k.descending);
      }
      return out;
    },
    "where the inserted rows' keys lie along the indexes",
  );
}
