// Which of the rows an index scan visits an update moved out of key order, and the blocks their versions
// went to, read after the last run. A non-HOT update puts the new version elsewhere (at the end of a table
// with no free space mapped) with a new index entry beside the old one, so a scan in key order goes out to
// it and back: an index scan for every such row, an index-only scan for those on pages that are not
// all-visible (and to the visibility-map page and back where another covers it). The statistics count
// updates a rollback undid as well, whose versions no scan returns; the rows themselves tell: a row whose
// block is far from both neighbours' in key order was moved. Asked in a read-only transaction after the
// runs (it touches nothing run 1 reads first): a plain SELECT whose one scan it is, with its select list
// replaced by each row's block and lead key; a scan among others or below a write (whose runs were rolled
// back, leaving the rows as they were), as its table filtered by its index condition where that names its
// table alone (a join's inner lookups, whose conditions name the outer rows, are not asked).
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import type { PgRelationFacts, PgMovedRows } from '../../predict/postgres/facts';
import { replaceSelectList } from '../../sql/select-list';
import { aloneCondition, asAlone, countNodes, indexLeadColumn, readOnly, scanNodes, walkedOnce } from './after-runs';
import type { PgRelation } from './residency';

/** Beyond this many moved rows none are sent back: the prediction then models no move. */
export const MAX_MOVED_ROWS = 100_000;
/** Beyond this many rows visited the scan is not asked again (its rows are sorted by key: about a second for 2,000,000). */
export const MAX_SCANNED_ROWS = 2_000_000;

/** `select`: the statement where it is a SELECT (its select list can be replaced); a write's scans are asked alone. */
export async function readMovedRows(
  client: Client,
  select: string | undefined,
  root: PlanNode,
  relations: PgRelation[],
  facts: PgRelationFacts[],
  timeoutMs: number,
): Promise<Record<string, PgMovedRows>> {
  const all = scanNodes(root);
  const out: Record<string, PgMovedRows> = {};
  // The moved rows are kept per table: a table scanned twice (a self-join) is not asked.
  const once = (table: string) => all.filter((m) => m.relation === table).length === 1;
  for (const n of all) {
    if (!n.relation || !n.index || !once(n.relation) || !asked(n)) continue;
    const index = facts.find((f) => f.kind === 'index' && f.planName === n.index);
    const rel = index && relations.find((r) => r.kind === 'index' && r.name === index.reportName);
    if (!rel) continue;
    const moved = await readOnly(
      client,
      timeoutMs,
      undefined,
      async () => {
        const lead = await indexLeadColumn(client, rel.oid);
        if (!lead) return undefined;
        const rows = all.length === 1 && select !== undefined ? wholeStatement(select, root, n, lead.column) : scanAlone(n, lead, index);
        return rows ? await movedAmong(client, rows, n.backward === true) : undefined;
      },
      'the rows an update moved',
    );
    if (moved) out[n.relation] = moved;
  }
  return out;
}

/** An index scan walked once (a parallel one's participants share one walk), of a size worth asking. */
function asked(n: PlanNode): boolean {
  if (n.nodeType === 'Index Only Scan' && (n.heapFetches ?? 0) === 0) return false;
  return walkedOnce(n, MAX_SCANNED_ROWS);
}

function wholeStatement(statement: string, root: PlanNode, n: PlanNode, column: string): string | undefined {
  // A filter beyond the index condition drops rows the scan visited; an incremental sort reorders them.
  if ((n.rowsRemovedByFilter ?? 0) > 0 || countNodes(root, 'Incremental Sort') > 0) return undefined;
  return replaceSelectList(statement, `(ctid::text::point)[0]::bigint AS block, ${column} AS lead`, 'postgresql', { unordered: countNodes(root, 'Sort') > 0 });
}

function scanAlone(n: PlanNode, lead: { table: string; column: string }, index: PgRelationFacts): string | undefined {
  const alone = asAlone(n);
  return (
    alone &&
    `SELECT (${alone.alias}.ctid::text::point)[0]::bigint AS block, ${alone.alias}.${lead.column} AS lead FROM ${lead.table} AS ${alone.alias} WHERE ` +
    `${aloneCondition(alone, index)}`
  );
}

async function movedAmong(client: Client, rows: string, backward: boolean): Promise<PgMovedRows | undefined> {
  const res = await client.query<{ blocks: string[] | null; ranks: string[] | null; scanned: string }>(
    `SELECT array_agg(block ORDER BY rank) FILTER (WHERE moved) AS blocks, array_agg(rank ORDER BY rank) FILTER (WHERE moved) AS ranks, count(*) AS scanned
       FROM (SELECT block, row_number() OVER w AS rank,
                    abs(block - coalesce(lag(block) OVER w, block)) > 1 AND abs(block - coalesce(lead(block) OVER w, block)) > 1 AS moved
               FROM (${rows}) s WINDOW w AS (ORDER BY lead ${backward ? 'DESC' : 'ASC'}, block ${backward ? 'DESC' : 'ASC'})) o`,
  );
  const r = res.rows[0];
  if (!r) return undefined;
  const blocks = (r.blocks ?? []).map(Number);
  if (blocks.length > MAX_MOVED_ROWS) return undefined;
  return { blocks, ranks: (r.ranks ?? []).map(Number), scanned: Number(r.scanned) };
}
