// Secondary-index leaves that fill and split as inserts write into them (btr_page_split_and_insert: a
// key in random order splits a full page at its middle, into the page and a new one). Each leaf starts
// with the free room of a page at a fill drawn around the index's average, as pages filled in random key
// order range from half full to full; a key of a split leaf's range then lands on either half.
import { SeededRandom } from '../../sim/random';

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
   * The room of a page: full or half full where the share of full leaves is known, otherwise drawn
   * uniformly on an interval with the index's average fill as its middle.
   */
  private initialRoom(): number {
    if (this.fullShare !== undefined) return this.random.next() < this.fullShare ? 0 : Math.floor(this.capacity / 2);
    const low = this.fill >= 0.75 ? 2 * this.fill - 1 : 0.5;
    const high = this.fill >= 0.75 ? 1 : 2 * this.fill - 0.5;
    const f = low + this.random.next() * (high - low);
    return Math.max(0, Math.floor(this.capacity * (1 - f)));
  }
}
