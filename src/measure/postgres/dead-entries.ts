// The dead index entries an index scan meets on every run, counted after the last run. A rolled-back
// write (an earlier measurement's, say) leaves a dead version of each row it changed, with an entry beside
// the live one; where the two share a posting list, no scan can mark the dead one (_bt_killitems marks a
// posting list only when all its versions are dead), so every scan goes out to its page and back. No
// statistic places them (n_dead_tup counts them with every other dead version), and the moved-rows query
// sees live rows only. A bitmap index scan of the same condition returns every entry not marked dead, and
// its heap scan counts the blocks those entries point to: entries beyond the live rows, on blocks beyond the
// live rows' blocks, are such dead versions. Asked after the runs, read-only, in the session, with the
// other scan types switched off for that transaction: scans of a correlated index whose index condition
// names their table alone, of a size the moved-rows query would ask. After a SELECT the count is what every
// run met. After a rolled-back write it also holds the versions the write's own runs left, which the write's
// model places already: there it only bounds what run 1 can have met (PgPredictionSettings.writeDeadEntries).
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import type { PgDeadEntries, PgRelationFacts } from '../../predict/postgres/facts';
import { orderedShare } from '../../predict/postgres/geometry';
import { asAlone, indexLeadColumn, readOnly, scanNodes, walkedOnce } from './after-runs';
import { MAX_SCANNED_ROWS } from './moved-rows';
import type { PgRelation } from './residency';

interface ExplainNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Exact Heap Blocks'?: number;
  'Lossy Heap Blocks'?: number;
  Plans?: ExplainNode[];
}

export async function readDeadEntries(
  client: Client,
  root: PlanNode,
  relations: PgRelation[],
  facts: PgRelationFacts[],
  timeoutMs: number,
): Promise<Record<string, PgDeadEntries>> {
  const all = scanNodes(root);
  const out: Record<string, PgDeadEntries> = {};
  for (const n of all) {
    if (!n.relation || !n.index || !walkedOnce(n, MAX_SCANNED_ROWS) || all.filter((m) => m.relation === n.relation).length !== 1) continue;
    const index = facts.find((f) => f.kind === 'index' && f.planName === n.index);
    const rel = index && relations.find((r) => r.kind === 'index' && r.name === index.reportName);
    const table = facts.find((f) => f.kind === 'table' && f.planName === n.relation);
    const alone = asAlone(n);
    // Only a scan that walks the heap in key order goes out to such an entry and back (plan-simulator.ts);
    // a table with no dead version counted (n_dead_tup counts aborted ones too) has none to find.
    if (!rel || !alone || orderedShare(index.correlation) <= 0.8 || (table?.deadTuples ?? 1) <= 0) continue;
    const { alias, indexCond } = alone;
    const found = await readOnly(
      client,
      timeoutMs,
      undefined,
      async () => {
        const lead = await indexLeadColumn(client, rel.oid);
        if (!lead) return undefined;
        const from = `FROM ${lead.table} AS ${alias} WHERE ${indexCond}`;
        const live = await client.query<{ blocks: string }>(`SELECT count(DISTINCT (${alias}.ctid::text::point)[0]) AS blocks ${from}`);
        for (const setting of ['enable_indexscan', 'enable_indexonlyscan', 'enable_seqscan']) await client.query(`SET LOCAL ${setting} = off`);
        await client.query('SET LOCAL max_parallel_workers_per_gather = 0');
        const res = await client.query<{ 'QUERY PLAN': Array<{ Plan: ExplainNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) ${from}`);
        return bitmapCounts(res.rows[0]?.['QUERY PLAN'][0]?.Plan, n.index!, Number(live.rows[0]?.blocks ?? 0));
      },
      "the dead entries under the scan's keys",
    );
    if (found) out[n.relation] = n.nodeType === 'Index Only Scan' && n.heapFetches !== undefined ? { ...found, lastFetches: n.heapFetches } : found;
  }
  return out;
}

/** The bitmap scan's entries, live rows and heap blocks, where it used the same index and stayed exact. */
function bitmapCounts(plan: ExplainNode | undefined, index: string, liveBlocks: number): PgDeadEntries | undefined {
  const heap = find(plan, (x) => x['Node Type'] === 'Bitmap Heap Scan');
  const bitmap = heap && find(heap, (x) => x['Node Type'] === 'Bitmap Index Scan');
  if (!heap || !bitmap || bitmap['Index Name'] !== index || (heap['Lossy Heap Blocks'] ?? 0) > 0) return undefined;
  const entries = bitmap['Actual Rows'] ?? 0;
  const live = heap['Actual Rows'] ?? 0;
  const blocks = heap['Exact Heap Blocks'] ?? 0;
  return { dead: Math.max(0, entries - live), live, farBlocks: Math.max(0, blocks - liveBlocks) };
}

function find(n: ExplainNode | undefined, match: (x: ExplainNode) => boolean): ExplainNode | undefined {
  if (!n) return undefined;
  if (match(n)) return n;
  for (const c of n.Plans ?? []) {
    const hit = find(c, match);
    if (hit) return hit;
  }
  return undefined;
}
