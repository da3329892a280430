// A single index scan (or index-only scan): its leaves, then the heap pages of its entries in the order the
// heap's history gives them, with the dead versions, moved rows and far entries it meets on the way.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SeededRandom } from '../../../sim/random';
import { orderedShare, pageId } from '../geometry';
import { liveRows, notAllVisible, outOfOrder, rowsPerFullPage } from '../heap-layout';
import { deadOf } from '../history/dead-versions';
import { earlierBlocks, earlierUnderWrite } from '../history/earlier-writes';
import { findUpdatedEarlier, fitPlainShare, killedAfterChurn, movedRanks, secondaryKills, unmarkedAsCounted } from '../history/churn';
import { HEAP_BLOCKS_PER_VM_PAGE, type SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { denseStart, indexLeaves } from './index-leaves';
import { repeatedIndexScan } from './repeated-index-scan';
import { visibilityChecks } from './visibility-map';

export function indexScan(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom): void {
  if (!n.parallelAware && (n.actualLoops ?? 1) > 1) return repeatedIndexScan(sim, pool, n, notes, rnd);
  const tuples = ((n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0)) * Math.max(1, n.actualLoops ?? 1);
  // A parallel scan's participants share one walk, so its heap visits follow one position too.
  const loops = n.parallelAware ? 1 : Math.max(1, n.actualLoops ?? 1);
  indexLeaves(sim, pool, n, notes, rnd, tuples);
  if (n.nodeType === 'Index Only Scan') visibilityChecks(sim, pool, n, notes, tuples, loops);
  const heapTuples = n.nodeType === 'Index Only Scan' ? (n.heapFetches ?? 0) : tuples;
  if (heapTuples === 0) return;
  const t = sim.relationIndex('table', n.relation);
  const idx = sim.relationIndex('index', n.index);
  if (t === undefined) return void notes.unmodelled.add(`${n.nodeType} on ${n.relation}: table facts missing`);
  const f = sim.facts[t];
  const c = idx === undefined ? null : (sim.facts[idx].correlation ?? null);
  const ordered = orderedShare(c);
  notes.assumptions.add(
    `${f.reportName}: correlation ${c === null ? 'unknown (no statistics)' : c.toFixed(2)} → heap visited ${ordered > 0.8 ? 'in block order' : ordered < 0.2 ? 'in random order' : `${Math.round(ordered * 100)} % in block order`}`,
  );
  const live = liveRows(f, sim.blockSize, sim.draw, notes);
  const perPage = live.perPage;
  const dead = deadOf(sim, t, live, ordered, notes);
  // Which keys an earlier run marked dead, and the key the scan starts at, where both are known.
  const kills = dead && loops === 1 && idx !== undefined ? killedAfterChurn(sim, idx, notes) : undefined;
  const alone = dead && !kills && loops === 1 && idx !== undefined && n.nodeType === 'Index Scan' ? secondaryKills(sim, idx, t, tuples, notes) : undefined;
  const first = loops === 1 && idx !== undefined ? denseStart(sim, idx, n) : undefined;
  // An index-only scan's heap fetches count the dead versions' entries as well: with the marked ones
  // known, every row is fetched (no page of a table-wide update's heap is all-visible) and the rest are dead.
  const liveVisits = n.nodeType === 'Index Only Scan' && dead ? (kills ? Math.min(tuples, heapTuples) : heapTuples / (1 + dead.perRow)) : heapTuples;
  const unsettled = n.nodeType === 'Index Only Scan' && ordered < 0.8 ? notAllVisible(sim.facts[t], t, live, tuples, heapTuples, sim.draw, notes, sim.dirty.get(t)) : undefined;
  // A correlated scan starts where its first key lies along the live rows, where the keys are dense.
  let position = live.first + (loops === 1 ? (first && ordered > 0.8 ? first.fraction * live.pages : 0) : rnd.int(live.pages));
  let last = -1;
  let deadDue = 0;
  const start = kills ? first?.key : undefined;
  // An index-only scan whose every row went to the heap (no page all-visible) visits the rows' blocks too.
  const visitsRows = n.nodeType === 'Index Scan' || (n.nodeType === 'Index Only Scan' && heapTuples >= tuples);
  const known = visitsRows && loops === 1 && n.relation ? sim.observed.heapBlocks[n.relation] : undefined;
  if (kills && start !== undefined && !n.backward) {
    // Which rows an update moved before the table-wide one: from the rows' heap blocks where an index scan's
    // are read, else from the rows an index-only scan's heap fetches moved (read after the last run too).
    const earlier = known ? outOfOrder(known) : movedRanks(sim, n.relation);
    if (earlier) findUpdatedEarlier(sim, kills.leaves, earlier, start, notes, f.reportName);
  }
  // After a table-wide update of a heap loaded in key order, a row's dead version is where the load put
  // it (the key's rank over the rows a full page holds), but for rows an earlier update had moved (their
  // live block out of the update's order), whose dead version is where that update put it.
  const keyMin = idx !== undefined ? sim.facts[idx].keyRange?.min : undefined;
  const capacity = rowsPerFullPage(f, sim.blockSize);
  const loadOrder = dead?.mirrorsLive && known && first && keyMin !== undefined && capacity && ordered > 0.95 && live.first > 0 ? { min: keyMin, capacity, moved: outOfOrder(known) } : undefined;
  if (loadOrder) notes.assumptions.add(`${f.reportName}: the heap was loaded in key order, ${loadOrder.capacity} rows a page: a row's dead version is where the load put it, but for rows an earlier update had moved (live block out of order)`);
  if (known) {
    // A version an update appended lies where the update's scan met the one before it, so the dead
    // version sits as far along the dead ones as its live row, found or moved, is along the live ones.
    notes.assumptions.add(`${f.reportName}: the ${known.length.toLocaleString('en-US')} rows' heap blocks as the scan found them (read after the last run), ${new Set(known).size.toLocaleString('en-US')} blocks${dead && !loadOrder ? '; each dead version as far along the dead ones as its live row is along the live ones, a row an earlier update moved included' : ''}`);
  }
  // Rows an update moved among those the scan visits, where read after the runs: they are the rows out of
  // key order, so the others are visited in block order (not a random share for a correlation below 1),
  // and where dead versions mirror the live ones (a table-wide update's, under a correlated scan), each of
  // theirs as far along the old pages.
  const moved = !known && loops === 1 && n.relation && (!dead || (dead.mirrorsLive && ordered > 0.8)) ? sim.observed.movedRows[n.relation] : undefined;
  const indexOnly = n.nodeType === 'Index Only Scan';
  const jumps = moved ? Math.min(moved.blocks.length, Math.floor(liveVisits / 2)) : 0;
  if (moved && jumps > 0) {
    notes.assumptions.add(
      `${f.reportName}: ${moved.blocks.length.toLocaleString('en-US')} of the ${moved.scanned.toLocaleString('en-US')} rows scanned were moved by an update, out of key order (read after the last run): each ${indexOnly ? 'fetch' : 'visit'} goes out to the moved version's page and back${indexOnly ? ', and to the visibility-map page and back where another covers it' : ''}`,
    );
  }
  // Dead entries every run meets, counted after the runs, where no other model of dead versions applies
  // and the scan walks the heap in key order (out to each and back to its neighbours' page): an index-only
  // scan's heap fetches include them, an index scan's rows do not.
  const counted = !known && !dead && loops === 1 && ordered > 0.8 && n.relation ? sim.observed.deadEntries[n.relation] : undefined;
  const earlier = !counted && !known && !dead && loops === 1 && ordered > 0.8 && n.relation ? earlierUnderWrite(sim, t, notes) : undefined;
  const far = counted ?? earlier;
  // An index-only scan that fetched more than the last run met entries it marked dead on the way (plain
  // ones): the old entries of the rows an update moved, beside the live rows (no trip), and the rest far.
  const movedOld = n.relation ? (sim.observed.movedRows[n.relation]?.blocks.length ?? 0) : 0;
  const marked = far && indexOnly && far.lastFetches !== undefined ? Math.max(0, heapTuples - far.lastFetches - movedOld) : 0;
  const trips = far && far.farBlocks > 0 ? Math.min(far.dead + marked, indexOnly ? Math.max(0, liveVisits - jumps) : far.dead) : 0;
  if (far && !earlier && trips > 0) {
    notes.assumptions.add(
      `${f.reportName}: ${far.dead.toLocaleString('en-US')} dead entries under the scan's keys that no scan can mark (a posting list's, beside a live version)${marked > 0 ? `, and ${marked.toLocaleString('en-US')} more this run marks (its heap fetches beyond the last run's)` : ''}, on ${far.farBlocks.toLocaleString('en-US')} blocks beyond the live rows' (counted after the last run by a bitmap scan of the same condition): each run goes out to one and back${indexOnly ? ', and to its visibility-map page and back where another covers it' : ''}; which keys they lie under no view shows: taken evenly over the scan, one a key (the range also takes two), on the table's last blocks (where a rolled-back write appends its versions)`,
    );
  }
  const visits = liveVisits - jumps - (indexOnly ? trips : 0);
  // Where along the fetches each moved row lies: its rank among the rows scanned.
  const jumpAt = (j: number) => (moved!.ranks[j] / Math.max(1, moved!.scanned)) * visits;
  const tripAt = (j: number) => ((j + 0.5) * visits) / trips;
  const vmOf = (block: number) => pageId(sim.facts.length + 1 + t, Math.floor(block / HEAP_BLOCKS_PER_VM_PAGE));
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
  const perKey = (key: number) => ((sim.draw & 1) !== 0 ? 2 : sim.draw === 0 && key % 3 === 2 ? 2 : 1);
  const earlierAt = earlier ? earlierBlocks(sim, f, earlier) : undefined;
  const farBlock = (j: number) => (earlierAt ? earlierAt(j) : f.pages - 1 - (j % Math.max(1, far?.farBlocks ?? 1)));
  const partial = indexOnly && ordered > 0.8 && !known && !dead && !unsettled && heapTuples < 0.95 * tuples ? fetchedInRange(sim, t, position, tuples / perPage, Math.ceil(visits / perPage), n.backward === true, notes) : undefined;
  // Where the dead versions mirror the live ones (a table-wide update's), a moved row is one of two kinds.
  // On an old page (before the live ones): that update found room there, left by pruning, and was HOT, its
  // dead version beside the live one with no index entry of its own. Past them: an earlier update had
  // moved the row to the heap's end before the table-wide update appended after it, so the earlier version
  // has an entry too, on the pages between the rows as loaded and the live ones (where on them is drawn, the
  // same page for the same row in every run).
  const loadedPages = dead?.mirrorsLive && moved && capacity ? Math.ceil(f.tuples / capacity) : undefined;
  const twice = loadedPages !== undefined && live.first - loadedPages >= 1 ? { first: loadedPages, pages: live.first - loadedPages } : undefined;
  if (loadedPages !== undefined) {
    notes.assumptions.add(
      `${f.reportName}: of the rows moved, those on old pages were updated in place (HOT: no dead entry of their own)` +
        (twice ? `; those past the live ones had been moved by an earlier update, whose version, on the ${twice.pages.toLocaleString('en-US')} pages between the rows as loaded and the live ones (which one is drawn), has an entry too` : ''),
    );
  }
  const killedAt = (k: number) => (kills && start !== undefined ? kills.leaves.killed(n.backward ? start - k : start + k) : alone ? (alone[k] ?? 0) : 0);
  // A later run of a SELECT meets the dead entries the run before could not mark, which a bitmap scan of the
  // same condition counted after the last run: the replay places them, the count gives how many (measured on
  // pgbench after a table-wide update, runs 2-3 of a 20,001-key range: 13,332 and 11,736 logical reads with
  // 6,076 and 5,257 counted, where the replay took 4,877 and 4,438).
  const countedAfter = dead && sim.history.runsDone > 0 && !sim.history.writes && loops === 1 && ordered > 0.8 && n.relation ? sim.observed.deadEntries[n.relation] : undefined;
  if (countedAfter && kills && start !== undefined && sim.draw === 0) fitPlainShare(kills.leaves, dead!.perRow, visits, (k) => (n.backward ? start - k : start + k), countedAfter.dead);
  const unmarked = countedAfter ? unmarkedAsCounted(dead!.perRow, visits, killedAt, countedAfter.dead) : (k: number) => dead!.perRow * (1 - killedAt(k));
  if (countedAfter) notes.assumptions.add(`${f.reportName}: ${countedAfter.dead.toLocaleString('en-US')} dead entries under the scan's keys left unmarked by the run before (counted after the last run by a bitmap scan of the same condition), under the keys where the replay of the updates leaves them, then under those it takes as marked`);
  let jumped = 0;
  let tripped = 0;
  let keysTripped = 0;
  for (let k = 0; k < visits; k++) {
    let block: number;
    if (known && k < known.length) block = known[k];
    else if (unsettled) block = unsettled[rnd.int(unsettled.length)];
    else if (partial) block = partial[Math.min(partial.length - 1, Math.floor(k / perPage))];
    else if (moved || rnd.next() < ordered) {
      position += 1 / perPage;
      block = live.first + (Math.floor(position - live.first) % Math.max(1, live.pages));
    } else block = live.first + rnd.int(Math.max(1, live.pages));
    // Consecutive entries on the same heap page reuse the pinned buffer (ReleaseAndReadBuffer): no request.
    if (block !== last) pool.access(pageId(t, block));
    last = block;
    // Out to the moved row's new version and back to the page of the rows around its old one.
    let inPlace = false;
    for (; moved && jumped < jumps && k + 1 >= jumpAt(jumped); jumped++) {
      const to = moved.blocks[jumped];
      const hot = dead?.mirrorsLive === true && to < live.first;
      inPlace = inPlace || hot;
      // The earlier version's entry, in every run: the table-wide update's entry for the same key filled the
      // leaf, which deduplicated the key's entries into one posting list with the live version, and a posting
      // list is marked only when all its versions are dead (_bt_killitems). Measured (pgbench, a count of
      // 600,000 keys at 32 MB, runs 2-3): those pages, visited some 20 times a run, stay cached; taken as
      // marked where the key's plain dead entry was, 21,878 read against 22,979 predicted, now 22,412.
      const before = twice && !hot ? twice.first + ((Math.imul(moved.ranks[jumped], 0x9e3779b1) >>> 0) % twice.pages) : undefined;
      outAndBack(block, ...(before === undefined ? [] : [before]), to);
    }
    for (let size = perKey(keysTripped); far && tripped < trips && k + 1 >= tripAt(tripped); tripped += size, size = perKey(++keysTripped)) {
      outAndBack(block, ...Array.from({ length: Math.min(size, trips - tripped) }, (_, d) => farBlock(tripped + d)));
    }
    if (!dead) continue;
    // An entry an earlier run marked is passed over: its dead version is not visited again.
    if (!inPlace) deadDue += unmarked(k);
    // The index entries of dead versions of the same keys, between the live ones: each on a page of its
    // own, as far along the dead ones as the live row is along the live ones (a row out of place had its
    // earlier version out of place too: it was moved before).
    const key = first ? (n.backward ? first.key - k : first.key + k) : undefined;
    const loaded = loadOrder && loadOrder.moved[k] === 0 && key !== undefined ? Math.min(live.first - 1, Math.max(0, Math.floor((key - loadOrder.min) / loadOrder.capacity))) : undefined;
    let map = vmOf(block);
    for (; deadDue >= 1; deadDue--) {
      // A page holding dead versions is not all-visible: an index-only scan's fetch of one is among those.
      const d = unsettled
        ? unsettled[rnd.int(unsettled.length)]
        : loaded !== undefined
          ? loaded
          : dead.block(Math.min(1, Math.max(0, (block - live.first) / Math.max(1, live.pages))), rnd, ((known && k < known.length) || moved) && dead.mirrorsLive ? true : undefined);
      if (d !== last) pool.access(pageId(t, d));
      last = d;
      // An index-only scan asks the map about the dead version's page too: where another map page covers
      // it (a table past 32,672 pages whose update appended the live versions past it), out and back.
      if (indexOnly && vmOf(d) !== map) {
        map = vmOf(d);
        pool.access(map);
      }
      if (sim.history.writes) {
        const met = sim.history.deadMet.get(t) ?? [];
        met.push(d);
        sim.history.deadMet.set(t, met);
      }
    }
    if (indexOnly && map !== vmOf(block)) pool.access(vmOf(block));
  }
}

/**
 * The pages a correlated index-only scan fetches from, where it fetched from some of its range only: those
 * the visibility map does not mark all-visible, written since the last VACUUM. A page cached dirty was
 * written since the last checkpoint, so it is one of them (pgbench's updates leave them so); the rest are
 * taken evenly over the range. In block order, as the scan meets them (descending for a backward scan).
 */
export function fetchedInRange(sim: SimulationContext, t: number, start: number, span: number, count: number, backward: boolean, notes: PlanSimulationNotes): number[] {
  // A backward scan starts at its range's last page.
  const from = Math.max(0, Math.floor(backward ? start - span : start));
  const to = Math.min(sim.facts[t].pages, Math.ceil(backward ? start + 1 : start + span));
  const dirty = [...new Set(sim.dirty.get(t) ?? [])].filter((b) => b >= from && b < to).sort((a, b) => a - b);
  const taken = new Set(dirty.length > count ? Array.from({ length: count }, (_, k) => dirty[Math.floor((k * dirty.length) / count)]) : dirty);
  // The range's other pages in a low-discrepancy order (golden-ratio steps), so that any count of them is
  // spread evenly and a run that fetches fewer takes a subset of the pages a run fetching more took.
  const others: Array<[number, number]> = [];
  for (let b = from; b < to; b++) if (!taken.has(b)) others.push([((b - from) * 0.6180339887498949) % 1, b]);
  others.sort((a, b) => a[0] - b[0]);
  for (let k = 0; taken.size < count && k < others.length; k++) taken.add(others[k][1]);
  notes.assumptions.add(
    `${sim.facts[t].reportName}: the heap fetches go to about ${count.toLocaleString('en-US')} of the ${(to - from).toLocaleString('en-US')} pages of the scan's range, those not all-visible: the ${dirty.length.toLocaleString('en-US')} cached dirty ones (written since the last checkpoint) and the rest taken evenly over the range`,
  );
  return [...taken].sort((a, b) => (backward ? b - a : a - b));
}

