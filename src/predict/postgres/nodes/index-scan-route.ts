// Where a single index scan's heap visits go besides its live rows: rows an update moved (out to the new
// version and back), dead entries no scan can mark (out to a far block and back), the pages an index-only
// scan fetches from, and how many dead versions each entry leads to.
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import { pageId } from '../geometry';
import { earlierBlocks, earlierUnderWrite } from '../history/earlier-writes';
import { fitPlainShare, unmarkedAsCounted } from '../history/churn';
import type { PgDeadEntries, PgMovedRows } from '../facts';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import type { HeapRoute, ScanBase } from './index-scan-types';
import { guess, PG_GUESSES } from '../guesses';
import { PG_CALIBRATION } from '../calibration';
import { DEAD_PER_KEY_TURNS, GOLDEN_FRACTION } from '../guesses';

export function heapRoute(sim: SimulationContext, pool: PostgresPool, notes: PlanSimulationNotes, b: ScanBase): HeapRoute {
  const { n, t, f, indexOnly, known, dead, ordered, liveVisits, heapTuples } = b;
  // Rows an update moved among those the scan visits, where read after the runs: they are the rows out of
  // key order, so the others are visited in block order (not a random share for a correlation below 1),
  // and where dead versions mirror the live ones (a table-wide update's, under a correlated scan), each of
  // theirs as far along the old pages.
  const moved = !known && n.relation && (!dead || (dead.mirrorsLive && ordered > PG_CALIBRATION.blockOrder)) ? sim.observed.movedRows[n.relation] : undefined;
  const jumps = moved ? Math.min(moved.blocks.length, Math.floor(liveVisits / 2)) : 0;
  if (moved && jumps > 0) {
    notes.assumptions.add(
      `${f.reportName}: ${moved.blocks.length.toLocaleString('en-US')} of the ${moved.scanned.toLocaleString('en-US')} rows scanned were moved by an update, ` +
        `out of key order (read after the last run): each ${indexOnly ? 'fetch' : 'visit'} goes out to the moved version's page and back` +
        (indexOnly ? ', and to the visibility-map page and back where another covers it' : ''),
    );
  }
  // Dead entries every run meets, counted after the runs, where no other model of dead versions applies
  // and the scan walks the heap in key order (out to each and back to its neighbours' page): an index-only
  // scan's heap fetches include them, an index scan's rows do not.
  const inKeyOrder = !known && !dead && ordered > PG_CALIBRATION.blockOrder && n.relation;
  const counted = inKeyOrder ? sim.observed.deadEntries[n.relation!] : undefined;
  const earlier = !counted && inKeyOrder ? earlierUnderWrite(sim, t, notes) : undefined;
  const far = counted ?? earlier;
  // An index-only scan that fetched more than the last run met entries it marked dead on the way (plain
  // ones): the old entries of the rows an update moved, beside the live rows (no trip), and the rest far.
  const movedOld = n.relation ? (sim.observed.movedRows[n.relation]?.blocks.length ?? 0) : 0;
  const marked = far && indexOnly && far.lastFetches !== undefined ? Math.max(0, heapTuples - far.lastFetches - movedOld) : 0;
  const trips = far && far.farBlocks > 0 ? Math.min(far.dead + marked, indexOnly ? Math.max(0, liveVisits - jumps) : far.dead) : 0;
  if (far && !earlier && trips > 0) noteFarEntries(notes, b, far, marked);
  const visits = liveVisits - jumps - (indexOnly ? trips : 0);
  const vmOf = (block: number) => sim.vmPageOf(t, block);
  const outAndBack = (block: number, ...away: number[]) => {
    // An index-only scan asks the visibility map about every page, keeping one map page pinned.
    let [page, map] = [block, vmOf(block)];
    for (const next of [...away, block]) {
      if (next !== page) pool.access(pageId(t, next));
      if (indexOnly && vmOf(next) !== map) pool.access(vmOf(next));
      [page, map] = [next, vmOf(next)];
    }
  };
  // Whether a key holds one dead entry or several (a posting list's versions follow one another, each out
  // to its own page, one way back) no view shows: three rolled-back runs leave one to three a posting list.
  // Odd draws take two a key, the other draws of the range one, the shown draw one, one and two by turns.
  // Measured (PostgreSQL 15, index-only counts over such keys, requests per dead entry): 1.84 on runs 2-3
  // of a 60,000-key count meeting 1,029 (one a key: 2, two: 1.5, these turns: 1.75); on pgbench scale 20,
  // with the visibility map's second page out and back too, 3.0-3.1 for 1,530 (4, 2.5, 3.25).
  const perKeyGuess = guess(sim.draw, 'deadPerKey');
  const perKey = (key: number) => (perKeyGuess === 0 ? DEAD_PER_KEY_TURNS[key % DEAD_PER_KEY_TURNS.length] : perKeyGuess);
  const earlierAt = earlier ? earlierBlocks(sim, f, earlier) : undefined;
  const farBlock = (j: number) => (earlierAt ? earlierAt(j) : f.pages - 1 - (j % Math.max(1, far?.farBlocks ?? 1)));
  const partial = fetchedPart(sim, notes, b, visits);
  const twice = movedTwice(notes, b, moved);
  const unmarked = unmarkedPerEntry(sim, notes, b, visits);
  return { moved, jumps, far, trips, visits, perKey, farBlock, partial, twice, unmarked, outAndBack, vmOf };
}

function noteFarEntries(notes: PlanSimulationNotes, b: ScanBase, far: PgDeadEntries, marked: number): void {
  const more = marked > 0 ? `, and ${marked.toLocaleString('en-US')} more this run marks (its heap fetches beyond the last run's)` : '';
  notes.assumptions.add(
    `${b.f.reportName}: ${far.dead.toLocaleString('en-US')} dead entries under the scan's keys that no scan can mark (a posting list's, beside a live ` +
    `version)${more}, ` +
      `on ${far.farBlocks.toLocaleString('en-US')} blocks beyond the live rows' (counted after the last run by a bitmap scan of the same condition): ` +
      `each run goes out to one and back${b.indexOnly ? ', and to its visibility-map page and back where another covers it' : ''}; ` +
      "which keys they lie under no view shows: taken evenly over the scan, one a key (the range also takes two), on the table's last blocks " +
      '(where a rolled-back write appends its versions)',
  );
}

function fetchedPart(sim: SimulationContext, notes: PlanSimulationNotes, b: ScanBase, visits: number): number[] | undefined {
  const { indexOnly, ordered, known, dead, unsettled, heapTuples, tuples, live } = b;
  const inOrder = ordered > PG_CALIBRATION.blockOrder;
  if (!(indexOnly && inOrder && !known && !dead && !unsettled && heapTuples < PG_CALIBRATION.partialFetch * tuples)) return undefined;
  return fetchedInRange(sim, b.t, b.position, tuples / live.perPage, Math.ceil(visits / live.perPage), b.n.backward === true, notes);
}

/**
 * Where the dead versions mirror the live ones (a table-wide update's), a moved row is one of two kinds.
 * On an old page (before the live ones): that update found room there, left by pruning, and was HOT, its
 * dead version beside the live one with no index entry of its own. Past them: an earlier update had
 * moved the row to the heap's end before the table-wide update appended after it, so the earlier version
 * has an entry too, on the pages between the rows as loaded and the live ones (where on them is drawn, the
 * same page for the same row in every run).
 */
function movedTwice(notes: PlanSimulationNotes, b: ScanBase, moved: PgMovedRows | undefined): HeapRoute['twice'] {
  const { dead, capacity, f, live } = b;
  const loadedPages = dead?.mirrorsLive && moved && capacity ? Math.ceil(f.tuples / capacity) : undefined;
  const twice = loadedPages !== undefined && live.first - loadedPages >= 1 ? { first: loadedPages, pages: live.first - loadedPages } : undefined;
  if (loadedPages !== undefined) {
    notes.assumptions.add(
      `${f.reportName}: of the rows moved, those on old pages were updated in place (HOT: no dead entry of their own)` +
        (twice
          ? `; those past the live ones had been moved by an earlier update, whose version, on the ${twice.pages.toLocaleString('en-US')} pages ` +
            'between the rows as loaded and the live ones (which one is drawn), has an entry too'
          : ''),
    );
  }
  return twice;
}

/**
 * A key's entries are in heap order (a posting list's TIDs, then plain entries by TID), so a backward scan
 * meets a key's highest heap positions first: where a table-wide update appended the live versions past the
 * dead ones, the rows it returns from its first key are those versions, and the key's dead versions, lower,
 * come after them. Where every row found (read after the last run) lies among the appended versions, the
 * shown draw takes the scan to have stopped within that key and met none (measured: the latest 118 rows of
 * a day whose rows had all grown, 123 logical reads on every run, 206 predicted with a dead version a row).
 */
function withinTopKey(sim: SimulationContext, notes: PlanSimulationNotes, b: ScanBase): boolean {
  const { n, dead, known, live, f } = b;
  if (!n.backward || !dead?.mirrorsLive || !known || known.length === 0 || known.some((block) => block < live.first)) return false;
  notes.assumptions.add(
    `${f.reportName}: every row the backward scan returned lies among the versions the table-wide update appended, which a key's entries list after its ` +
    `dead ones (heap order): the scan is taken to have stopped within its first key and met none of the dead versions, the range also each row's`,
  );
  return guess(sim.draw, 'backwardWithinKey') === PG_GUESSES.backwardWithinKey.shown;
}

/**
 * A later run of a SELECT meets the dead entries the run before could not mark, which a bitmap scan of the
 * same condition counted after the last run: the replay places them, the count gives how many (measured on
 * pgbench after a table-wide update, runs 2-3 of a 20,001-key range: 13,332 and 11,736 logical reads with
 * 6,076 and 5,257 counted, where the replay took 4,877 and 4,438).
 */
function unmarkedPerEntry(sim: SimulationContext, notes: PlanSimulationNotes, b: ScanBase, visits: number): (k: number) => number {
  const { n, kills, start, alone, dead, ordered, f } = b;
  const killedAt = (k: number) => (kills && start !== undefined ? kills.leaves.killed(n.backward ? start - k : start + k) : alone ? (alone[k] ?? 0) : 0);
  const countedAfter =
    dead && sim.history.runsDone > 0 && !sim.history.writes && ordered > PG_CALIBRATION.blockOrder && n.relation
      ? sim.observed.deadEntries[n.relation]
      : undefined;
  if (countedAfter && kills && start !== undefined && sim.draw === 0) {
    fitPlainShare(kills.leaves, dead!.perRow, visits, (k) => (n.backward ? start - k : start + k), countedAfter.dead);
  }
  if (withinTopKey(sim, notes, b)) return () => 0;
  const unmarked = countedAfter ? unmarkedAsCounted(dead!.perRow, visits, killedAt, countedAfter.dead) : (k: number) => dead!.perRow * (1 - killedAt(k));
  if (countedAfter) {
    notes.assumptions.add(
      `${f.reportName}: ${countedAfter.dead.toLocaleString('en-US')} dead entries under the scan's keys left unmarked by the run before ` +
        '(counted after the last run by a bitmap scan of the same condition), under the keys where the replay of the updates leaves them, then under ' +
        'those it takes as marked',
    );
  }
  return unmarked;
}

/**
 * The pages a correlated index-only scan fetches from, where it fetched from some of its range only: those
 * the visibility map does not mark all-visible, written since the last VACUUM. A page cached dirty was
 * written since the last checkpoint, so it is one of them (pgbench's updates leave them so); the rest are
 * taken evenly over the range. In block order, as the scan meets them (descending for a backward scan).
 */
function fetchedInRange(
  sim: SimulationContext,
  t: number,
  start: number,
  span: number,
  count: number,
  backward: boolean,
  notes: PlanSimulationNotes,
): number[] {
  // A backward scan starts at its range's last page.
  const from = Math.max(0, Math.floor(backward ? start - span : start));
  const to = Math.min(sim.facts[t].pages, Math.ceil(backward ? start + 1 : start + span));
  const dirty = [...new Set(sim.dirty.get(t) ?? [])].filter((b) => b >= from && b < to).sort((a, b) => a - b);
  const taken = new Set(dirty.length > count ? Array.from({ length: count }, (_, k) => dirty[Math.floor((k * dirty.length) / count)]) : dirty);
  // The range's other pages in a low-discrepancy order (golden-ratio steps), so that any count of them is
  // spread evenly and a run that fetches fewer takes a subset of the pages a run fetching more took.
  const others: Array<[number, number]> = [];
  for (let b = from; b < to; b++) if (!taken.has(b)) others.push([((b - from) * GOLDEN_FRACTION) % 1, b]);
  others.sort((a, b) => a[0] - b[0]);
  for (let k = 0; taken.size < count && k < others.length; k++) taken.add(others[k][1]);
  notes.assumptions.add(
    `${sim.facts[t].reportName}: the heap fetches go to about ${count.toLocaleString('en-US')} of the ${(to - from).toLocaleString('en-US')} pages of ` +
    `the scan's range, those not all-visible: the ${dirty.length.toLocaleString('en-US')} cached dirty ones (written since the last checkpoint) and the ` +
    `rest taken evenly over the range`,
  );
  return [...taken].sort((a, b) => (backward ? b - a : a - b));
}
