// A bitmap heap scan: the heap blocks its bitmap holds, in block order. Which blocks those are was read after
// the runs where the plan allowed (the blocks of the rows its condition selects: bitmap-blocks.ts); a pool
// that already holds some of the table finds those very blocks cached or not. Blocks the executed count has
// beyond them hold only entries of dead versions, and without the read all of them are spread evenly.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { pageId } from '../geometry';
import type { SeededRandom } from '../../../sim/random';

export function bitmapHeap(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom): void {
  const t = sim.relationIndex('table', n.relation);
  if (t === undefined) return void notes.unmodelled.add(`Bitmap Heap Scan on ${n.relation}: table facts missing`);
  const f = sim.facts[t];
  const executed = Math.min(f.pages, (n.exactHeapBlocks ?? 0) + (n.lossyHeapBlocks ?? 0));
  const known = n.relation ? sim.observed.bitmapBlocks[n.relation] : undefined;
  const loops = Math.max(1, n.actualLoops ?? 1);
  const blocks = known
    ? withDeadOnly(known, executed, f.pages, earlierVersions(sim, t, n.actualRows ?? 0))
    : loops > 1
      ? drawnPerLoop(executed, loops, f.pages, rnd)
      : evenly(executed, f.pages);
  notes.assumptions.add(
    `${f.reportName}: bitmap heap scan of ${executed.toLocaleString('en-US')} heap blocks (as executed), in block order` +
      (known
        ? `: the ${known.length.toLocaleString('en-US')} blocks its rows are on (read after the last run)` +
          (executed > known.length ? ", the rest (dead versions only) where the earlier runs' rolled-back versions went, then on the table's last blocks" : '')
        : loops > 1
          ? `, over ${loops.toLocaleString('en-US')} loops, each loop's blocks drawn over the table (two loops may meet one block)`
          : ', spread evenly over the table'),
  );
  for (const b of blocks) pool.access(pageId(t, b));
}

function evenly(count: number, pages: number): number[] {
  const stride = count > 0 ? pages / count : 1;
  return Array.from({ length: count }, (_, k) => Math.floor(k * stride));
}

/**
 * A bitmap heap scan on a nested loop's inner side: the executed count sums its loops, each loop's bitmap
 * its own blocks, in block order, anywhere in the table; a block two loops share is read once.
 */
function drawnPerLoop(count: number, loops: number, pages: number, rnd: SeededRandom): number[] {
  const out: number[] = [];
  let due = 0;
  for (let l = 0; l < loops; l++) {
    due += count / loops;
    const mine: number[] = [];
    for (; due >= 1; due--) mine.push(rnd.int(pages));
    out.push(...mine.sort((a, b) => a - b));
  }
  return out;
}

/** The blocks where the two runs before this one put the new versions of their rows (a rolled-back write's). */
function earlierVersions(sim: SimulationContext, t: number, rows: number): number[] {
  const out = new Set<number>();
  for (const place of [sim.history.leftoverPlace.get(t), sim.history.olderLeftoverPlace.get(t)]) if (place) for (let r = 0; r < rows; r++) out.add(place(r));
  return [...out];
}

/**
 * The rows' blocks, and as many more as the executed count has beyond them: first the blocks the earlier
 * runs' rolled-back versions went to (their index entries lead there), then the table's last blocks. Those
 * had been spread evenly over the table, where a re-measured range update's runs 2-3 read them (lab: 57 and
 * 67 pages predicted, none read).
 */
function withDeadOnly(known: number[], executed: number, pages: number, earlier: number[]): number[] {
  const extra = executed - known.length;
  if (extra <= 0) return known;
  const live = new Set(known);
  const dead = earlier.filter((b) => !live.has(b)).slice(0, extra);
  const taken = new Set([...known, ...dead]);
  // Versions of runs before those two went where theirs did, to the table's end as it was (a rolled-back
  // write's versions are appended: no free space is recorded for them): its last blocks, backward.
  const others: number[] = [];
  for (let b = pages - 1; b >= 0 && others.length < extra - dead.length; b--) if (!taken.has(b)) others.push(b);
  return [...taken, ...others].sort((a, b) => a - b);
}
