// Secondary-index leaves that fill and split as inserts write into them (btr_page_split_and_insert: a
// key in random order splits a full page at its middle, into the page and a new one). Each leaf starts
// with the free room of a page at a fill drawn around the index's average, as pages filled in random key
// order range from half full to full; a key of a split leaf's range then lands on either half.
import { SeededRandom } from '../../sim/random';
import { INNODB_CALIBRATION } from './calibration';

/**
 * Entries of `entryBytes` a page holds at the merge limit: half the page's size in record data
 * (BTR_CUR_PAGE_COMPRESS_LIMIT at the default merge_threshold of 50 %; page_get_data_size counts the records,
 * not the page's header or directory). A page split in two from full holds a little less in each half.
 */
/**
 * Average fills that come from inserts in random key order (ln 2 ≈ 0.69, Yao's analysis; the gate's ends are
 * in the calibration file): such a tree's pages hold from half a page to a full one, a page of n records
 * being as many as the inserts that grew it from n/2 allow, so their number falls as 1/n (each record's page
 * is entered in proportion to its records): a page's fill is drawn as 2^u / 2, and an insert meets a full page
 * once in about 1.44/capacity.
 */
const RANDOM_FILL: [number, number] = [INNODB_CALIBRATION.randomFillFrom, INNODB_CALIBRATION.randomFillTo];

export function mergeLimit(entryBytes: number, pageSize: number): number {
  return pageSize / 2 / Math.max(1, entryBytes);
}

export class LeafSplits {
  private readonly free = new Map<number, number>();
  private readonly pagesOf = new Map<number, number[]>();
  private readonly random: SeededRandom;
  private created = 0;

  constructor(
    /** Entries a leaf page holds when full. */
    private readonly capacity: number,
    /** The index's average leaf fill, 0.5–1. */
    private readonly fill: number,
    /** Where the pages splits create are numbered. */
    private readonly newBase: number,
    private readonly leafPage: (k: number) => number,
    seed: number,
    /** The share of leaves that are full (a sorted build, see fullLeafShare); the rest are half full. */
    private readonly fullShare?: number,
    /** Entries below which a page is under the merge limit (mergeLimit). */
    private readonly limit = capacity / 2,
    /** The index's cached pages counted by fill (cachedFills): where given, each page's fill is drawn from them. */
    private readonly fills?: number[],
  ) {
    this.random = new SeededRandom(seed);
  }

  get splits(): number {
    return this.created;
  }

  /** The page a key in leaf k's range lands on now. */
  pageFor(k: number): number {
    const pages = this.pagesOf.get(k);
    return pages ? pages[this.random.int(pages.length)] : this.leafPage(k);
  }

  /** One entry written into the page itself; when it was full, the page splits: the new page, else -1. */
  apply(k: number, page: number): number {
    const room = this.free.get(page) ?? this.initialRoom();
    if (room > 0) {
      this.free.set(page, room - 1);
      return -1;
    }
    const added = this.newBase + this.created++;
    const half = Math.floor(this.capacity / 2);
    this.free.set(page, half - 1);
    this.free.set(added, half);
    const pages = this.pagesOf.get(k) ?? [this.leafPage(k)];
    pages.push(added);
    this.pagesOf.set(k, pages);
    return added;
  }

  /**
   * One entry removed again (a rollback, newest first) from a page an entry was written into: whether the
   * page is then below the merge limit (btr_cur_can_delete_without_compress: less than half a page of data,
   * BTR_CUR_PAGE_COMPRESS_LIMIT at the default merge_threshold of 50 %), which makes InnoDB delete it
   * pessimistically and try to merge the page with a neighbour. Pages whose entries were buffered are not
   * tracked (false).
   */
  removeBelowLimit(page: number): boolean {
    const room = this.free.get(page);
    if (room === undefined) return false;
    this.free.set(page, room + 1);
    return this.capacity - room - 1 < this.limit;
  }

  /** A split's new page merged back into the page it came from as the rollback empties it. */
  merged(page: number, added: number): void {
    const a = this.free.get(page);
    const b = this.free.get(added);
    if (a === undefined || b === undefined) return;
    this.free.set(page, Math.max(0, a - (this.capacity - b)));
    this.free.delete(added);
  }

  /**
   * The room of a page: as the index's cached pages are filled, where they were read; full or half full
   * where the share of full leaves is known; otherwise drawn uniformly on an interval with the index's
   * average fill as its middle.
   */
  private initialRoom(): number {
    if (this.fills) return this.roomAsCached(this.fills);
    if (this.fullShare !== undefined) return this.random.next() < this.fullShare ? 0 : Math.floor(this.capacity / 2);
    if (this.fill >= RANDOM_FILL[0] && this.fill < RANDOM_FILL[1]) {
      const f = 0.5 * 2 ** this.random.next();
      return Math.max(0, Math.floor(this.capacity * (1 - f)));
    }
    const low = this.fill >= 0.75 ? 2 * this.fill - 1 : 0.5;
    const high = this.fill >= 0.75 ? 1 : 2 * this.fill - 0.5;
    const f = low + this.random.next() * (high - low);
    return Math.max(0, Math.floor(this.capacity * (1 - f)));
  }

  /** A page's room as the cached pages' fills have it: the last bin full, the others anywhere in their span. */
  private roomAsCached(fills: number[]): number {
    const total = fills.reduce((a, b) => a + b, 0);
    let pick = this.random.next() * total;
    let bin = 0;
    while (bin < fills.length - 1 && pick >= fills[bin]) pick -= fills[bin++];
    if (bin === fills.length - 1) return 0;
    const f = (bin + this.random.next()) / fills.length;
    return Math.max(0, Math.floor(this.capacity * (1 - f)));
  }
}
