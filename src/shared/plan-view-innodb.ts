// MariaDB's ANALYZE FORMAT=JSON as rows of the plan view: each query block's tables in join order as
// a chain (each table read once per row of the one before), named by the table with its alias, with
// the access type, the key, rows examined against rows estimated and the pages the engine counted. Pure.
import { formatCount } from './format';
import { misestimateText, type PlanRow } from './plan-row';

type Json = Record<string, unknown>;

const isObject = (x: unknown): x is Json => !!x && typeof x === 'object' && !Array.isArray(x);

/** What a query block holds, in the order the engine lists it: its tables (join order) and nested query blocks. */
function blockParts(block: Json): Array<{ table: Json } | { block: Json }> {
  const parts: Array<{ table: Json } | { block: Json }> = [];
  const visit = (o: unknown): void => {
    if (Array.isArray(o)) return o.forEach(visit);
    if (!isObject(o)) return;
    for (const [k, x] of Object.entries(o)) {
      if (k === 'table' && isObject(x)) parts.push({ table: x });
      else if (k === 'query_block' && isObject(x)) parts.push({ block: x });
      else if (typeof x === 'object') visit(x);
    }
  };
  visit(block);
  return parts;
}

function rowsText(t: Json): string {
  if (t.r_rows === undefined) return t.rows !== undefined ? `rows estimated ${formatCount(Number(t.rows))} (not run)` : '';
  const perLoop = Number(t.r_rows);
  const loops = Number(t.r_loops ?? 1);
  const examined = `rows examined ${formatCount(Math.round(perLoop * loops))}${loops !== 1 ? ` (${formatCount(perLoop)} × ${formatCount(loops)} loops)` : ''}`;
  if (t.rows === undefined) return examined;
  const est = Number(t.rows);
  const off = misestimateText(perLoop, est);
  return `${examined}, estimated ${formatCount(est)} per loop${off}`;
}

/** Names and predictions the plan's tables are looked up in: aliases to tables, tables to predicted pages. */
export interface InnodbPlanContext {
  names: Record<string, string>;
  predicted: Record<string, { pages: number; read: number }>;
}

/** The prediction of a table named as the statement names it (with or without its schema). */
function predictionOf(table: string, predicted: InnodbPlanContext['predicted']): { pages: number; read: number } | undefined {
  const key = Object.keys(predicted).find((k) => k === table || k.endsWith(`.${table}`) || table.endsWith(`.${k}`));
  return key === undefined ? undefined : predicted[key];
}

function tableRow(t: Json, ctx: InnodbPlanContext, order: number): PlanRow {
  const names = ctx.names;
  const stats = isObject(t.r_engine_stats) ? t.r_engine_stats : undefined;
  const accessed = Number(stats?.pages_accessed ?? 0);
  const readAhead = Number(stats?.pages_prefetch_read_count ?? 0);
  const read = Number(stats?.pages_read_count ?? 0) + readAhead;
  const alias = String(t.table_name ?? '?');
  const table = names[alias];
  const name = table && table !== alias ? `${table} ${alias}` : alias;
  const predicted = predictionOf(table ?? alias, ctx.predicted);
  const filtered =
    t.r_filtered !== undefined ? `${Number(t.r_filtered).toFixed(0)} % kept by the filter (estimated ${Number(t.filtered ?? 100).toFixed(0)} %)` : '';
  const time = t.r_table_time_ms !== undefined ? `time ${Number(t.r_table_time_ms).toFixed(1)} ms` : '';
  return {
    label: `${order}. ${name}: ${String(t.access_type ?? '?')}${t.key ? ` using ${String(t.key)}` : ''}`,
    detail: [rowsText(t), filtered, time, readAhead ? `${formatCount(readAhead)} read ahead` : ''].filter(Boolean).join(' · '),
    conditions: [
      ...(Array.isArray(t.ref) ? [`Ref: ${t.ref.map(String).join(', ')}`] : []),
      ...(t.index_condition ? [`Index Cond: ${String(t.index_condition)}`] : []),
      ...(t.attached_condition ? [`Filter: ${String(t.attached_condition)}`] : []),
    ],
    selfPages: accessed,
    selfRead: read,
    totalPages: accessed,
    totalRead: read,
    share: 0,
    heavy: false,
    open: false,
    children: [],
    ...(predicted ? { predicted } : {}),
    ...(stats === undefined ? { notReported: true } : {}),
  };
}

const addTotals = (row: PlanRow, child: PlanRow) => {
  row.totalPages += child.totalPages;
  row.totalRead += child.totalRead;
};

/**
 * A query block: its tables chained in join order (the second under the first, read per row of it), a
 * table's materialized subquery under that table, other query blocks beside the chain.
 */
export function innodbBlock(block: Json, title: string, ctx: InnodbPlanContext): PlanRow {
  const group: PlanRow = {
    label: title,
    detail: '',
    conditions: [],
    selfPages: 0,
    selfRead: 0,
    totalPages: 0,
    totalRead: 0,
    share: 0,
    heavy: false,
    open: false,
    group: true,
    children: [],
  };
  if (block.r_total_time_ms !== undefined) group.detail = `time ${Number(block.r_total_time_ms).toFixed(1)} ms`;
  const chain: PlanRow[] = [];
  for (const part of blockParts(block)) {
    if ('block' in part) {
      group.children.push(innodbBlock(part.block, `query block ${String(part.block.select_id ?? '')}`.trim(), ctx));
      continue;
    }
    const row = tableRow(part.table, ctx, chain.length + 1);
    const nested = part.table.materialized ?? part.table.subqueries;
    if (isObject(nested) || Array.isArray(nested)) {
      const inner = innodbBlock(nested as Json, 'materialized / subquery', ctx);
      row.children.push(...inner.children);
      addTotals(row, inner);
    }
    chain.push(row);
  }
  // Innermost first, so that each table's total holds the tables read per its rows.
  for (let i = chain.length - 1; i > 0; i--) {
    chain[i - 1].children.push(chain[i]);
    addTotals(chain[i - 1], chain[i]);
  }
  if (chain[0]) group.children.unshift(chain[0]);
  for (const c of group.children) addTotals(group, c);
  return group;
}
