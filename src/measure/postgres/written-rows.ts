// The heap block of each row an UPDATE or DELETE wrote, in the order its scan returned them, read after the
// last run. How many of a page's rows one write changes decides how many new versions fit on that page
// (HOT: no index entry, no new block) and how many visibility-map bits it clears; a scan with a filter
// returns rows spread over the table (a date inserted with jitter: 1,001 rows on 817 of 20,000 pages), a
// correlated range packs them, and no statistic tells which. The runs were rolled back, so the rows are as
// they were: asked in a read-only transaction, as the write's table filtered by its scan's own conditions
// (its index condition, recheck condition and filter, which name that table alone), and kept only where
// the query returns as many rows as the write's input produced.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { quotePostgresName } from '../../sql/quote';
import { indexLeadColumn, readOnly, scanNodes } from './after-runs';
import { storedOutOfLine } from './toast-values';
import { toastChunkBytes } from '../../predict/postgres/toast-layout';
import { predicateNames } from '../../predict/postgres/write-trace';
import type { PgRelation } from './residency';
import { keyedIndexes, leadStats, positionsOf, type KeyedIndex } from './key-positions';

/** Beyond this many rows the write is not asked again: its rows' pages stay modelled. */
export const MAX_WRITTEN_ROWS = 100_000;

/** Plan conditions a query can repeat: those naming no parameter, subplan or outer row. */
const REPEATABLE = (c: string) => !/\$\d|SubPlan|InitPlan/i.test(c);

/** The write (UPDATE or DELETE) at the plan's root, its table and the rows its input produced. */
function writeOf(root: PlanNode): { table: string; rows: number; input: PlanNode } | undefined {
  if (root.nodeType !== 'ModifyTable' || (root.operation !== 'Update' && root.operation !== 'Delete') || !root.relation) return undefined;
  const input = root.children.length === 1 ? root.children[0] : undefined;
  if (!input) return undefined;
  return { table: root.relation, rows: Math.round((input.actualRows ?? 0) * Math.max(1, input.actualLoops ?? 1)), input };
}

/**
 * The query that returns the written rows' blocks in the scan's order, where the plan's one scan of the
 * written table is the write's input (a Result above it at most), run once, serially.
 */
export async function writtenRowsQuery(
  client: Client,
  root: PlanNode,
  relations: PgRelation[],
  facts: PgRelationFacts[],
  settings: { major: number; blockSize: number; updatedColumns?: string[] },
  keyed: (table: string) => Promise<KeyedIndex[]> = async () => [],
): Promise<{ table: string; rows: number; sql: string; partialSql?: string; partial: string[]; keys: KeyedIndex[] } | undefined> {
  const write = writeOf(root);
  if (!write || write.rows === 0 || write.rows > MAX_WRITTEN_ROWS) return undefined;
  const scans = scanNodes(root).filter((n) => n.relation === write.table);
  const scan = scans.length === 1 ? scans[0] : undefined;
  const direct = write.input === scan || (write.input.nodeType === 'Result' && write.input.children[0] === scan);
  if (!scan || !direct || scan.parallelAware || (scan.actualLoops ?? 1) > 1 || !scan.alias) return undefined;
  const table = facts.find((f) => f.kind === 'table' && f.planName === write.table);
  if (!table) return undefined;
  const conditions = writeScanConditions(scan);
  if (!conditions) return undefined;
  const alias = quotePostgresName(scan.alias);
  const order = await scanOrder(client, scan, relations, facts, alias);
  if (!order) return undefined;
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  // A deleted row's out-of-line values are deleted with it, chunk by chunk: how many, and in how many chunks.
  const toast = root.operation === 'Delete' ? outOfLine(table, facts, alias, settings) : { values: '0', chunks: '0' };
  // An UPDATE's new versions take an entry in a partial index where they satisfy its predicate: counted over
  // the rows where the SET clause leaves the predicate's columns as they are.
  const changed = settings.updatedColumns;
  const partial =
    root.operation === 'Update' && changed
      ? facts.filter((f) => f.kind === 'index' && f.table === write.table && f.predicate && !predicateNames(f.predicate, changed))
      : [];
  const counts = partial.map((f, k) => `count(*) FILTER (WHERE ${f.predicate}) AS p${k}`);
  // An UPDATE's new versions take entries beside their keys: where those keys lie along each index.
  const keys = root.operation === 'Update' ? await keyed(write.table) : [];
  const keyColumns = keys.map((k, n) => `, ${k.image(`${alias}.${quotePostgresName(k.column)}`)} AS k${n}`).join('');
  return {
    table: write.table,
    rows: write.rows,
    partial: partial.map((f) => f.planName),
    keys,
    ...(counts.length > 0 ? { partialSql: `SELECT ${counts.join(', ')} FROM ${table.reportName} AS ${alias}${where}` } : {}),
    sql:
      `SELECT (${alias}.ctid::text::point)[0]::bigint AS block, ${toast.values} AS values, ${toast.chunks} AS chunks${keyColumns} ` +
      `FROM ${table.reportName} AS ${alias}${where} ORDER BY ${order}`,
  };
}

/**
 * SQL for a row's values stored out of line and their chunks, over the table's TOAST-able columns (a stored
 * size is read, not the value: nothing of the TOAST table is touched). As toast-values.ts tells them.
 */
function outOfLine(
  table: PgRelationFacts,
  facts: PgRelationFacts[],
  alias: string,
  settings: { major: number; blockSize: number },
): { values: string; chunks: string } {
  const stored = (facts.find((f) => f.kind === 'table' && f.planName === table.toast)?.pages ?? 0) > 0;
  const columns = stored ? (table.toastColumns ?? []) : [];
  if (columns.length === 0) return { values: '0', chunks: '0' };
  const chunk = toastChunkBytes(settings.blockSize);
  const refs = columns.map((c) => `${alias}.${quotePostgresName(c)}`);
  const isOut = (ref: string) => storedOutOfLine(ref, settings);
  return {
    values: refs.map((r) => `(CASE WHEN ${isOut(r)} THEN 1 ELSE 0 END)`).join(' + '),
    chunks: refs.map((r) => `(CASE WHEN ${isOut(r)} THEN ceil(pg_column_size(${r})::float8 / ${chunk})::int ELSE 0 END)`).join(' + '),
  };
}

/** A scan's own conditions as EXPLAIN printed them (index or recheck condition, filter), or undefined where one cannot be asked again. */
export function writeScanConditions(scan: PlanNode): string[] | undefined {
  const printed = (label: string) => (scan.conditions ?? []).filter((c) => c.startsWith(`${label}: `)).map((c) => c.slice(label.length + 2));
  let access: string[];
  if (scan.nodeType === 'Seq Scan') access = [];
  else if (scan.nodeType === 'Index Scan') access = scan.indexCond ? [scan.indexCond] : [];
  // A bitmap heap scan's recheck condition is its bitmap's: the rows it selects, lossy pages or not.
  else if (scan.nodeType === 'Bitmap Heap Scan') access = printed('Recheck Cond');
  else return undefined;
  if (scan.nodeType === 'Bitmap Heap Scan' && access.length === 0) return undefined;
  const all = [...access, ...printed('Filter')];
  return all.every(REPEATABLE) ? all : undefined;
}

/** The order the scan returned its rows in: physical for sequential and bitmap scans, the index's lead key for index scans. */
async function scanOrder(client: Client, scan: PlanNode, relations: PgRelation[], facts: PgRelationFacts[], alias: string): Promise<string | undefined> {
  if (scan.nodeType === 'Seq Scan' || scan.nodeType === 'Bitmap Heap Scan') return `${alias}.ctid`;
  if (scan.nodeType !== 'Index Scan' || !scan.index) return undefined;
  const index = facts.find((f) => f.kind === 'index' && f.planName === scan.index);
  const rel = index && relations.find((r) => r.kind === 'index' && r.name === index.reportName);
  const lead = rel && (await indexLeadColumn(client, rel.oid));
  if (!lead) return undefined;
  const dir = scan.backward ? 'DESC' : 'ASC';
  return `${alias}.${lead.column} ${dir}, ${alias}.ctid ${dir}`;
}

export interface WrittenRows {
  blocks: Record<string, number[]>;
  outOfLine: Record<string, Array<[number, number, number]>>;
  partial: Record<string, number>;
  /** Per index of an UPDATE's table (its plan name), each written row's position along it, in scan order (key-positions.ts). */
  keyPositions: Record<string, number[]>;
}

/** Per keyed index, the rows' positions from their keys' images (the query's columns k0, k1, …) and the column's statistics. */
async function keyPositions(client: Client, keys: KeyedIndex[], rows: Array<Record<string, unknown>>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const [n, k] of keys.entries()) {
    const stats = await leadStats(client, k);
    const images = rows.map((r) => (r[`k${n}`] === null ? null : Number(r[`k${n}`])));
    if (stats && images.every((v) => v === null || Number.isFinite(v))) out[k.index] = positionsOf(stats, images, k.descending);
  }
  return out;
}

/**
 * Per written table (its plan name), each written row's heap block in scan order, and for a DELETE the rows
 * holding values out of line ([row, values, chunks]); empty where not asked or not matched.
 */
export async function readWrittenRows(
  client: Client,
  root: PlanNode,
  relations: PgRelation[],
  facts: PgRelationFacts[],
  settings: { major: number; blockSize: number; updatedColumns?: string[] },
  timeoutMs: number,
): Promise<WrittenRows> {
  const none: WrittenRows = { blocks: {}, outOfLine: {}, partial: {}, keyPositions: {} };
  return readOnly(
    client,
    timeoutMs,
    none,
    async () => {
      const q = await writtenRowsQuery(client, root, relations, facts, settings, (table) => keyedIndexes(client, table, relations, facts));
      if (!q) return none;
      const res = await client.query<{ block: string; values: string | number; chunks: string | number } & Record<string, unknown>>(q.sql);
      const blocks = res.rows.map((r) => Number(r.block));
      if (blocks.length !== q.rows || !blocks.every(Number.isSafeInteger)) return none;
      const toast = res.rows.flatMap((r, k): Array<[number, number, number]> => (Number(r.values) > 0 ? [[k, Number(r.values), Number(r.chunks)]] : []));
      const partial = q.partialSql ? (await client.query<Record<string, string>>(q.partialSql)).rows[0] : undefined;
      return {
        blocks: { [q.table]: blocks },
        outOfLine: toast.length > 0 ? { [q.table]: toast } : {},
        partial: Object.fromEntries(q.partial.map((name, k) => [name, Number(partial?.[`p${k}`])]).filter(([, n]) => Number.isSafeInteger(n))),
        keyPositions: await keyPositions(client, q.keys, res.rows),
      };
    },
    "the written rows' pages",
  );
}
