// Where each index's pages are in the simulation, as InnoDB allocates a file-per-table B-tree, adjusted to
// the pages the residency snapshot showed cached. Computed once per index, since traces ask per row.
import type { InnodbIndexFacts } from './facts';
import { leafFill, seedOf, usableBytes, type IndexPages } from './index-pages';
import { ascendingKeyLayout } from './key-position';
import { INNODB_CALIBRATION } from './calibration';
import { SeededRandom } from '../../sim/random';
import { cachedLeafSlots } from './cached-leaf-order';

/** Each index's pages live in their own range of simulated page ids: index i starts at i × SPACE. */
export const SPACE = 0x1000000;
/** Fragment pages a segment takes from extent 0 before it gets whole extents. */
export const FRAGMENT_PAGES = 32;
/** A node pointer's bytes beyond the key: the child page number and the record header. */
const NODE_POINTER_OVERHEAD = 4 + 5;
/** Where pages a statement creates are numbered within their space: past any file this models. */
export const NEW_PAGES = 0x800000;

export class IndexLayouts {
  private readonly layouts = new Map<number, IndexPages>();
  private readonly cachedSets = new Map<number, Set<number>>();
  private readonly memos = new Map<string, unknown>();

  constructor(
    private readonly facts: InnodbIndexFacts[],
    private readonly pageSize: number,
    /** Each cached page's first access before run 1, as an age in ms (lru-seed.ts), where the walk read it. */
    private readonly firstAccess: ReadonlyMap<number, number> = new Map(),
  ) {}

  /** What follows from the layout alone, worked out once for all the draws that share it (never changed after). */
  memo<T>(name: string, compute: () => T): T {
    if (!this.memos.has(name)) this.memos.set(name, compute());
    return this.memos.get(name) as T;
  }

  of(i: number): IndexPages {
    let l = this.layouts.get(i);
    if (!l) {
      l = this.compute(i);
      this.layouts.set(i, l);
    }
    return l;
  }

  /**
   * The root at page 3, the first 32 leaf pages (and the non-leaf pages) as fragment pages of extent 0,
   * the other leaves in whole extents from page 64 in key order. Secondary indexes are placed after the
   * clustered one.
   */
  private compute(i: number): IndexPages {
    const f = this.facts[i];
    const base = i * SPACE;
    const nonLeaf = Math.max(1, f.sizePages - f.leafPages);
    const fanout = this.fanout(f);
    const height = f.levels ?? (f.leafPages <= 1 ? 1 : 1 + Math.ceil(Math.log(f.leafPages) / Math.log(fanout)));
    const levels = Math.max(0, Math.min(height - 2, nonLeaf - 1));
    // Pages per node level, top first: a level above the leaves holds leaves / fanout^j of them, within
    // the non-leaf pages the statistics count.
    const perLevel: number[] = [];
    let budget = nonLeaf - 1;
    for (let j = levels; j >= 1; j--) {
      const pages = Math.max(1, Math.min(Math.ceil(f.leafPages / fanout ** j), budget - (j - 1)));
      perLevel.push(pages);
      budget -= pages;
    }
    const nodeCount = perLevel.reduce((a, b) => a + b, 0);
    const modelledNodes = Array.from({ length: nodeCount }, (_, k) => base + 4 + k);
    const fragmentStart = 4 + nodeCount;
    const offset = this.secondaryOffset(i);
    // Long values stored off the rows' pages were allocated from the same segment as the leaves, between them.
    const spread = segmentPagesPerLeaf(f);
    const layoutLeaf = (k: number) => base + (k < FRAGMENT_PAGES ? fragmentStart + k : 64 + offset + Math.floor((k - FRAGMENT_PAGES) * spread));
    // A cached index has its root and node pages cached (every access passes them), and a B-tree's
    // first pages are those: the lowest cached page numbers stand for them.
    const all = this.cachedPages(i);
    const root = all.length > 0 ? all[0] : base + 3;
    const nodes = all.length > nodeCount ? all.slice(1, 1 + nodeCount) : modelledNodes;
    const firsts = perLevel.map((_, j) => perLevel.slice(0, j).reduce((a, b) => a + b, 0));
    const internal = firsts.map((o) => nodes[o]);
    const leafCount = Math.max(1, f.leafPages);
    // A tree grown by inserts in random key order took each new leaf where a split found free space: its
    // leaves in key order lie anywhere in the file (slots shuffled); a sorted build or ascending inserts
    // lay them out in key order.
    const slots = scatteredLeaves(f, this.pageSize) ? shuffled(leafCount, seedOf([f.reportName, 'leaf order'])) : undefined;
    const slotOf = (k: number) => (slots ? slots[Math.min(Math.max(0, k), leafCount - 1)] : k);
    // In a tree laid out in key order a cached page the layout lacks takes the first places left (a range cached
    // from the index's start lies there); in one whose leaves lie anywhere, its first access tells where.
    const map = leafMap(f, (k) => layoutLeaf(slotOf(k)), all.slice(1 + nodes.length), slots ? this.firstAccess : new Map());
    const swaps = offPageSwaps(
      map,
      (k) => layoutLeaf(slotOf(k)),
      spread > 1 ? [base + 64 + offset, layoutLeaf(leafCount - 1) + Math.round(spread) - 1] : undefined,
    );
    const offPage = (k: number) => offPagesAfter(layoutLeaf, slotOf(k), leafCount, spread);
    const ascending = ascendingKeyLayout(f, this.pageSize);
    // Leaf k's ancestor at a level of n pages: under an ascending fill, as its splits left them; otherwise
    // the (k · n / leaves)-th, nodes splitting the key order evenly.
    const ancestors = (leaf: number): number[] => {
      const k = Math.min(Math.max(0, leaf), leafCount - 1);
      if (!ascending) return perLevel.map((n) => Math.min(n - 1, Math.floor((k * n) / leafCount)));
      const out: number[] = [];
      let child = k;
      for (let j = perLevel.length - 1; j >= 0; j--) out[j] = child = Math.min(perLevel[j] - 1, ascending.parentOf(child));
      return out;
    };
    return {
      root,
      internal,
      nodes,
      pathTo: (k) => ancestors(k).map((a, j) => nodes[firsts[j] + a]),
      nodesBetween: (a, b) => {
        const [x, y] = [ancestors(a), ancestors(b)];
        return x.map((from, j) => Array.from({ length: Math.max(0, y[j] - from - 1) }, (_, d) => nodes[firsts[j] + from + 1 + d]));
      },
      leaves: (k) => map[Math.min(Math.max(0, k), map.length - 1)],
      offPage: swaps.size > 0 ? (k) => offPage(k).map((p) => swaps.get(p) ?? p) : offPage,
      lastLeaf: map[map.length - 1],
      newPages: base + NEW_PAGES,
      ...(slots ? { scattered: true } : {}),
    };
  }

  /** The index's pages cached before run 1, as simulated page ids in ascending order. */
  cachedPages(i: number): number[] {
    const out: number[] = [];
    for (const [s, e] of this.facts[i].cachedBefore) for (let p = s; p <= e; p++) out.push(i * SPACE + p);
    return out.sort((a, b) => a - b);
  }

  leafFill(f: InnodbIndexFacts): number {
    return leafFill(f, this.pageSize);
  }

  /**
   * Node pointers per non-leaf page: the key (with the primary key for a secondary index) plus a child
   * pointer, at the fill the leaves have, which decides the height.
   */
  private fanout(f: InnodbIndexFacts): number {
    const usable = usableBytes(this.pageSize);
    return Math.max(2, Math.floor((usable * this.leafFill(f)) / (Math.max(1, f.keyBytes) + NODE_POINTER_OVERHEAD)));
  }

  /** Secondary indexes are placed after the clustered one (and the table's earlier ones), in whole extents. */
  private secondaryOffset(i: number): number {
    const f = this.facts[i];
    return f.clustered
      ? 0
      : this.facts.filter((g, j) => j < i && g.table === f.table).reduce((a, g) => a + Math.ceil((g.sizePages + (g.offPagePages ?? 0)) / 64) * 64, 0);
  }

  /**
   * Whether a cached page is the index's own: its modelled layout and the pages it had cached, and the
   * pages its inserts created while they live. Read-ahead also brings in free pages of the file, which
   * belong to no index.
   */
  ownPages(i: number, createdPagesLive: boolean): (p: number) => boolean {
    const f = this.facts[i];
    const l = this.of(i);
    let cached = this.cachedSets.get(i);
    if (!cached) {
      cached = new Set(this.cachedPages(i));
      this.cachedSets.set(i, cached);
    }
    const set = cached;
    const base = i * SPACE;
    const fragmentEnd = base + 4 + l.nodes.length + Math.min(FRAGMENT_PAGES, f.leafPages) - 1;
    const extentStart = base + 64 + this.secondaryOffset(i);
    const last = extentStart + Math.ceil(Math.max(0, f.leafPages - FRAGMENT_PAGES) * segmentPagesPerLeaf(f)) - 1;
    // A clustered index's appended pages are freed by a rollback; a secondary index's split pages stay.
    const created = !f.clustered || createdPagesLive ? l.newPages : -1;
    return (p) => set.has(p) || (p >= base + 3 && p <= fragmentEnd) || (p >= extentStart && p <= last) || (created >= 0 && p >= created);
  }
}

/**
 * Pages of the leaf segment's extents per leaf of rows placed there: more than one where long values take
 * pages between the leaves (all of them: the first leaves are the segment's fragment pages).
 */
function segmentPagesPerLeaf(f: InnodbIndexFacts): number {
  const inExtents = f.leafPages - FRAGMENT_PAGES;
  return inExtents > 0 && (f.offPagePages ?? 0) > 0 ? (inExtents + f.offPagePages!) / inExtents : 1;
}

/** The pages between leaf k's place in the layout and the next leaf's (the last leaf: to the segment's end). */
function offPagesAfter(layoutLeaf: (k: number) => number, k: number, leaves: number, spread: number): number[] {
  if (spread <= 1 || k < FRAGMENT_PAGES || k >= leaves) return [];
  const from = layoutLeaf(k) + 1;
  const to = k + 1 < leaves ? layoutLeaf(k + 1) : layoutLeaf(k) + Math.round(spread);
  // A plain loop: this runs for every leaf of every full scan, where Array.from's callback dominated the replay.
  const out: number[] = [];
  for (let p = from; p < to; p++) out.push(p);
  return out;
}

/**
 * A clustered index whose leaves average what inserts in random key order leave (from scatteredFillFrom to
 * randomFillTo) grew so (a UUID or a composite key's rows arriving in another order); an AUTO_INCREMENT key
 * appends, and secondary indexes are built sorted. Measured on MariaDB 10.11 (the schema corpus): full
 * scans of such clustered indexes (fills 0.57-0.72) read no page ahead, where tables filled in key order
 * (0.89-0.93) read ahead as linear read-ahead does, and so did one whose every page a committed update of
 * growing rows split in key order (0.51: the halves' new pages were allocated in key order too).
 */
function scatteredLeaves(f: InnodbIndexFacts, pageSize: number): boolean {
  if (!f.clustered || f.autoIncrementKey || f.leafPages <= 1 || f.rows <= 0) return false;
  const fill = leafFill(f, pageSize);
  return fill >= INNODB_CALIBRATION.scatteredFillFrom && fill < INNODB_CALIBRATION.randomFillTo;
}

/**
 * Cached pages the leaf map took for leaves where the layout keeps long values (`extents`: where it places
 * leaves and long values, spread between them): each is the index's page (residency names no long value's
 * page), so the long value whose place it took moves to the page of the leaf it stands for. Without it one
 * simulated page was a cached leaf and a cached long value at once.
 */
function offPageSwaps(map: Int32Array, layoutLeaf: (k: number) => number, extents: [number, number] | undefined): Map<number, number> {
  const out = new Map<number, number>();
  if (!extents) return out;
  for (let k = 0; k < map.length; k++) {
    const own = layoutLeaf(k);
    if (map[k] !== own && map[k] >= extents[0] && map[k] <= extents[1]) out.set(map[k], own);
  }
  return out;
}

/** The numbers 0 … n − 1 in an order drawn from `seed` (Fisher-Yates). */
function shuffled(n: number, seed: number): Int32Array {
  const out = Int32Array.from({ length: n }, (_, k) => k);
  const random = new SeededRandom(seed);
  for (let k = n - 1; k > 0; k--) {
    const j = random.int(k + 1);
    [out[k], out[j]] = [out[j], out[k]];
  }
  return out;
}

/**
 * Leaf k in key order → page. The modelled layout, except that cached pages it does not place (an index
 * grown in random key order has its leaves anywhere in the file) take the places of uncached layout
 * leaves, so that as many leaves are cached as the residency snapshot showed.
 */
function leafMap(f: InnodbIndexFacts, layoutLeaf: (k: number) => number, cachedLeaves: number[], firstAccess: ReadonlyMap<number, number>): Int32Array {
  const n = Math.max(1, f.leafPages);
  const map = new Int32Array(n);
  const cached = new Set(cachedLeaves);
  const placed = new Set<number>();
  for (let k = 0; k < n; k++) {
    map[k] = layoutLeaf(k);
    if (cached.has(map[k])) placed.add(map[k]);
  }
  // A cached page the layout has is where the layout puts it; where the others lie their numbers do not tell.
  const open: number[] = [];
  for (let k = 0; k < n; k++) if (!placed.has(map[k])) open.push(k);
  const foreign = cachedLeaves.filter((p) => !placed.has(p));
  const slots = cachedLeafSlots(foreign, firstAccess, open.length);
  foreign.forEach((p, j) => {
    if (slots[j] !== undefined) map[open[slots[j]!]] = p;
  });
  return map;
}
