// The heap blocks of the rows an index scan returned, in the order it returned them, read after the last
// run: where a range's live rows lie in the heap (spread over every page, or packed where an update
// appended them and VACUUM emptied the rest) is in no statistic. The statement is asked again with its
// select list replaced by each row's block number (its ctid's), in a read-only transaction; after the
// runs, so it touches nothing run 1 reads first. Only a plain SELECT whose one scan is a serial index scan
// that filters nothing beyond its index condition: then its rows are exactly the heap rows it visited. Where
// a Sort above it reorders them (every row the scan returned, a top-N LIMIT included), the statement is asked
// without its ORDER BY and LIMIT: the same rows, in the scan's order.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import { replaceSelectList } from '../../sql/select-list';
import { aloneCondition, asAlone, countNodes, readOnly, scanNodes } from './after-runs';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { quotePostgresName } from '../../sql/quote';

/** Rows beyond this are not fetched again: the heap order stays modelled from the correlation. */
export const MAX_HEAP_ROWS = 100_000;

export async function readHeapBlocks(client: Client, statement: string, root: PlanNode, timeoutMs: number): Promise<Record<string, number[]>> {
  const all = scanNodes(root);
  const n = all[0];
  if (all.length !== 1 || n.nodeType !== 'Index Scan' || n.parallelAware || (n.actualLoops ?? 1) > 1 || (n.rowsRemovedByFilter ?? 0) > 0 || !n.relation)
    return {};
  // An incremental sort reorders rows within runs of its presorted key: no query gives the scan's order.
  if (countNodes(root, 'Incremental Sort') > 0) return {};
  if ((n.actualRows ?? 0) === 0 || (n.actualRows ?? 0) > MAX_HEAP_ROWS) return {};
  const sql = replaceSelectList(statement, '(ctid::text::point)[0]::bigint AS block', 'postgresql', { unordered: countNodes(root, 'Sort') > 0 });
  if (!sql) return {};
  return readOnly(
    client,
    timeoutMs,
    {},
    async () => {
      const res = await client.query<{ block: string }>(sql);
      const blocks = res.rows.map((r) => Number(r.block));
      return blocks.length === n.actualRows && blocks.every(Number.isSafeInteger) ? { [n.relation!]: blocks } : {};
    },
    "where the scan's rows are",
  );
}

/**
 * The same for an index scan among other nodes (a join's side, a write's input), walked once: the blocks of
 * the rows its index condition selects, asked of its table alone in the index's order (its key columns, then
 * the heap position, as a B-tree keeps equal keys), where the condition names its table alone. A date
 * inserted with jitter correlates with the heap overall (0.99) and not locally: the rows of one day lie on
 * hundreds of pages, one a page, and a scan in key order goes from page to page (measured: 2,002 requests for
 * 2,004 rows, 502 pages), where a correlated scan is taken to walk them in block order. Kept where it returns
 * as many rows as the scan visited.
 */
export async function readScanBlocks(client: Client, root: PlanNode, facts: PgRelationFacts[], timeoutMs: number): Promise<Record<string, number[]>> {
  const all = scanNodes(root);
  const out: Record<string, number[]> = {};
  for (const n of all) {
    if (n.nodeType !== 'Index Scan' || n.parallelAware || (n.actualLoops ?? 1) !== 1 || !n.relation || !n.index) continue;
    if (all.filter((m) => m.relation === n.relation).length !== 1) continue;
    const visited = (n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0);
    const alone = asAlone(n);
    const table = facts.find((f) => f.kind === 'table' && f.planName === n.relation);
    const index = facts.find((f) => f.kind === 'index' && f.planName === n.index);
    const keys = index?.columns?.slice(0, index.keyColumns ?? index.columns.length);
    if (!alone || !table || !keys || keys.some((c) => c === null) || visited === 0 || visited > MAX_HEAP_ROWS) continue;
    const dir = n.backward ? 'DESC' : 'ASC';
    const order = [...keys.map((c) => `${alone.alias}.${quotePostgresName(c!)} ${dir}`), `${alone.alias}.ctid ${dir}`].join(', ');
    const blocks = await readOnly(
      client,
      timeoutMs,
      undefined,
      async () =>
        (
          await client.query<{ block: string }>(
            `SELECT (${alone.alias}.ctid::text::point)[0]::bigint AS block FROM ${table.reportName} AS ${alone.alias} WHERE ` +
            `${aloneCondition(alone, index)} ORDER BY ${order}`,
          )
        ).rows.map((r) => Number(r.block)),
      "where an index scan's rows are",
    );
    if (blocks && blocks.length === visited && blocks.every(Number.isSafeInteger)) out[n.relation] = blocks;
  }
  return out;
}
