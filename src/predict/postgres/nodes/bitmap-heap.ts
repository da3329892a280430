// A bitmap heap scan: the heap blocks its bitmap holds, in block order.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { pageId } from '../geometry';

export function bitmapHeap(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes): void {
  const t = sim.relationIndex('table', n.relation);
  if (t === undefined) return void notes.unmodelled.add(`Bitmap Heap Scan on ${n.relation}: table facts missing`);
  const f = sim.facts[t];
  const blocks = Math.min(f.pages, (n.exactHeapBlocks ?? 0) + (n.lossyHeapBlocks ?? 0));
  notes.assumptions.add(`${f.reportName}: bitmap heap scan of ${blocks.toLocaleString('en-US')} heap blocks (as executed), in block order`);
  const stride = blocks > 0 ? f.pages / blocks : 1;
  for (let k = 0; k < blocks; k++) pool.access(pageId(t, Math.floor(k * stride)));
}
