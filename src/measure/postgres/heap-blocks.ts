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
import { countNodes, readOnly, scanNodes } from './after-runs';

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
