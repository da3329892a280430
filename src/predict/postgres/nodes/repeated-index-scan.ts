// An index scan started once per outer row (a nested loop's inner side).
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import type { SeededRandom } from '../../../sim/random';
import { descentPages, indexGeometry, orderedShare, pageId } from '../geometry';
import { liveRows } from '../heap-layout';
import { deadOf } from '../history/dead-versions';
import { killedAfterChurn } from '../history/churn';
import { visibilityChecks } from './visibility-map';

/**
 * An index scan started once per outer row (a nested loop's inner side): every loop descends from the
 * root, reads its leaf and pins the heap page of its first row anew, since a rescan releases the pins.
 * Where each loop's key lands follows the order the outer rows arrive in (lookup-order.ts): the next
 * entries after the previous key, or anywhere in the index. Where the first key lands is drawn.
 */
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
  const heapPerLoop = n.nodeType === 'Index Only Scan' ? (n.heapFetches ?? 0) / loops : perLoop;
  const t = sim.relationIndex('table', n.relation);
  if (t === undefined && heapPerLoop > 0) notes.unmodelled.add(`${n.nodeType} on ${n.relation}: table facts missing`);
  const live = t === undefined ? undefined : liveRows(sim.facts[t], sim.blockSize, sim.draw, notes);
  const heapOrdered = orderedShare(f.correlation);
  const dead = t === undefined || !live || n.nodeType === 'Index Only Scan' ? undefined : deadOf(sim, t, live, heapOrdered, notes);
  const kills = dead ? killedAfterChurn(sim, i, notes) : undefined;
  const rows = n.relation ? sim.observed.lookupRows[n.relation] : undefined;
  const known = rows && rows.blocks.length === loops ? rows : undefined;
  const keyed = known?.keys && f.keyRange ? { keys: known.keys, min: f.keyRange.min } : undefined;
  if (known)
    notes.assumptions.add(
      `${f.reportName}: the ${loops.toLocaleString('en-US')} lookups' ${keyed ? 'keys and ' : ''}rows' heap blocks as the loop found them (read after the last run)`,
    );
  let pos = rnd.int(Math.max(1, entries - Math.ceil(loops * order.stride)));
  let heapDue = 0;
  let deadDue = 0;
  let prev = pos;
  let metDead = false;
  let rereads = 0;
  for (let l = 0; l < loops; l++) {
    if (l > 0) pos = rnd.next() < order.ordered ? (pos + order.stride) % entries : rnd.int(entries);
    const key = keyed?.keys[l];
    if (key !== undefined && keyed) pos = Math.min(entries - 1, Math.max(0, key - keyed.min));
    // A rescan first marks the entries the previous loop found dead (_bt_killitems): its leaf once more.
    if (metDead) {
      pool.access(pageId(i, g.firstLeaf + Math.min(g.leafPages - 1, Math.floor(prev / perLeaf))));
      rereads++;
    }
    metDead = false;
    prev = pos;
    const leaf = Math.min(g.leafPages - leaves, Math.floor(pos / perLeaf));
    for (const p of descentPages(i, g, leaf)) pool.access(p);
    for (let k = 0; k < leaves; k++) pool.access(pageId(i, g.firstLeaf + leaf + k));
    if (t === undefined || !live) continue;
    heapDue += heapPerLoop;
    let last = -1;
    for (; heapDue >= 1; heapDue--) {
      const drawn =
        rnd.next() < heapOrdered ? live.first + Math.min(live.pages - 1, Math.floor((pos / entries) * live.pages)) : live.first + rnd.int(live.pages);
      const block = known ? known.blocks[l] : drawn;
      if (block !== last) pool.access(pageId(t, block));
      last = block;
      // An entry an earlier run marked dead is passed over: no heap visit, nothing for the rescan to mark.
      deadDue += (dead?.perRow ?? 0) * (kills ? 1 - kills.leaves.killed(key ?? kills.min + pos) : 1);
      for (; dead && deadDue >= 1; deadDue--) {
        const d = dead.block(Math.min(1, Math.max(0, (block - live.first) / Math.max(1, live.pages))), rnd, known && dead.mirrorsLive ? true : undefined);
        if (d !== last) pool.access(pageId(t, d));
        last = d;
        metDead = true;
      }
    }
  }
  if (rereads)
    notes.assumptions.add(`${f.reportName}: ${rereads.toLocaleString('en-US')} rescans read the previous loop's leaf again to mark the dead entries it met`);
}
