// The index pages a scan reads: the descent from the root and the leaves holding its entries, placed where
// its first key lies when the keys are dense, or as a table-wide update churned them.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SeededRandom } from '../../../sim/random';
import { descentPages, indexGeometry, leafBlock, pageId } from '../geometry';
import { arrayKeyCount, arrayKeys, firstKey, leadingUnbounded } from '../key-bounds';
import { keyOrderChurn } from '../version-churn';
import { churnOf, startOfDraw, sum } from '../history/churn';
import { splitByEarlier } from '../history/earlier-writes';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { guess } from '../guesses';
import { PG_CALIBRATION } from '../calibration';
import { ARRAY_KEYS_ON_LEAF_FROM, SKIP_SCAN_FROM } from '../layout-constants';
import { startFractionKey, type PgRelationFacts } from '../facts';

/** Descent from the root and the leaf pages holding `tuples` index entries, per loop. Returns per-loop tuples. */
export function indexLeaves(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom, totalTuples: number): void {
  const i = sim.relationIndex('index', n.index);
  if (i === undefined) return void notes.unmodelled.add(`${n.nodeType} using ${n.index}: index facts missing`);
  const f = sim.facts[i];
  const g = indexGeometry(f);
  // A parallel B-tree scan hands out leaf pages from one shared position: its participants (its loops)
  // walk the leaves once between them, after one descent.
  const loops = n.parallelAware ? 1 : Math.max(1, n.actualLoops ?? 1);
  if (n.parallelAware)
    notes.assumptions.add(`${f.reportName}: a parallel scan's ${Math.max(1, n.actualLoops ?? 1)} participants take leaf pages from one shared position`);
  const perLeaf = f.tuples > 0 ? f.tuples / g.leafPages : 1;
  const perLoop = totalTuples / loops;
  if (leadingUnbounded(n.indexCond, f.columns?.[0])) return everyLeaf(sim, pool, i, n, loops, notes);
  if (loops === 1 && !n.parallelAware && arrayScan(sim, pool, i, n, rnd, notes)) return;
  const placed = loops === 1 && !n.parallelAware ? keyPlacedLeaves(sim, i, n, perLoop) : undefined;
  // Where a table-wide update split the leaves unevenly, the replay over the scanned rows counts them.
  const churn = loops === 1 && !n.parallelAware && !placed && !n.backward ? churnOf(sim, i, perLoop, notes) : undefined;
  const replayed = churn
    ? sim.draw === 0
      ? Math.round(sum(churn.leaves) / churn.leaves.length)
      : churn.leaves[startOfDraw(sim, churn.leaves.length)]
    : undefined;
  const leaves = placed?.leaves ?? replayed ?? Math.min(g.leafPages, Math.max(1, Math.ceil(perLoop / perLeaf)));
  notes.assumptions.add(
    `${f.reportName}: B-tree of ${g.height} level(s), ~${Math.round(perLeaf)} entries per leaf; ${leaves} leaf page(s) per scan` +
      (placed
        ? `, from leaf ${placed.start.toLocaleString('en-US')}, where its first key lies as the keys were loaded` +
          (placed.split ? ' and a table-wide update in key order split each leaf' : '')
        : '') +
      (churn
        ? ', as the table-wide update, replayed over the rows around the scan (read after the last run), left them ' +
          `(${Math.min(...churn.leaves)}–${Math.max(...churn.leaves)} from ${churn.leaves.length} places of a leaf's start)`
        : ''),
  );
  // A single scan whose first key is known and the keys dense (key-range.ts), on leaves laid out otherwise,
  // starts as far along the leaves as its key is along the keys; else at the first.
  const fraction = loops === 1 && !placed ? startFraction(sim, i, n, notes) : undefined;
  const along = fraction !== undefined ? Math.min(g.leafPages - 1, Math.floor(fraction * g.leafPages)) : 0;
  const single = Math.max(0, Math.min(g.leafPages - leaves, n.backward ? along - leaves + 1 : along));
  const loopStart = loops > 1 ? loopStarts(sim, n, f, g.leafPages, leaves, loops, rnd, notes) : undefined;
  for (let l = 0; l < loops; l++) {
    const start = placed ? placed.start : loopStart ? loopStart() : single;
    for (const p of descentPages(i, g, start)) pool.access(p);
    const walked = [...deadEndWalk(n, f, g.leafPages, loops, notes), ...Array.from({ length: leaves }, (_, k) => start + k)];
    for (const leaf of walked) pool.access(pageId(i, leafBlock(g, leaf)));
    if (loops === 1) for (const k of leavesMarkedNow(sim, n, leaves, notes, f.reportName)) pool.access(pageId(i, leafBlock(g, start + k)));
    if (loops === 1) for (const p of splitByEarlier(sim, i, leaves, notes)) pool.access(p);
  }
}

/**
 * A scan whose condition leaves the leading column free. Before PostgreSQL 18, per loop a descent to the
 * first leaf (the last, backward) and every leaf after it. PostgreSQL 18 skips from one leading value to
 * the next (skip scan) where a value's entries span a leaf or more, descending again for each (EXPLAIN's
 * Index Searches, spread evenly over the leaves); where values are fewer than a leaf apart it walks on.
 * Measured on PostgreSQL 18, 200,000 rows: 10 and 200 leading values, 12 and 202 searches, 50 and 642
 * pages; 2,000 values (0.6 leaves each), 5 searches and every leaf.
 */
function everyLeaf(sim: SimulationContext, pool: PostgresPool, i: number, n: PlanNode, loops: number, notes: PlanSimulationNotes): void {
  const f = sim.facts[i];
  const g = indexGeometry(f);
  const searches = n.indexSearches ?? 0;
  const values = f.leadingDistinct ?? 0;
  if (sim.engine.major >= SKIP_SCAN_FROM && loops === 1 && searches > 1 && values > 0 && g.leafPages / values >= 1) {
    const next = guess(sim.draw, 'skipNextLeaf') === 1;
    for (let k = 0; k < searches; k++) {
      const leaf = Math.min(g.leafPages - 1, Math.floor(((k + 0.5) / searches) * g.leafPages));
      for (const p of descentPages(i, g, leaf)) pool.access(p);
      pool.access(pageId(i, leafBlock(g, leaf)));
      if (next && leaf + 1 < g.leafPages) pool.access(pageId(i, leafBlock(g, leaf + 1)));
    }
    return void notes.assumptions.add(
      `${f.reportName}: the condition leaves the index's leading column free; a skip scan over its ~${values.toLocaleString('en-US')} values, ` +
      `${searches.toLocaleString('en-US')} descents as the server counted them, each to ${next ? 'a leaf and the next' : 'one leaf'} (the range also ` +
      `takes ${next ? 'one' : 'the next'})`,
    );
  }
  const backward = n.backward === true;
  notes.assumptions.add(
    `${f.reportName}: the condition leaves the index's leading column free, so each scan walks all ${g.leafPages.toLocaleString('en-US')} leaves from ` +
    `the ${backward ? 'last' : 'first'}, testing every entry`,
  );
  const start = backward ? g.leafPages - 1 : 0;
  for (let l = 0; l < loops; l++) {
    for (const p of descentPages(i, g, start)) pool.access(p);
    for (let k = 0; k < g.leafPages; k++) pool.access(pageId(i, leafBlock(g, backward ? start - k : k)));
  }
}

/**
 * Where each loop of a bitmap index scan on a nested loop's inner side starts: the keys follow the order the
 * outer rows arrive in (lookup-order.ts), each after the previous one where they arrive in key order, else
 * anywhere in the index. The first is drawn.
 */
function loopStarts(
  sim: SimulationContext,
  n: PlanNode,
  f: PgRelationFacts,
  leafPages: number,
  leaves: number,
  loops: number,
  rnd: SeededRandom,
  notes: PlanSimulationNotes,
): () => number {
  const order = sim.lookupOrders.get(n);
  if (!order) return () => rnd.int(Math.max(1, leafPages - leaves + 1));
  notes.assumptions.add(`${f.reportName}: ${loops.toLocaleString('en-US')} lookups, ${order.why}`);
  const entries = Math.max(1, f.tuples);
  const perLeaf = f.tuples > 0 ? f.tuples / leafPages : 1;
  let pos = rnd.int(Math.max(1, entries - Math.ceil(loops * order.stride)));
  let first = true;
  return () => {
    if (!first) pos = rnd.next() < order.ordered ? (pos + order.stride) % entries : rnd.int(entries);
    first = false;
    return Math.max(0, Math.min(leafPages - leaves, Math.floor(pos / perLeaf)));
  };
}

/** A single scan over `= ANY (array)` of two keys or more, replayed (true) or not one (false). */
function arrayScan(sim: SimulationContext, pool: PostgresPool, i: number, n: PlanNode, rnd: SeededRandom, notes: PlanSimulationNotes): boolean {
  const column = sim.facts[i].columns?.[0] ?? undefined;
  const array = arrayKeys(n.indexCond, column);
  if (array && array.length > 1) {
    arrayScanLeaves(sim, pool, i, array, notes, true);
    return true;
  }
  const count = array ? undefined : arrayKeyCount(n.indexCond, column);
  if (count === undefined || count < 2) return false;
  const draws = Array.from({ length: count }, () => rnd.next()).sort((a, b) => a - b);
  arrayScanLeaves(sim, pool, i, draws, notes, false);
  return true;
}

/**
 * An index scan over `= ANY (array)`: one primitive scan per key, each a descent from the root to the leaf
 * holding it; from PostgreSQL 17 a key on the leaf in hand is read there, without another descent. A key's
 * leaf is as far along the leaves as the key along the keys, where they run densely (key-range.ts); else the
 * keys are taken as spread evenly over the leaves; keys that are not whole numbers (`byValue` false: UUIDs,
 * text) come as draws, so that two may share a leaf as random keys do.
 */
function arrayScanLeaves(sim: SimulationContext, pool: PostgresPool, i: number, keys: number[], notes: PlanSimulationNotes, byValue: boolean): void {
  const f = sim.facts[i];
  const g = indexGeometry(f);
  const range = f.keyRange;
  const span = range ? range.max - range.min + 1 : 0;
  const dense = byValue && range !== undefined && Math.abs(span - f.tuples) <= PG_CALIBRATION.denseKeys * span;
  // Keys placed by value where dense; spread evenly where not; keys of another type come as draws in [0, 1).
  const along = (key: number, k: number) => (dense ? (key - range!.min) / span : byValue ? (k + 0.5) / keys.length : key);
  const leafOf = (key: number, k: number) => Math.min(g.leafPages - 1, Math.max(0, Math.floor(along(key, k) * g.leafPages)));
  const onLeaf = sim.engine.major >= ARRAY_KEYS_ON_LEAF_FROM;
  let held = -1;
  let descents = 0;
  keys.forEach((key, k) => {
    const leaf = leafOf(key, k);
    if (onLeaf && leaf === held) return;
    for (const p of descentPages(i, g, leaf)) pool.access(p);
    pool.access(pageId(i, leafBlock(g, leaf)));
    held = leaf;
    descents++;
  });
  notes.assumptions.add(
    `${f.reportName}: = ANY over ${keys.length.toLocaleString('en-US')} keys, ` +
      (onLeaf
        ? 'a descent to each leaf that holds some (PostgreSQL 17+ reads the next key on the leaf in hand)'
        : 'a descent from the root for each (before PostgreSQL 17)') +
      `: ${descents.toLocaleString('en-US')} descents of ${g.height} level(s), keys placed ` +
      (dense ? 'as far along the leaves as along the keys' : byValue ? 'evenly over the leaves' : 'at random over the leaves (their values are not numbers)'),
  );
}

/**
 * A plain index scan that meets the old versions' entries of rows an update moved, dead to every
 * snapshot, marks them dead for later scans (_bt_killitems), reading each leaf again to do it, its pin
 * having been dropped. The first scan after the updates does; whether one already has before run 1 no
 * view shows: the shown draw takes run 1 as the first, half the others as not. Measured on PostgreSQL 15
 * (pgbench, a hash join over 40,000 accounts after 24,000 updates): 1,400 on run 1, 1,291 after, 109
 * leaves.
 */
function leavesMarkedNow(sim: SimulationContext, n: PlanNode, leaves: number, notes: PlanSimulationNotes, indexName: string): number[] {
  const moved = n.relation ? sim.observed.movedRows[n.relation] : undefined;
  if (
    n.nodeType !== 'Index Scan' ||
    sim.history.runsDone > 0 ||
    sim.history.writes ||
    guess(sim.draw, 'leavesMarkedBefore') === 1 ||
    !moved ||
    moved.blocks.length === 0 ||
    moved.scanned <= 0
  )
    return [];
  const marked = [...new Set(moved.ranks.map((r) => Math.min(leaves - 1, Math.floor(((r - 1) / moved.scanned) * leaves))))];
  notes.assumptions.add(
    `${indexName}: run 1 marks the old entries of the rows an update moved dead, reading again the ${marked.length.toLocaleString('en-US')} leaves that ` +
    `hold them (taken as the first scan to meet them since the updates; the range also takes an earlier one to have)`,
  );
  return marked;
}

/**
 * The leaves a single scan of a one-column integer index walks, from where its first key lies: where the
 * keys run densely from the index's first to its last (key-range.ts) and the leaves hold as many keys each
 * as a load in key order leaves them (90 % full), key min + j × that count starts loaded leaf j; where a
 * table-wide update in key order split each loaded leaf (as many leaves as its replay gives, vacuumed
 * since or not), the leaves within one start where the replay's splits put them (version-churn.ts).
 * Elsewhere (leaves split by other inserts and updates) undefined.
 */
function keyPlacedLeaves(sim: SimulationContext, i: number, n: PlanNode, rows: number): { start: number; leaves: number; split: boolean } | undefined {
  const f = sim.facts[i];
  const first = denseStart(sim, i, n);
  if (!first || !f.keyRange || !f.keyBytes) return undefined;
  const keys = f.keyRange.max - f.keyRange.min + 1;
  const g = indexGeometry(f);
  const churn = keyOrderChurn(f.keyBytes);
  const loaded = churn.keysPerLeaf;
  // As loaded (one leaf per loaded leaf), or as a table-wide update in key order split each (vacuumed since or not).
  const layouts = [[0], churn.pageStarts];
  const starts = layouts.find((s) => Math.abs((keys * s.length) / g.leafPages - loaded) <= PG_CALIBRATION.loadedLeaves * loaded);
  if (!starts) return undefined;
  const pageOf = (rank: number) => {
    const r = Math.min(keys - 1, Math.max(0, rank));
    const within = r % loaded;
    let k = 0;
    while (k + 1 < starts.length && starts[k + 1] <= within) k++;
    return Math.min(g.leafPages - 1, Math.floor(r / loaded) * starts.length + k);
  };
  const rank = first.key - f.keyRange.min;
  const span = Math.max(1, Math.round(rows)) - 1;
  const [a, b] = [pageOf(rank), pageOf(n.backward ? rank - span : rank + span)];
  return { start: Math.min(a, b), leaves: Math.abs(b - a) + 1, split: starts.length > 1 };
}

/**
 * The leaves of dead entries a scan from an end of the index walks before its first live entry: a
 * rolled-back write's new keys lie past the live ones (new dates, new codes), each leaf of them a request
 * however many of its entries an earlier scan marked dead. Counted by descents after the last run
 * (index-height.ts), for a single scan with no index condition, which starts at the end its direction gives.
 */
function deadEndWalk(n: PlanNode, f: PgRelationFacts, leafPages: number, loops: number, notes: PlanSimulationNotes): number[] {
  const dead = f.deadEndLeaves;
  const count = dead && loops === 1 && !n.indexCond ? Math.min(leafPages, n.backward ? dead.last : dead.first) : 0;
  if (count <= 0) return [];
  notes.assumptions.add(
    `${f.reportName}: ${count.toLocaleString('en-US')} leaf page(s) of dead entries past its ${n.backward ? 'last' : 'first'} live key ` +
      "(a rolled-back write's new keys), walked before the first live entry, as descents after the last run counted them; " +
      'taken as marked dead by an earlier scan (one that met them first also fetches each version)',
  );
  return Array.from({ length: count }, (_, k) => (n.backward ? leafPages - 1 - k : k));
}

/**
 * The key a single scan of index i starts at, and how far along the keys it lies, where the keys run
 * densely from the index's first to its last (one per row: key-range.ts) and the index condition or the
 * scan's direction gives it.
 */
export function denseStart(sim: SimulationContext, i: number, n: PlanNode): { key: number; fraction: number } | undefined {
  const f = sim.facts[i];
  const column = f.columns?.[0];
  if (!f.keyRange || !column) return undefined;
  const { min, max } = f.keyRange;
  const keys = max - min + 1;
  if (Math.abs(keys - f.tuples) > PG_CALIBRATION.denseKeys * keys) return undefined;
  const key = firstKey(n.indexCond, column, n.backward === true) ?? (n.backward ? max : min);
  return key < min || key > max ? undefined : { key, fraction: (key - min) / keys };
}

/**
 * How far along the keys a single scan starts: where its first key lies among dense keys, else where the
 * column's statistics put it (key-fraction.ts), where they were read; undefined: at the first leaf.
 */
function startFraction(sim: SimulationContext, i: number, n: PlanNode, notes: PlanSimulationNotes): number | undefined {
  const dense = denseStart(sim, i, n);
  if (dense) return dense.fraction;
  const stats = n.index && n.indexCond ? sim.observed.startFractions[startFractionKey(n.index, n.indexCond)] : undefined;
  if (stats !== undefined) {
    notes.assumptions.add(
      `${sim.facts[i].reportName}: the scan starts ${Math.round(stats * 100)} % along the leaves, where the column's statistics put its first key ` +
      `(pg_stats, read after the last run)`,
    );
  }
  return stats;
}
