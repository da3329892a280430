// The heap blocks a bitmap heap scan reads, asked after the last run: the blocks of the rows its one bitmap
// index scan's condition selects, in block order. Which blocks those are is in no statistic (an index that
// does not follow the heap spreads them anywhere), and it decides what a pool that already holds some of the
// table's pages has to read: a statement measured again finds its own blocks cached, not evenly strided
// ones. Asked in a read-only transaction after the runs (a write's runs were rolled back, leaving its rows as
// they were), of the scan's table filtered by its index condition where that names its table alone. The live
// rows' blocks are what a query sees; a bitmap also holds entries of dead versions, whose blocks the executed
// count has beyond them: the prediction says how it places those.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { asAlone, readOnly, scanNodes } from './after-runs';

/** Beyond this many blocks the scan is not asked: the blocks stay modelled as evenly spread. */
export const MAX_BITMAP_BLOCKS = 100_000;

export async function readBitmapBlocks(client: Client, root: PlanNode, facts: PgRelationFacts[], timeoutMs: number): Promise<Record<string, number[]>> {
  const all = scanNodes(root);
  const out: Record<string, number[]> = {};
  for (const n of all) {
    const alone = askable(n, all);
    const table = facts.find((f) => f.kind === 'table' && f.planName === n.relation);
    if (!alone || !table || !n.relation) continue;
    const blocks = await readOnly(
      client,
      timeoutMs,
      undefined,
      async () => {
        const res = await client.query<{ block: string }>(
          `SELECT DISTINCT (${alone.alias}.ctid::text::point)[0]::bigint AS block FROM ${table.reportName} AS ${alone.alias} WHERE ${alone.indexCond} ` +
          `ORDER BY 1`,
        );
        return res.rows.map((r) => Number(r.block));
      },
      'the blocks a bitmap scan read',
    );
    if (blocks && blocks.length > 0 && blocks.every(Number.isSafeInteger)) out[n.relation] = blocks;
  }
  return out;
}

/** A serial bitmap heap scan run once over one bitmap index scan, its table scanned nowhere else in the plan. */
function askable(n: PlanNode, all: PlanNode[]): { alias: string; indexCond: string } | undefined {
  if (n.nodeType !== 'Bitmap Heap Scan' || n.parallelAware || (n.actualLoops ?? 1) > 1 || !n.relation) return undefined;
  if (all.filter((m) => m.relation === n.relation).length !== 1) return undefined;
  const child = n.children.length === 1 ? n.children[0] : undefined;
  if (child?.nodeType !== 'Bitmap Index Scan') return undefined;
  const executed = (n.exactHeapBlocks ?? 0) + (n.lossyHeapBlocks ?? 0);
  if (executed === 0 || executed > MAX_BITMAP_BLOCKS) return undefined;
  return asAlone({ ...child, alias: n.alias });
}
