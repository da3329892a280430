// An index scan started once per outer row (a nested loop's inner side).
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import type { SeededRandom } from '../../../sim/random';
import { descentPages, indexGeometry, leafBlock, orderedShare, pageId } from '../geometry';
import { liveRows, type DeadVersions, type LiveRows } from '../heap-layout';
import { deadOf } from '../history/dead-versions';
import { killedAfterChurn } from '../history/churn';
import { visibilityChecks } from './visibility-map';

/**
 * An index scan started once per outer row (a nested loop's inner side): every loop descends from the
 * root, reads its leaf and pins the heap page of its first row anew, since a rescan releases the pins.
 * Where each loop's key lands follows the order the outer rows arrive in (lookup-order.ts): the next
 * entries after the previous key, or anywhere in the index. Where the first key lands is drawn.
 */
/** The heap side of a nested loop's lookups: the table's live rows and dead versions, and the rows as the loop found them. */
interface LookupHeap {
  t: number;
  live: LiveRows;
  heapPerLoop: number;
  heapOrdered: number;
  dead: DeadVersions | undefined;
  kills: ReturnType<typeof killedAfterChurn>;
  known: { keys?: number[]; blocks: number[] } | undefined;
}

/** Where the loops are: the entry looked up, the heap visits and dead versions due, and whether the last loop met any dead. */
interface LoopState {
  pos: number;
  heapDue: number;
  deadDue: number;
  metDead: boolean;
}

export function repeatedIndexScan(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom): void {
  const i = sim.relationIndex('index', n.index);
  if (i === undefined) return void notes.unmodelled.add(`${n.nodeType} using ${n.index}: index facts missing`);
  const f = sim.facts[i];
  const g = indexGeometry(f);
  const loops = Math.max(1, n.actualLoops ?? 1);
  const order = sim.lookupOrders.get(n) ?? { ordered: 0, stride: 1, why: 'what feeds its lookups is not known: they are taken in random order' };
  notes.assumptions.add(`${f.reportName}: ${loops.toLocaleString('en-US')} lookups, ${order.why}`);
  // The visibility-map page stays pinned across rescans: asked anew only where the heap page falls under another.
  if (n.nodeType === 'Index Only Scan') visibilityChecks(sim, pool, n, notes, ((n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0)) * loops, 1);
  const entries = Math.max(1, f.tuples);
  const perLeaf = f.tuples > 0 ? f.tuples / g.leafPages : 1;
  // EXPLAIN gives rows per loop, and heap fetches of an index-only scan in total.
  const perLoop = (n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0);
  const leaves = Math.min(g.leafPages, Math.max(1, Math.ceil(perLoop / perLeaf)));
  const rows = n.relation ? sim.observed.lookupRows[n.relation] : undefined;
  const known = rows && rows.blocks.length === loops ? rows : undefined;
  const heap = lookupHeap(sim, n, notes, i, { loops, perLoop, known });
  const keyed = known?.keys && f.keyRange ? { keys: known.keys, min: f.keyRange.min } : undefined;
  if (known)
    notes.assumptions.add(
      `${f.reportName}: the ${loops.toLocaleString('en-US')} lookups' ${keyed ? 'keys and ' : ''}rows' heap blocks as the loop found them (read after ` +
      `the last run)`,
    );
  const state: LoopState = { pos: rnd.int(Math.max(1, entries - Math.ceil(loops * order.stride))), heapDue: 0, deadDue: 0, metDead: false };
  let prev = state.pos;
  let rereads = 0;
  for (let l = 0; l < loops; l++) {
    if (l > 0) state.pos = rnd.next() < order.ordered ? (state.pos + order.stride) % entries : rnd.int(entries);
    const key = keyed?.keys[l];
    if (key !== undefined && keyed) state.pos = Math.min(entries - 1, Math.max(0, key - keyed.min));
    // A rescan first marks the entries the previous loop found dead (_bt_killitems): its leaf once more.
    if (state.metDead) {
      pool.access(pageId(i, leafBlock(g, Math.min(g.leafPages - 1, Math.floor(prev / perLeaf)))));
      rereads++;
    }
    state.metDead = false;
    prev = state.pos;
    const leaf = Math.min(g.leafPages - leaves, Math.floor(state.pos / perLeaf));
    for (const p of descentPages(i, g, leaf)) pool.access(p);
    for (let k = 0; k < leaves; k++) pool.access(pageId(i, leafBlock(g, leaf + k)));
    if (heap) visitLookupRows(pool, rnd, heap, state, { l, key, entries });
  }
  if (rereads)
    notes.assumptions.add(`${f.reportName}: ${rereads.toLocaleString('en-US')} rescans read the previous loop's leaf again to mark the dead entries it met`);
}

function lookupHeap(
  sim: SimulationContext,
  n: PlanNode,
  notes: PlanSimulationNotes,
  i: number,
  { loops, perLoop, known }: { loops: number; perLoop: number; known: LookupHeap['known'] },
): LookupHeap | undefined {
  const heapPerLoop = n.nodeType === 'Index Only Scan' ? (n.heapFetches ?? 0) / loops : perLoop;
  const t = sim.relationIndex('table', n.relation);
  if (t === undefined && heapPerLoop > 0) notes.unmodelled.add(`${n.nodeType} on ${n.relation}: table facts missing`);
  const live = t === undefined ? undefined : liveRows(sim.facts[t], sim.blockSize, sim.draw, notes);
  const heapOrdered = orderedShare(sim.facts[i].correlation);
  const dead = t === undefined || !live || n.nodeType === 'Index Only Scan' ? undefined : deadOf(sim, t, live, heapOrdered, notes);
  const kills = dead ? killedAfterChurn(sim, i, notes) : undefined;
  return t === undefined || !live ? undefined : { t, live, heapPerLoop, heapOrdered, dead, kills, known };
}

/** One loop's heap visits: its rows' pages (as found, or drawn by the index's correlation) and the dead versions of their keys. */
function visitLookupRows(
  pool: PostgresPool,
  rnd: SeededRandom,
  h: LookupHeap,
  s: LoopState,
  at: { l: number; key: number | undefined; entries: number },
): void {
  const { t, live, dead, kills, known } = h;
  s.heapDue += h.heapPerLoop;
  let last = -1;
  for (; s.heapDue >= 1; s.heapDue--) {
    const drawn =
      rnd.next() < h.heapOrdered ? live.first + Math.min(live.pages - 1, Math.floor((s.pos / at.entries) * live.pages)) : live.first + rnd.int(live.pages);
    const block = known ? known.blocks[at.l] : drawn;
    if (block !== last) pool.access(pageId(t, block));
    last = block;
    // An entry an earlier run marked dead is passed over: no heap visit, nothing for the rescan to mark.
    s.deadDue += (dead?.perRow ?? 0) * (kills ? 1 - kills.leaves.killed(at.key ?? kills.min + s.pos) : 1);
    for (; dead && s.deadDue >= 1; s.deadDue--) {
      const d = dead.block(Math.min(1, Math.max(0, (block - live.first) / Math.max(1, live.pages))), rnd, known && dead.mirrorsLive ? true : undefined);
      if (d !== last) pool.access(pageId(t, d));
      last = d;
      s.metDead = true;
    }
  }
}
