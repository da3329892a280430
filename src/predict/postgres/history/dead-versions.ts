// What the runs before this one left in the heap and its indexes: dead versions a scan meets, those a
// previous rolled-back run left, and the room a vacuumed heap offers. Rules over SimulationContext.history.
import { deadEntriesPerRow, deadVersions, liveRows, rowsPerFullPage, tableWideDead, type DeadVersions, type LiveRows } from '../heap-layout';
import type { PgRelationFacts } from '../facts';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { guess } from '../guesses';
import { PG_CALIBRATION } from '../calibration';

/**
 * The dead versions a scan of table t meets in this run (heap-layout.ts). A few percent of dead versions
 * are where earlier writes put them, often one batch's rows, a range of the key the heap follows, which
 * no statistic locates: a scan in that order (correlated) most likely meets none of them, the shown
 * draw; through an uncorrelated index the batch's rows are spread over its keys, and the shown draw
 * spreads them (measured: 3 dead entries among 50 through k, 1 spread). Half the draws take the other
 * case. A table-wide update's, a fifth of the rows or more, are everywhere.
 */
export function deadOf(sim: SimulationContext, t: number, live: LiveRows, ordered: number, notes: PlanSimulationNotes): DeadVersions | undefined {
  const f = sim.facts[t];
  const located = tableWideDead(f);
  // Where the dead entries under a correlated scan's keys were counted after the runs, they replace the guess.
  const countedAfter = ordered > PG_CALIBRATION.blockOrder && sim.observed.deadEntries[f.planName] !== undefined;
  const spread = ordered < PG_CALIBRATION.spreadBelow === (guess(sim.draw, 'deadSpread') === 0) && !countedAfter;
  // A write's later runs pass over the dead entries its run 1 marked as it checked uniqueness (modify).
  const counted =
    skipsMarked(sim) || (sim.history.writes && sim.history.runsDone > 0) || markedSinceUpdate(sim, f) || (!located && !spread) ? 0 : deadEntriesPerRow(f);
  const leftAt = sim.history.leftoverPlace.get(t);
  return deadVersions(f, live, ordered, { counted, left: leftoversOf(sim, t), ...(leftAt ? { leftAt } : {}) }, notes);
}

/**
 * Where a vacuumed heap has room: its live rows packed after the pages a VACUUM emptied (heap-layout.ts),
 * with a free-space map to offer those pages, taken in block order and, run after run, the ones after.
 */
export function freeSpaceOf(sim: SimulationContext, t: number): { block: (k: number) => number; perBlock: number } | undefined {
  const f = sim.facts[t];
  const perBlock = rowsPerFullPage(f, sim.blockSize);
  if (!perBlock || (f.fsmPages ?? 0) === 0 || tableWideDead(f)) return undefined;
  const live = liveRows(f, sim.blockSize, sim.draw, { assumptions: new Set(), unmodelled: new Set() });
  if (live.first <= 0) return undefined;
  const start = sim.history.freeUsed.get(t) ?? 0;
  return { block: (k) => (start + k) % live.first, perBlock };
}

/**
 * Dead versions per row a write's run 1 checks under its keys (its scan meets them alike: deadOf). After a
 * table-wide update, all of them where no scan met these keys since; whether one did (and marked the plain
 * entries, leaving the posting lists' few) no view shows, so half the draws take none (pgbench check: a
 * range update measured after a count over its keys, 14,527-16,595 logical reads on run 1, 20,160
 * predicted, 14,159 with none).
 */
export function deadMetByWrite(sim: SimulationContext, t: number, notes: PlanSimulationNotes): number {
  const f = sim.facts[t];
  if (!tableWideDead(f)) return deadEntriesPerRow(f);
  notes.assumptions.add(
    `${f.reportName}: whether a scan since the table-wide update marked the dead entries under these keys no view shows: the prediction takes none ` +
    `marked, the range also all of them`,
  );
  return markedSinceUpdate(sim, f) ? 0 : deadEntriesPerRow(f);
}

/** Whether this draw takes a write's run 1 as meeting a table-wide update's dead entries marked by a scan since. */
export function markedSinceUpdate(sim: SimulationContext, f: PgRelationFacts): boolean {
  return sim.history.writes && sim.history.runsDone === 0 && tableWideDead(f) && guess(sim.draw, 'markedSinceUpdate') === 1;
}

/** The pages of table t whose all-visible bit an earlier run's update cleared, shared with the next run's replay. */
export function clearedOf(sim: SimulationContext, t: number): Set<number> {
  const pages = sim.history.clearedPages.get(t) ?? new Set<number>();
  sim.history.clearedPages.set(t, pages);
  return pages;
}

/** Draws that take the dead entries a previous run met as already marked dead (see heap-layout.ts). */
function skipsMarked(sim: SimulationContext): boolean {
  return sim.history.runsDone > 0 && guess(sim.draw, 'marksSkipped') === 1;
}

/** Per row, the rolled-back versions the previous run left under the same keys, where this draw meets them. */
export function leftoversOf(sim: SimulationContext, t: number): number {
  return sim.history.runsDone > 0 && !skipsMarked(sim) ? (sim.history.leftovers.get(t) ?? 0) : 0;
}
