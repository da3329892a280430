// The walk of a single index scan's heap visits: each entry's live row, then what the route says it meets
// there (a moved row's new version, far dead entries, the dead versions of the same key), in scan order.
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SeededRandom } from '../../../sim/random';
import { pageId } from '../geometry';
import type { SimulationContext } from '../simulation-context';
import type { HeapRoute, ScanBase } from './index-scan-types';
import { GOLDEN_STEP } from '../guesses';

/** Where the walk is: the scan's position along the live rows, the page last pinned, and what it has met. */
interface WalkState {
  position: number;
  last: number;
  deadDue: number;
  jumped: number;
  tripped: number;
  keysTripped: number;
}

export function walkHeap(sim: SimulationContext, pool: PostgresPool, rnd: SeededRandom, b: ScanBase, r: HeapRoute): void {
  const w: WalkState = { position: b.position, last: -1, deadDue: 0, jumped: 0, tripped: 0, keysTripped: 0 };
  for (let k = 0; k < r.visits; k++) {
    const block = liveBlock(rnd, b, r, w, k);
    // Consecutive entries on the same heap page reuse the pinned buffer (ReleaseAndReadBuffer): no request.
    if (block !== w.last) pool.access(pageId(b.t, block));
    w.last = block;
    const inPlace = jumpToMoved(b, r, w, k, block);
    // Out to the far dead entries due by now, a key's in turn.
    for (let size = r.perKey(w.keysTripped); r.far && w.tripped < r.trips && k + 1 >= ((w.tripped + 0.5) * r.visits) / r.trips;) {
      const from = w.tripped;
      r.outAndBack(block, ...Array.from({ length: Math.min(size, r.trips - from) }, (_, d) => r.farBlock(from + d)));
      w.tripped += size;
      size = r.perKey(++w.keysTripped);
    }
    if (!b.dead) continue;
    // An entry an earlier run marked is passed over: its dead version is not visited again.
    if (!inPlace) w.deadDue += r.unmarked(k);
    // A key's entries are in heap order (the TID breaks ties): the versions a previous run appended past the
    // table's end are met after all its live rows, not between them. (A table-wide update's dead versions,
    // deduplicated with the live ones into posting lists, keep the out-and-back walk its tests measured.)
    if (b.dead.appendedOnly && b.rowsPerKey > 1 && (k + 1) % b.rowsPerKey !== 0 && k + 1 < r.visits) continue;
    deadVersionsOf(sim, pool, rnd, b, r, w, k, block);
  }
}

/** The k-th entry's live row: as found, among the pages not all-visible, among the fetched ones, or along the live rows. */
function liveBlock(rnd: SeededRandom, b: ScanBase, r: HeapRoute, w: WalkState, k: number): number {
  const { known, unsettled, live } = b;
  if (known && k < known.length) return known[k];
  if (unsettled) return unsettled[rnd.int(unsettled.length)];
  if (r.partial) return r.partial[Math.min(r.partial.length - 1, Math.floor(k / live.perPage))];
  if (r.moved || rnd.next() < b.ordered) {
    w.position += 1 / live.perPage;
    return live.first + (Math.floor(w.position - live.first) % Math.max(1, live.pages));
  }
  return live.first + rnd.int(Math.max(1, live.pages));
}

/** Out to each moved row due by now (by its rank among the rows scanned) and back; whether one was updated in place. */
function jumpToMoved(b: ScanBase, r: HeapRoute, w: WalkState, k: number, block: number): boolean {
  const { moved, twice } = r;
  let inPlace = false;
  for (; moved && w.jumped < r.jumps && k + 1 >= (moved.ranks[w.jumped] / Math.max(1, moved.scanned)) * r.visits; w.jumped++) {
    const to = moved.blocks[w.jumped];
    const hot = b.dead?.mirrorsLive === true && to < b.live.first;
    inPlace = inPlace || hot;
    // The earlier version's entry, in every run: the table-wide update's entry for the same key filled the
    // leaf, which deduplicated the key's entries into one posting list with the live version, and a posting
    // list is marked only when all its versions are dead (_bt_killitems). Measured (pgbench, a count of
    // 600,000 keys at 32 MB, runs 2-3): those pages, visited some 20 times a run, stay cached; taken as
    // marked where the key's plain dead entry was, 21,878 read against 22,979 predicted, now 22,412.
    const before = twice && !hot ? twice.first + ((Math.imul(moved.ranks[w.jumped], GOLDEN_STEP) >>> 0) % twice.pages) : undefined;
    r.outAndBack(block, ...(before === undefined ? [] : [before]), to);
  }
  return inPlace;
}

/**
 * The index entries of dead versions of the same keys, between the live ones: each on a page of its own, as
 * far along the dead ones as the live row is along the live ones (a row out of place had its earlier version
 * out of place too: it was moved before).
 */
function deadVersionsOf(
  sim: SimulationContext,
  pool: PostgresPool,
  rnd: SeededRandom,
  b: ScanBase,
  r: HeapRoute,
  w: WalkState,
  k: number,
  block: number,
): void {
  const { first, loadOrder, live, unsettled, known, indexOnly, n, t } = b;
  const dead = b.dead!;
  const key = first ? (n.backward ? first.key - k : first.key + k) : undefined;
  const loaded =
    loadOrder && loadOrder.moved[k] === 0 && key !== undefined
      ? Math.min(live.first - 1, Math.max(0, Math.floor((key - loadOrder.min) / loadOrder.capacity)))
      : undefined;
  const mirrored = ((known && k < known.length) || r.moved) && dead.mirrorsLive ? true : undefined;
  let map = r.vmOf(block);
  for (; w.deadDue >= 1; w.deadDue--) {
    // A page holding dead versions is not all-visible: an index-only scan's fetch of one is among those.
    const d = unsettled
      ? unsettled[rnd.int(unsettled.length)]
      : loaded !== undefined
        ? loaded
        : dead.block(Math.min(1, Math.max(0, (block - live.first) / Math.max(1, live.pages))), rnd, mirrored);
    if (d !== w.last) pool.access(pageId(t, d));
    w.last = d;
    // An index-only scan asks the map about the dead version's page too: where another map page covers
    // it (a table past 32,672 pages whose update appended the live versions past it), out and back.
    if (indexOnly && r.vmOf(d) !== map) {
      map = r.vmOf(d);
      pool.access(map);
    }
    if (sim.history.writes) {
      const met = sim.history.deadMet.get(t) ?? [];
      met.push(d);
      sim.history.deadMet.set(t, met);
    }
  }
  if (indexOnly && map !== r.vmOf(block)) pool.access(r.vmOf(block));
}
