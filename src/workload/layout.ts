// Where a key's pages are, engine-neutral: a B-tree as the page ids from its root to the leaf holding a
// key, and a table as the page holding a row. Positions are fractions of the key range (0 ≤ f < 1), which
// is how a key of a dense numeric column (pgbench's aid, sysbench's id) maps on a freshly built index.
// Each engine builds these from its catalogs (postgres-model.ts, innodb-model.ts).

export interface IndexPath {
  /** Relation or index name, for notes. */
  name: string;
  /** Pushes the page ids from the root to the leaf holding the key at fraction f. */
  path(f: number, out: number[]): void;
  /** The leaf holding the key at fraction f (its number in key order). */
  leafNumber(f: number): number;
  /** Page id of leaf k in key order. */
  leaf(k: number): number;
  leafPages: number;
  /** Entries per leaf page. */
  perLeaf: number;
  /**
   * Leaves with no room (InnoDB's sorted index build fills secondary leaves completely): the first insert
   * into each splits it, the upper half of its keys moving to a new page.
   */
  splits?: LeafSplitPages;
}

export interface LeafSplitPages {
  /** The page a split of leaf k creates. */
  newPage(k: number): number;
  /** The split's page requests beyond the insert's own descent (the leaf's neighbours, the file's header, the parent). */
  requests(k: number, out: number[]): void;
  /** A removal from a split (half-full) leaf takes the tree path and tries to merge it with a neighbour: its requests. */
  merge(k: number, out: number[]): void;
}

export interface TableLayout {
  name: string;
  pages: number;
  rows: number;
  /** Page id of the k-th page (block k of a heap, leaf k of a clustered index). */
  page(k: number): number;
  /** True when the rows lie in the order of the key the workload looks them up by. */
  correlated: boolean;
}

/** Where a key value falls in [min, max], as a fraction in [0, 1); NaN outside the range. */
export function keyFraction(value: number, min: number, max: number): number {
  if (!(value >= min && value <= max)) return Number.NaN;
  return max > min ? (value - min) / (max - min + 1) : 0;
}

/** A stable pseudo-random fraction for a key (and the j-th row of that key): where an uncorrelated row lives. */
export function scatter(key: number, j = 0): number {
  let h = Math.imul((key | 0) ^ Math.imul((key / 4294967296) | 0, 0x27d4eb2d), 0x9e3779b1) ^ Math.imul(j + 1, 0x85ebca6b);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** A B-tree laid out as a fresh build lays it out: levels above the leaves with fan-out `fanout`. */
export function btreePath(
  name: string,
  leafPageIds: (k: number) => number,
  internalPageId: (level: number, k: number) => number,
  leafPages: number,
  perLeaf: number,
  fanout: number,
): IndexPath {
  const levels: number[] = []; // pages per level above the leaves, root last
  for (let n = leafPages; n > 1;) {
    n = Math.ceil(n / fanout);
    levels.push(n);
  }
  const leafNumber = (f: number): number => Math.min(leafPages - 1, Math.max(0, Math.floor(f * leafPages)));
  return {
    name,
    leafPages,
    perLeaf,
    leafNumber,
    leaf: (k) => leafPageIds(Math.min(leafPages - 1, Math.max(0, k))),
    path(f, out) {
      for (let level = levels.length - 1; level >= 0; level--) out.push(internalPageId(level, Math.min(levels[level] - 1, Math.floor(f * levels[level]))));
      out.push(leafPageIds(leafNumber(f)));
    },
  };
}
