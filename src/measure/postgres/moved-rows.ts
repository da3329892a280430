// How many of the rows a plain SELECT's one index-only scan counted an update moved out of key order, and
// the blocks their versions went to, read after the last run. An index-only scan goes to the heap for
// every entry on a page that is not all-visible: where a row an update moved lies between rows that stayed,
// each such fetch goes out to the moved version's page and back (and to its visibility-map page, where
// another covers it). The statistics count updates a rollback undid as well, whose versions no scan
// returns; the rows themselves tell: a row whose block is far from both neighbours' in key order was moved.
// Asked as the statement with its select list replaced by each row's block and lead key, in a read-only
// transaction, after the runs (it touches nothing run 1 reads first).
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import type { PgRelationFacts, PgMovedRows } from '../../predict/postgres/facts';
import { replaceSelectList } from '../../sql/select-list';
import { countNodes, indexLeadColumn, readOnly, scanNodes } from './after-runs';
import type { PgRelation } from './residency';

/** Beyond this many moved rows none are sent back: the prediction then models no move. */
export const MAX_MOVED_ROWS = 100_000;
/** Beyond this many rows counted the statement is not asked again (its rows are sorted by key: about a second for 2,000,000). */
export const MAX_SCANNED_ROWS = 2_000_000;

export async function readMovedRows(
  client: Client,
  statement: string,
  root: PlanNode,
  relations: PgRelation[],
  facts: PgRelationFacts[],
  timeoutMs: number,
): Promise<Record<string, PgMovedRows>> {
  const all = scanNodes(root);
  const n = all[0];
  if (all.length !== 1 || n.nodeType !== 'Index Only Scan' || !n.relation || !n.index || (n.rowsRemovedByFilter ?? 0) > 0 || (n.heapFetches ?? 0) === 0) return {};
  if (countNodes(root, 'Incremental Sort') > 0 || (n.actualRows ?? 0) * Math.max(1, n.actualLoops ?? 1) > MAX_SCANNED_ROWS) return {};
  const index = facts.find((f) => f.kind === 'index' && f.planName === n.index);
  const rel = index && relations.find((r) => r.kind === 'index' && r.name === index.reportName);
  if (!rel) return {};
  return readOnly(client, timeoutMs, {}, async () => {
    const lead = await indexLeadColumn(client, rel.oid);
    if (!lead) return {};
    const rows = replaceSelectList(statement, `(ctid::text::point)[0]::bigint AS block, ${lead.column} AS lead`, 'postgresql', { unordered: countNodes(root, 'Sort') > 0 });
    if (!rows) return {};
    const res = await client.query<{ blocks: string[] | null; ranks: string[] | null; scanned: string }>(
      `SELECT array_agg(block ORDER BY rank) FILTER (WHERE moved) AS blocks, array_agg(rank ORDER BY rank) FILTER (WHERE moved) AS ranks, count(*) AS scanned
         FROM (SELECT block, row_number() OVER w AS rank,
                      abs(block - coalesce(lag(block) OVER w, block)) > 1 AND abs(block - coalesce(lead(block) OVER w, block)) > 1 AS moved
                 FROM (${rows}) s WINDOW w AS (ORDER BY lead, block)) o`,
    );
    const r = res.rows[0];
    if (!r) return {};
    const blocks = (r.blocks ?? []).map(Number);
    if (blocks.length > MAX_MOVED_ROWS) return {};
    return { [n.relation!]: { blocks, ranks: (r.ranks ?? []).map(Number), scanned: Number(r.scanned) } };
  });
}
