// Which rows' dead versions a table-wide update left alone in their entries of a secondary (non-unique)
// B-tree, so that a scan meeting them marks them dead (kill_prior_tuple) and the scans after it skip their
// heap pages; an entry that also holds a live version (a posting list with the row's new version) is never
// marked, and each later scan visits the dead version again.
//
// Unlike a unique index loaded in key order (version-churn.ts), the update inserts each row's new entry in
// heap order, at random places of the key: which rows' two versions end in one posting list depends on when
// each leaf last filled, and so on the rows around the scanned ones. It is replayed from them (read after
// the last run: their keys and where their live versions are), with nbtree's rules:
// - CREATE INDEX filled each leaf to 90 % (_bt_buildadd: a page is closed when its free space, less what
//   truncating the last item for the high key gains, falls under 819 bytes, and that last item moves on),
//   equal keys merged into posting lists as it went;
// - the update inserts a plain entry (key, new TID) after its key's others; where the leaf is full, the
//   bottom-up pass finds nothing to delete (the old versions belong to the running update), deduplication
//   merges every key's entries into one posting list, and only when that frees too little does the page
//   split, near its middle by bytes, between two different keys where one of the nine closest cuts allows.
// Replayed over all 150,000 rows of a generated table (PostgreSQL 15) this gave every row's state as
// pageinspect showed it (150,000 of 150,000, 719 leaves of 719). Where the first leaf of the rows read
// starts is not known (that needs every key before them, unless the rows begin with the index's first): the
// replay is run from several starts, and the share of starts that leave a row's dead entry alone is its
// chance (over 40 random scans of 50 rows, the mean of ten starts was 0.7 rows from the truth, and the truth
// within the starts' range every time).

/** Bytes of an 8 kB B-tree page for items and their line pointers (less the page header and the special space). */
const PAGE_SPACE = 8192 - 24 - 16;
const LINE_POINTER = 4;
/** BLCKSZ × (100 − leaf fillfactor 90) / 100: a sorted build closes a leaf with less free space than this. */
const BUILD_FULL = Math.floor((8192 * 10) / 100);
/** Candidate cuts nearest the middle among which a split looks for one between different keys (MAX_LEAF_INTERVAL). */
const LEAF_INTERVAL = 9;
/** A posting list's most heap TIDs in a build (a tenth of a page), far beyond the duplicates here. */
const MAX_POSTING = 130;

const maxAlign = (n: number) => Math.ceil(n / 8) * 8;
/** Added to a new entry's heap rank: it sorts after its key's old entries (block × 65,536 + offset stays below). */
const NEW_ENTRY = 2 ** 48;

export interface WindowRow {
  key: number;
  /** The live version's heap block and line pointer. */
  block: number;
  offset: number;
}

/** Rows around a scan in index order (key, then heap position), and where the scanned ones start. */
export interface IndexWindow {
  rows: WindowRow[];
  /** Index in rows of the scan's first row. */
  first: number;
  /** The rows begin with the index's first key: the build's first leaf starts there. */
  startsIndex?: boolean;
}

interface Item {
  key: number;
  /** Rows (window indexes) whose version the entry points to; old: the version from before the update. */
  rows: number[];
  old: boolean;
  /** Where it sorts among its key's items: after the old ones if it began as a new entry, then by its first row's heap position. */
  rank: number;
}

class Leaf {
  bytes = 0;
  constructor(
    public items: Item[],
    private readonly tuple: number,
  ) {
    for (const it of items) this.bytes += this.size(it);
  }

  size(it: Item): number {
    return (it.rows.length === 1 ? this.tuple : maxAlign(this.tuple + 6 * it.rows.length)) + LINE_POINTER;
  }
}

/**
 * One replay of the build and the update from a leaf starting at the window's `shift`-th key. Returns per
 * window row 1 where its old version's entry holds dead versions only, and the leaves before and after the update.
 */
export function replayWindow(
  window: IndexWindow,
  firstNewBlock: number,
  keyBytes: number,
  shift: number,
): { alone: Uint8Array; leafOf: Int32Array; leavesBefore: number; leavesAfter: number; rows: number } {
  const tuple = maxAlign(8 + keyBytes);
  const rows = window.rows;
  const heapRank = (r: number) => rows[r].block * 65536 + rows[r].offset;
  // The window's keys from the shift-th distinct one: the build's first leaf starts there.
  let start = 0;
  // Never past the scan's first row: the replay must hold the scanned rows.
  for (let g = 0; start < window.first && g < shift; g++) {
    const key = rows[start].key;
    while (start < rows.length && rows[start].key === key) start++;
  }
  const itemSize = (n: number) => (n === 1 ? tuple : maxAlign(tuple + 6 * n)) + LINE_POINTER;
  const leaves = buildLeaves(rows, start, tuple, itemSize, heapRank);
  const leavesBefore = leaves.length;
  // The update's inserts in its order: its heap scan met the rows in their old order, and appended each new
  // version as it went, so the live versions' positions give that order. A row whose live version is not
  // past the old heap was changed in place (HOT) or not at all: no new entry.
  const moved: number[] = [];
  const isMoved = new Uint8Array(rows.length);
  for (let r = start; r < rows.length; r++) {
    if (rows[r].block < firstNewBlock) continue;
    moved.push(r);
    isMoved[r] = 1;
  }
  moved.sort((a, b) => rows[a].block - rows[b].block || rows[a].offset - rows[b].offset);
  for (const r of moved) insertEntry(leaves, { key: rows[r].key, rows: [r], old: false, rank: NEW_ENTRY + heapRank(r) }, tuple, itemSize);
  const alone = new Uint8Array(rows.length);
  // Dead versions only: no new entry merged in (deduplication) and no row in it that the update left where it was (live).
  for (const leaf of leaves) for (const it of leaf.items) if (it.old && it.rows.every((r) => isMoved[r] === 1)) for (const r of it.rows) alone[r] = 1;
  // The leaf of each row's live entry: its new one where the update moved it, else the one the build made.
  const leafOf = new Int32Array(rows.length).fill(-1);
  leaves.forEach((leaf, l) => {
    for (const it of leaf.items) for (const r of it.rows) if (!it.old || !isMoved[r]) leafOf[r] = l;
  });
  return { alone, leafOf, leavesBefore, leavesAfter: leaves.length, rows: rows.length - start };
}

/** The build's leaves over the window's rows from `start`: each key's rows in posting lists, a leaf filled to the build's fill. */
function buildLeaves(rows: IndexWindow['rows'], start: number, tuple: number, itemSize: (n: number) => number, heapRank: (r: number) => number): Leaf[] {
  const built: Leaf[] = [];
  let page: Item[] = [];
  let used = 0;
  const truncGain = (n: number) => itemSize(n) - itemSize(1);
  const add = (it: Item) => {
    const last = page[page.length - 1];
    // Free space as PageGetFreeSpace gives it, with the high key's line pointer reserved.
    if (last && page.length > 1 && PAGE_SPACE - 2 * LINE_POINTER - used + truncGain(last.rows.length) < BUILD_FULL) {
      page.pop();
      built.push(new Leaf(page, tuple));
      page = [last];
      used = itemSize(last.rows.length);
    }
    page.push(it);
    used += itemSize(it.rows.length);
  };
  for (let r = start; r < rows.length;) {
    const key = rows[r].key;
    const group: number[] = [];
    for (; r < rows.length && rows[r].key === key; r++) group.push(r);
    for (let g = 0; g < group.length; g += MAX_POSTING) add({ key, rows: group.slice(g, g + MAX_POSTING), old: true, rank: heapRank(group[g]) });
  }
  if (page.length) built.push(new Leaf(page, tuple));
  return built;
}

/** One of the update's new entries into its leaf: deduplicated first where full, split where still full. */
function insertEntry(leaves: Leaf[], it: Item, tuple: number, itemSize: (n: number) => number): void {
  // A non-rightmost leaf keeps a high key, as large as a plain item.
  const room = PAGE_SPACE - itemSize(1);
  const before = (a: Item, b: Item) => a.key - b.key || a.rank - b.rank;
  let lo = 0;
  let hi = leaves.length - 1;
  while (lo < hi) {
    const m = (lo + hi + 1) >> 1;
    if (before(leaves[m].items[0], it) < 0) lo = m;
    else hi = m - 1;
  }
  const leaf = leaves[lo];
  // The first item that sorts after the new one.
  const place = (items: Item[]) => {
    let [a, b] = [0, items.length];
    while (a < b) {
      const m = (a + b) >> 1;
      if (before(items[m], it) > 0) b = m;
      else a = m + 1;
    }
    return a;
  };
  if (leaf.bytes + itemSize(1) > room) {
    dedupLeaf(leaf);
    if (leaf.bytes + itemSize(1) > room) {
      const all = [...leaf.items];
      all.splice(place(all), 0, it);
      const cut = splitPoint(all, (x) => leaf.size(x), room);
      leaves.splice(lo, 1, new Leaf(all.slice(0, cut), tuple), new Leaf(all.slice(cut), tuple));
      return;
    }
  }
  leaf.items.splice(place(leaf.items), 0, it);
  leaf.bytes += itemSize(1);
}

/** Merges each key's items into one posting list (_bt_dedup_pass), in place; an item holding any new version is no longer old-only. */
function dedupLeaf(leaf: Leaf): void {
  const items = leaf.items;
  let kept = 0;
  let merged = false;
  for (const it of items) {
    const prev = kept > 0 ? items[kept - 1] : undefined;
    if (prev && prev.key === it.key) {
      items[kept - 1] = { key: it.key, rows: prev.rows.concat(it.rows), old: prev.old && it.old, rank: prev.rank };
      merged = true;
    } else items[kept++] = it;
  }
  items.length = kept;
  if (merged) leaf.bytes = items.reduce((a, x) => a + leaf.size(x), 0);
}

/** _bt_findsplitloc for a leaf that is not the rightmost: halves as equal in free space as one of the nearest cuts between different keys allows. */
function splitPoint(items: Item[], size: (it: Item) => number, room: number): number {
  const total = items.reduce((a, x) => a + size(x), 0);
  const cands: Array<{ delta: number; penalty: number; cut: number }> = [];
  let left = 0;
  for (let cut = 1; cut < items.length; cut++) {
    left += size(items[cut - 1]);
    cands.push({ delta: Math.abs(room - left - (room - (total - left))), penalty: items[cut - 1].key !== items[cut].key ? 1 : 2, cut });
  }
  cands.sort((a, b) => a.delta - b.delta || a.penalty - b.penalty || a.cut - b.cut);
  const near = cands.slice(0, LEAF_INTERVAL);
  near.sort((a, b) => a.penalty - b.penalty || a.delta - b.delta || a.cut - b.cut);
  return near[0].cut;
}

/** Starts the replay is run from, spread over one loaded leaf's keys. */
export const WINDOW_STARTS = 10;

export interface SecondaryChurn {
  /** Per scanned row (from window.first), the share of starts that left its dead entry alone. */
  alone: Float64Array;
  /** The same, per start: 0 or 1. */
  perStart: Uint8Array[];
  /** Leaves holding the scanned rows' live entries, per start (a VACUUM since empties no leaf, so they stay). */
  leaves: number[];
  /** Leaves per row the update left, from the replays (for the gate against the index's own size). */
  leavesPerRow: number;
}

export function secondaryChurn(window: IndexWindow, firstNewBlock: number, keyBytes: number, scanned: number): SecondaryChurn {
  // Keys a loaded leaf holds: from a replay at the window's start.
  const probe = replayWindow(window, firstNewBlock, keyBytes, 0);
  const distinct = new Set(window.rows.map((r) => r.key)).size;
  const keysPerLeaf = Math.max(1, Math.round(distinct / Math.max(1, probe.leavesBefore)));
  const end = Math.min(window.rows.length, window.first + scanned);
  const perStart: Uint8Array[] = [];
  const leaves: number[] = [];
  let after = 0;
  let rows = 0;
  const starts = window.startsIndex ? 1 : WINDOW_STARTS;
  for (let s = 0; s < starts; s++) {
    const r = s === 0 ? probe : replayWindow(window, firstNewBlock, keyBytes, Math.round((s * keysPerLeaf) / starts));
    perStart.push(r.alone.slice(window.first, end));
    leaves.push(new Set(r.leafOf.slice(window.first, end)).size);
    // The window's last leaf is cut short by the window's end: the count per row leaves it out.
    after += r.leavesAfter - 1;
    rows += r.rows - r.leafOf.reduce((n, l) => n + (l === r.leavesAfter - 1 ? 1 : 0), 0);
  }
  const alone = new Float64Array(end - window.first);
  for (const p of perStart) p.forEach((v, k) => (alone[k] += v / starts));
  return { alone, perStart, leaves, leavesPerRow: after / Math.max(1, rows) };
}
