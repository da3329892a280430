// Catalog facts the prediction needs: tuples per relation, each index's table and the correlation of its
// first column, and how many buffers other relations held before run 1.
import type { Client } from 'pg';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import type { ResidencySnapshot } from '../engine-session';
import type { PgRelation } from './residency';

export async function readRelationFacts(client: Client, rels: PgRelation[], residency: ResidencySnapshot): Promise<PgRelationFacts[]> {
  if (rels.length === 0) return [];
  const r = await client.query({
    text: `SELECT c.oid::int AS oid, c.relname, greatest(c.reltuples, 0)::float8 AS tuples, t.relname AS table_name,
                  (SELECT s.correlation FROM pg_stats s
                    WHERE s.schemaname = tn.nspname AND s.tablename = t.relname AND s.attname = a.attname) AS correlation,
                  (SELECT s.n_distinct FROM pg_stats s
                    WHERE s.schemaname = tn.nspname AND s.tablename = t.relname AND s.attname = a.attname) AS leading_distinct,
                  (a.attidentity <> '' OR coalesce(pg_get_expr(d.adbin, d.adrelid), '') LIKE 'nextval(%') AS ascending,
                  (SELECT array_agg(att.attname::text ORDER BY u.ord) FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS u(k, ord)
                     LEFT JOIN pg_attribute att ON att.attrelid = i.indrelid AND att.attnum = u.k) AS columns,
                  (SELECT option_value::int FROM pg_options_to_table(c.reloptions) WHERE option_name = 'fillfactor') AS fillfactor,
                  (SELECT sum(s.avg_width)::int FROM pg_stats s WHERE s.schemaname = cn.nspname AND s.tablename = c.relname) AS row_bytes,
                  CASE WHEN c.relkind IN ('r', 'm', 'p', 't') THEN pg_relation_size(c.oid, 'fsm') / current_setting('block_size')::int END AS fsm_pages,
                  c.relallvisible::float8 / nullif(c.relpages, 0) AS all_visible,
                  pg_stat_get_dead_tuples(c.oid)::float8 AS dead_tuples,
                  pg_stat_get_tuples_updated(c.oid)::float8 AS updated,
                  pg_stat_get_tuples_hot_updated(c.oid)::float8 AS hot_updated,
                  pg_stat_get_mod_since_analyze(c.oid)::float8 AS changed_since_analyze,
                  coalesce(i.indisunique, false) AS unique,
                  i.indnkeyatts AS key_columns,
                  pg_get_expr(i.indpred, i.indrelid) AS predicate,
                  (SELECT x.relname FROM pg_class x WHERE x.oid = c.reltoastrelid) AS toast_name,
                  CASE WHEN c.reltoastrelid <> 0 THEN
                    (SELECT array_agg(att.attname::text ORDER BY att.attnum) FROM pg_attribute att
                      WHERE att.attrelid = c.oid AND att.attnum > 0 AND NOT att.attisdropped AND att.attlen = -1 AND att.attstorage IN ('x', 'e'))
                  END AS toast_columns,
                  CASE WHEN i.indnatts = 1 AND i.indpred IS NULL
                       THEN CASE a.atttypid WHEN 'int2'::regtype THEN 2 WHEN 'int4'::regtype THEN 4 WHEN 'int8'::regtype THEN 8 END END AS key_bytes,
                  CASE WHEN a.attlen > 0 THEN a.attlen END AS pivot_bytes,
                  (SELECT CASE WHEN bool_and(att.attlen > 0) THEN sum(att.attlen + CASE att.attalign WHEN 'd' THEN (8 - att.attlen % 8) % 8
                                                                               WHEN 'i' THEN (4 - att.attlen % 4) % 4
                                                                               WHEN 's' THEN att.attlen % 2 ELSE 0 END) END
                     FROM unnest(i.indkey::int2[]) AS u(k) LEFT JOIN pg_attribute att ON att.attrelid = i.indrelid AND att.attnum = u.k) AS leaf_bytes
             FROM unnest($1::oid[]) o
             JOIN pg_class c ON c.oid = o
             LEFT JOIN pg_namespace cn ON cn.oid = c.relnamespace
             LEFT JOIN pg_index i ON i.indexrelid = c.oid
             LEFT JOIN pg_class t ON t.oid = i.indrelid
             LEFT JOIN pg_namespace tn ON tn.oid = t.relnamespace
             LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
             LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum`,
    values: [rels.map((x) => x.oid)],
  });
  const byOid = new Map(r.rows.map((row) => [row.oid as number, row as CatalogRow]));
  return rels.map((rel) => {
    const row = byOid.get(rel.oid);
    const res = residency.get(rel.name);
    const facts: PgRelationFacts = {
      planName: row?.relname ?? rel.name,
      reportName: rel.name,
      kind: rel.kind,
      pages: res?.pages ?? 0,
      tuples: Number(row?.tuples ?? 0),
      cachedBefore: res?.ranges ?? [],
    };
    if (row?.table_name) facts.table = row.table_name;
    if (rel.kind === 'index') Object.assign(facts, indexFacts(row));
    else if (rel.kind === 'table') Object.assign(facts, tableFacts(row));
    return facts;
  });
}

/** One relation's row of the catalog query (columns as named there; absent where the relation was dropped meanwhile). */
type CatalogRow = Record<string, unknown> & { relname?: string; table_name?: string };

const known = (v: unknown): v is string | number => v !== null && v !== undefined;

function indexFacts(row: CatalogRow | undefined): Partial<PgRelationFacts> {
  const facts: Partial<PgRelationFacts> = {
    correlation: (row?.correlation as number | null | undefined) ?? null,
    ascending: row?.ascending === true,
    unique: row?.unique === true,
  };
  if (row?.key_bytes) facts.keyBytes = Number(row.key_bytes);
  if (row?.pivot_bytes) facts.pivotBytes = Number(row.pivot_bytes);
  if (row?.leaf_bytes) facts.leafBytes = Number(row.leaf_bytes);
  if (row?.key_columns) facts.keyColumns = Number(row.key_columns);
  if (typeof row?.predicate === 'string') facts.predicate = row.predicate;
  // pg_stats gives a count, or minus the share of the rows where the values grow with the table.
  if (known(row?.leading_distinct)) {
    const d = Number(row.leading_distinct);
    facts.leadingDistinct = Math.round(d < 0 ? -d * Number(row?.tuples ?? 0) : d);
  }
  // An expression column (attnum 0) has no name: any UPDATE may change it.
  if (Array.isArray(row?.columns)) facts.columns = (row.columns as Array<string | null>).map((c) => c ?? null);
  return facts;
}

function tableFacts(row: CatalogRow | undefined): Partial<PgRelationFacts> {
  const facts: Partial<PgRelationFacts> = { fillfactor: Number(row?.fillfactor ?? 100) };
  if (row?.row_bytes) facts.rowBytes = Number(row.row_bytes);
  if (known(row?.fsm_pages)) facts.fsmPages = Number(row.fsm_pages);
  if (known(row?.all_visible)) facts.allVisible = Math.min(1, Number(row.all_visible));
  // The statistics collector's counts (estimates, cumulative since the statistics were reset).
  if (known(row?.dead_tuples)) facts.deadTuples = Number(row.dead_tuples);
  if (known(row?.changed_since_analyze)) facts.changedSinceAnalyze = Number(row.changed_since_analyze);
  if (typeof row?.toast_name === 'string') facts.toast = row.toast_name;
  if (Array.isArray(row?.toast_columns)) facts.toastColumns = row.toast_columns as string[];
  if (known(row?.updated)) facts.rowsUpdated = { all: Number(row.updated), hot: Number(row.hot_updated ?? 0) };
  return facts;
}

/** Buffers in use by anything, from pg_buffercache (the summary function where it exists: no per-buffer rows). */
export async function buffersInUse(client: Client, major: number): Promise<number> {
  const r = await client.query(
    major >= 16 ? 'SELECT buffers_used::int AS n FROM pg_buffercache_summary()' : 'SELECT count(*)::int AS n FROM pg_buffercache WHERE relfilenode IS NOT NULL',
  );
  return r.rows[0].n;
}
