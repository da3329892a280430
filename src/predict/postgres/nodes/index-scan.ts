// A single index scan (or index-only scan): its leaves, then the heap pages of its entries in the order the
// heap's history gives them (index-scan-route.ts), walked with the dead versions, moved rows and far
// entries it meets on the way (index-scan-walk.ts).
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SeededRandom } from '../../../sim/random';
import { orderedShare } from '../geometry';
import { liveRows, notAllVisible, outOfOrder, rowsPerFullPage } from '../heap-layout';
import { deadOf } from '../history/dead-versions';
import { findUpdatedEarlier, killedAfterChurn, movedRanks, secondaryKills } from '../history/churn';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { denseStart, indexLeaves } from './index-leaves';
import { repeatedIndexScan } from './repeated-index-scan';
import { visibilityChecks } from './visibility-map';
import { fetchedAsRead, fetchedKnown } from './index-only-fetches';
import { heapRoute } from './index-scan-route';
import type { ScanBase } from './index-scan-types';
import { walkHeap } from './index-scan-walk';
import { PG_CALIBRATION } from '../calibration';
import type { PgRelationFacts } from '../facts';

export function indexScan(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom): void {
  if (!n.parallelAware && (n.actualLoops ?? 1) > 1) return repeatedIndexScan(sim, pool, n, notes, rnd);
  const tuples = ((n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0)) * Math.max(1, n.actualLoops ?? 1);
  indexLeaves(sim, pool, n, notes, rnd, tuples);
  // One loop from here on: a parallel scan's participants share one walk, so its heap visits follow one
  // position too, and a scan started once per outer row went to repeatedIndexScan.
  if (n.nodeType === 'Index Only Scan') visibilityChecks(sim, pool, n, notes, tuples, 1);
  const heapTuples = n.nodeType === 'Index Only Scan' ? (n.heapFetches ?? 0) : tuples;
  if (heapTuples === 0) return;
  const t = sim.relationIndex('table', n.relation);
  if (t === undefined) return void notes.unmodelled.add(`${n.nodeType} on ${n.relation}: table facts missing`);
  const fetched = fetchedKnown(sim, n);
  if (fetched) return fetchedAsRead(sim, pool, n, notes, t, fetched);
  const idx = sim.relationIndex('index', n.index);
  const base = { ...scanBase(sim, n, notes, { t, tuples, heapTuples }), rowsPerKey: idx === undefined ? 1 : entriesPerKey(sim.facts[idx]) };
  walkHeap(sim, pool, rnd, base, heapRoute(sim, pool, notes, base));
}

function scanBase(
  sim: SimulationContext,
  n: PlanNode,
  notes: PlanSimulationNotes,
  s: { t: number; tuples: number; heapTuples: number },
): Omit<ScanBase, 'rowsPerKey'> {
  const { t, tuples, heapTuples } = s;
  const idx = sim.relationIndex('index', n.index);
  const f = sim.facts[t];
  const c = idx === undefined ? null : (sim.facts[idx].correlation ?? null);
  const ordered = orderedShare(c);
  const order =
    ordered > PG_CALIBRATION.blockOrder
      ? 'in block order'
      : ordered < PG_CALIBRATION.randomOrder
        ? 'in random order'
        : `${Math.round(ordered * 100)} % in block order`;
  notes.assumptions.add(`${f.reportName}: correlation ${c === null ? 'unknown (no statistics)' : c.toFixed(2)} → heap visited ${order}`);
  const live = liveRows(f, sim.blockSize, sim.draw, notes);
  const dead = deadOf(sim, t, live, ordered, notes);
  // Which keys an earlier run marked dead, and the key the scan starts at, where both are known.
  const kills = dead && idx !== undefined ? killedAfterChurn(sim, idx, notes) : undefined;
  const alone = dead && !kills && idx !== undefined && n.nodeType === 'Index Scan' ? secondaryKills(sim, idx, t, tuples, notes) : undefined;
  const first = idx !== undefined ? denseStart(sim, idx, n) : undefined;
  const indexOnly = n.nodeType === 'Index Only Scan';
  // An index-only scan's heap fetches count the dead versions' entries as well: with the marked ones
  // known, every row is fetched (no page of a table-wide update's heap is all-visible) and the rest are dead.
  const liveVisits = indexOnly && dead ? (kills ? Math.min(tuples, heapTuples) : heapTuples / (1 + dead.perRow)) : heapTuples;
  const unsettled =
    indexOnly && ordered < PG_CALIBRATION.blockOrder ? notAllVisible(sim.facts[t], t, live, tuples, heapTuples, sim.draw, notes, sim.dirty.get(t)) : undefined;
  // A correlated scan starts where its first key lies along the live rows, where the keys are dense.
  const position = live.first + (first && ordered > PG_CALIBRATION.blockOrder ? first.fraction * live.pages : 0);
  const start = kills ? first?.key : undefined;
  // An index-only scan whose every row went to the heap (no page all-visible) visits the rows' blocks too.
  const visitsRows = n.nodeType === 'Index Scan' || (indexOnly && heapTuples >= tuples);
  // A write's rows are its live ones: where the scan also meets a table-wide update's dead versions, or
  // dead entries counted under its keys after the runs, the dead-version model walks them instead. The
  // previous run's rolled-back versions are met beside them (measured: a jittered date's rows, 1,403 on 444
  // pages, one request each on every run; runs 2-3 had been taken in block order, 3,076 predicted for 4,335).
  const deadUnder = n.relation !== undefined && (sim.observed.writeDeadEntries[n.relation]?.dead ?? 0) > 0;
  const written = dead?.mirrorsLive || deadUnder ? undefined : writtenInScanOrder(sim, n);
  const known = visitsRows && n.relation ? (sim.observed.heapBlocks[n.relation] ?? written) : undefined;
  if (kills && start !== undefined && !n.backward) {
    // Which rows an update moved before the table-wide one: from the rows' heap blocks where an index scan's
    // are read, else from the rows an index-only scan's heap fetches moved (read after the last run too).
    const earlier = known ? outOfOrder(known) : movedRanks(sim, n.relation);
    if (earlier) findUpdatedEarlier(sim, kills.leaves, earlier, start, notes, f.reportName);
  }
  const keyMin = idx !== undefined ? sim.facts[idx].keyRange?.min : undefined;
  const capacity = rowsPerFullPage(f, sim.blockSize);
  const base = { n, t, f, indexOnly, tuples, heapTuples, ordered, live, dead, kills, alone, first, start, liveVisits, unsettled, position, known, capacity };
  return { ...base, loadOrder: loadOrderOf(base, keyMin, notes) };
}

/**
 * After a table-wide update of a heap loaded in key order, a row's dead version is where the load put
 * it (the key's rank over the rows a full page holds), but for rows an earlier update had moved (their
 * live block out of the update's order), whose dead version is where that update put it.
 */
function loadOrderOf(b: Omit<ScanBase, 'loadOrder' | 'rowsPerKey'>, keyMin: number | undefined, notes: PlanSimulationNotes): ScanBase['loadOrder'] {
  const { known, dead, first, capacity, ordered, live, f } = b;
  const loadOrder =
    dead?.mirrorsLive && known && first && keyMin !== undefined && capacity && ordered > PG_CALIBRATION.loadOrder && live.first > 0
      ? { min: keyMin, capacity, moved: outOfOrder(known) }
      : undefined;
  if (loadOrder) {
    notes.assumptions.add(
      `${f.reportName}: the heap was loaded in key order, ${loadOrder.capacity} rows a page: a row's dead version is where the load put it, ` +
        'but for rows an earlier update had moved (live block out of order)',
    );
  }
  if (known) {
    // A version an update appended lies where the update's scan met the one before it, so the dead
    // version sits as far along the dead ones as its live row, found or moved, is along the live ones.
    const mirrored =
      dead && !loadOrder ? '; each dead version as far along the dead ones as its live row is along the live ones, a row an earlier update moved included' : '';
    notes.assumptions.add(
      `${f.reportName}: the ${known.length.toLocaleString('en-US')} rows' heap blocks as the scan found them (read after the last run), ` +
      `${new Set(known).size.toLocaleString('en-US')} blocks${mirrored}`,
    );
  }
  return loadOrder;
}

/**
 * The blocks of the rows a write's index scan returned, read after the runs in the scan's order: they are
 * the rows it visited where no filter dropped any (written-rows.ts).
 */
function writtenInScanOrder(sim: SimulationContext, n: PlanNode): number[] | undefined {
  const blocks = n.relation ? sim.observed.writtenBlocks[n.relation] : undefined;
  const rows = (n.actualRows ?? 0) * Math.max(1, n.actualLoops ?? 1);
  return blocks && n.nodeType === 'Index Scan' && (n.rowsRemovedByFilter ?? 0) === 0 && blocks.length === rows ? blocks : undefined;
}

/**
 * Entries under one key of a one-column index, from its distinct values (pg_stats): B-tree entries of one key
 * are in heap order (the heap TID breaks ties, PostgreSQL 12 on), so a key's dead versions are met apart from
 * its live rows, not between them. 1 for a key of more columns, or none counted.
 */
function entriesPerKey(x: PgRelationFacts): number {
  if (x.keyColumns !== 1 || !x.leadingDistinct || x.tuples <= 0) return 1;
  return Math.max(1, Math.round(x.tuples / x.leadingDistinct));
}
