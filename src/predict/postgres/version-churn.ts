// Which keys of a unique B-tree hold their versions in one posting list after a table-wide update that ran
// in key order (an UPDATE of every row of a heap loaded in key order), and which hold them as two plain
// entries. It matters to every later scan: a scan that meets a dead version marks a plain entry dead
// (kill_prior_tuple, _bt_killitems), and scans after it skip the entry and its heap page; a posting list is
// never marked while one of its versions lives, so each later scan still visits the dead version.
//
// nbtree's rule (nbtinsert.c _bt_delete_or_dedup_one_page, PostgreSQL 14+): an insert into a full leaf of a
// unique index whose key is already there first tries to delete dead entries (none: the old versions belong
// to the running update), then deduplicates the whole page, merging every key that has two entries into a
// posting list, and splits the page, about evenly by bytes, only when that did not free room. Replayed on
// one leaf as the load left it, this gives a pattern that repeats with every leaf: measured on PostgreSQL 15
// (150,000 rows, int4 key, 366 keys per leaf) 50 keys in posting lists, 112 plain, 202 in posting lists, 2
// plain, in every leaf; the simulation gives the same.
/** Bytes of an 8 kB leaf for items and their line pointers (less the page header and nbtree's special space). */
const LEAF_SPACE = 8192 - 24 - 16;
const LINE_POINTER = 4;
/** Leaves the load filled to the default leaf fillfactor (a rightmost split or a sorted build). */
const LOAD_FILLFACTOR = 0.9;

const maxAlign = (n: number) => Math.ceil(n / 8) * 8;

export interface ChurnPattern {
  /** Keys per leaf as the load left them: the pattern's period. */
  keysPerLeaf: number;
  /** Per key offset within its leaf: 1 where its two versions ended in one posting list. */
  posting: Uint8Array;
  /** Leaves each loaded leaf became (the index's leaf pages after the update, per leaf before it). */
  leavesPerLeaf: number;
  /** The key offset each of those leaves starts at, within the loaded leaf (0 first). */
  pageStarts: number[];
}

/**
 * Replays the update's inserts into one loaded leaf of a unique index whose key takes `keyBytes` (4 for
 * int4, 8 for int8): keys in order, each gaining a second entry for its new version. A row updated earlier
 * left its leaf an entry more, dead by then: the first full page's bottom-up deletion removes it (measured:
 * single committed updates left their leaves' pattern as it was). A rolled-back batch's leaves, split by its
 * own thousand inserts, hold another pattern: not modelled.
 */
export function keyOrderChurn(keyBytes: number): ChurnPattern {
  const tuple = maxAlign(8 + keyBytes);
  const plain = tuple + LINE_POINTER;
  // A posting list of two heap TIDs (6 bytes each) after the key.
  const posting = maxAlign(tuple + 12) + LINE_POINTER;
  const keysPerLeaf = Math.floor(LOAD_FILLFACTOR * Math.floor(LEAF_SPACE / plain));
  // 0: one entry, 1: two plain entries, 2: a posting list.
  const state = new Uint8Array(keysPerLeaf);
  const size = (o: number) => (state[o] === 0 ? plain : state[o] === 1 ? 2 * plain : posting);
  // Pages as [first key offset, end), each with a high key as large as a plain entry.
  const pages: Array<[number, number]> = [[0, keysPerLeaf]];
  const bytes = ([s, e]: [number, number]) => {
    let b = plain;
    for (let o = s; o < e; o++) b += size(o);
    return b;
  };
  for (let o = 0; o < keysPerLeaf; o++) {
    const p = pages.findIndex(([s, e]) => o >= s && o < e);
    if (LEAF_SPACE - bytes(pages[p]) < plain) {
      // Bottom-up deletion finds nothing to remove: the update's own old versions are not dead yet.
      for (let k = pages[p][0]; k < pages[p][1]; k++) if (state[k] === 1) state[k] = 2;
      if (LEAF_SPACE - bytes(pages[p]) < plain) {
        // Split where the two halves' items, the new entry counted, come closest (each half has a high key).
        const [s, e] = pages[p];
        // The page's items less its high key, plus the new entry: as many bytes as the page holds now.
        const items = bytes(pages[p]);
        let best = s + 1;
        let left = 0;
        let bestDelta = Infinity;
        for (let cut = s + 1; cut < e; cut++) {
          left += size(cut - 1) + (cut - 1 === o ? plain : 0);
          const delta = Math.abs(2 * left - items);
          if (delta < bestDelta) [bestDelta, best] = [delta, cut];
        }
        pages.splice(p, 1, [s, best], [best, e]);
      }
    }
    state[o] = 1;
  }
  return { keysPerLeaf, posting: state.map((v) => (v === 2 ? 1 : 0)), leavesPerLeaf: pages.length, pageStarts: pages.map(([start]) => start) };
}

/**
 * The keys of a churned unique index, leaf by leaf as the load laid them out from key `min`: which ones an
 * earlier run left marked dead (plain entries), given the pattern, and the leaves where a row had been
 * updated before the table-wide update. That row's dead entry, where no scan had marked it, is still there
 * when its leaf first fills and splits; in the leaf's second half it moves the split one key right, and the
 * second page then holds 203 keys, which fit as plain pairs and are never deduplicated: only the first run
 * of posting lists and that row's own remain (measured on the corpus's tables after its mixed workload,
 * pageinspect: 108 of the 127 leaves with one such row at offset 183 or more of 366, none below; the others
 * had the entry marked dead by a later scan and removed first, which no view shows). Each such leaf is one
 * case or the other, whole: the shown draw takes that share of the leaves in turn (or the share a count
 * after the runs asks for), the band's even draws every such leaf as the first case, its odd draws as the
 * other. A leaf's keys lie on neighbouring heap pages, so a later run goes to some pages for many dead
 * versions and to others for none (pgbench after a table-wide update, 128 MB: runs 2-3 read 17,870 and
 * 12,191 pages, predicted 22,544 and 22,572 when each key took the average of the two cases).
 */
/** Of the leaves with a row updated earlier in their second half, the share that kept no posting list past the first run. */
export const PLAIN_AFTER_EARLIER_UPDATE = 108 / 127;

export class ChurnedLeaves {
  private readonly plainLeaves = new Map<number, Set<number>>();
  /** The share of such leaves taken as keeping no posting list (the shown draw's). */
  plainShare = PLAIN_AFTER_EARLIER_UPDATE;
  /** Each such leaf's rank along the keys, built when first asked (after the scan's rows were registered). */
  private ranks: Map<number, number> | undefined;
  private readonly firstRun: number;

  constructor(
    private readonly churn: ChurnPattern,
    private readonly min: number,
    /** Which draw of the model's guesses (0: the one shown). */
    private readonly draw = 0,
  ) {
    let run = 0;
    while (run < churn.posting.length && churn.posting[run] === 1) run++;
    this.firstRun = run;
  }

  private place(key: number): { leaf: number; offset: number } {
    const rank = key - this.min;
    const n = this.churn.keysPerLeaf;
    return { leaf: Math.floor(rank / n), offset: ((rank % n) + n) % n };
  }

  /** A row of this key was updated before the table-wide update (its live version lies out of the update's order). */
  updatedEarlier(key: number): void {
    const { leaf, offset } = this.place(key);
    if (offset < this.churn.keysPerLeaf / 2) return;
    const rows = this.plainLeaves.get(leaf) ?? new Set<number>();
    rows.add(key);
    this.plainLeaves.set(leaf, rows);
    this.ranks = undefined;
  }

  /** Whether an earlier run met this key's dead version as a plain entry and marked it (1) or not (0). */
  killed(key: number): number {
    const cases = this.casesOf(key);
    if (typeof cases === 'number') return cases;
    return this.keepsNoPostingList(cases.leaf) ? cases.plain : cases.usual;
  }

  /**
   * For a key on a leaf with a row updated earlier, its leaf and whether it is marked (1) or not (0) in
   * each case: where the leaf kept no posting list past its first keys, and where it did as usual. Elsewhere
   * the one answer.
   */
  casesOf(key: number): number | { leaf: number; plain: number; usual: number } {
    const { leaf, offset } = this.place(key);
    const usual = this.churn.posting[offset] === 0 ? 1 : 0;
    const moved = this.plainLeaves.get(leaf);
    if (!moved) return usual;
    return { leaf, plain: offset >= this.firstRun - 1 && !moved.has(key) ? 1 : 0, usual };
  }

  /**
   * Whether a leaf with a row updated earlier kept no posting list past its first keys. The shown draw takes
   * that share of such leaves in turn along the keys, so any run of them holds the share within one leaf.
   */
  keepsNoPostingList(leaf: number): boolean {
    if (this.draw !== 0) return (this.draw & 1) === 0;
    if (!this.ranks) this.ranks = new Map([...this.plainLeaves.keys()].sort((a, b) => a - b).map((l, r) => [l, r]));
    // The other case at the ranks where its share, counted from a half, crosses a whole number: at 85 %, the
    // 4th leaf, then every 6.7th, so a run of one to three such leaves takes the usual case for none.
    const other = 1 - this.plainShare;
    const r = this.ranks.get(leaf) ?? 0;
    return Math.floor((r + 1) * other + 0.5) === Math.floor(r * other + 0.5);
  }

  get leavesUpdatedEarlier(): number {
    return this.plainLeaves.size;
  }
}
