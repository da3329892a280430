// The InnoDB change buffer's bookkeeping (ibuf0ibuf.cc): entries buffered per leaf page, the tree's size
// in pages against its cap (innodb_change_buffer_max_size % of the pool), the per-page volume the free
// bits allow, and which pages a contraction merges (8-page merge areas around a random entry). The pool
// model decides when to try buffering and performs the page reads a merge needs.
import { SeededRandom } from '../random';

/** IBUF_MERGE_AREA: a contraction merges the pages of one area of this many page numbers. */
const MERGE_AREA = 8;
/** IBUF_CONTRACT_DO_NOT_INSERT: pages over the cap at which an insert is refused and the tree contracted. */
const CONTRACT_DO_NOT_INSERT = 10;

/** What a leaf page's free space admits: its leaves' free bytes and one entry's volume (record and slot). */
export interface LeafSpace {
  freeBytes: number;
  entryBytes: number;
  pageSize: number;
}

/**
 * ibuf_index_page_calc_free_bits, then ibuf_index_page_calc_free_from_bits: the 2-bit free-space class of
 * a page in 1/32 pages (3/32 is rounded down to 2, and 3 means 4/32 or more), back in bytes.
 */
export function freeBitsBytes(freeBytes: number, pageSize: number): number {
  const unit = pageSize / 32;
  let n = Math.floor(Math.max(0, freeBytes) / unit);
  if (n === 3) n = 2;
  if (n > 3) n = 3;
  return (n === 3 ? 4 : n) * unit;
}

export type BufferAttempt =
  /** Buffered; `grew` when the tree took a new page, `contract` when that left it at its cap (ibuf_contract_after_insert). */
  | { buffered: true; grew: boolean; contract: boolean }
  /** Refused: the tree is `tooBig` (the caller contracts first), or the page's free bits are used up. */
  | { buffered: false; tooBig: boolean };

export class ChangeBuffer {
  private readonly pending = new Map<number, number>();
  /** Pages with entries, for drawing a random one (btr_pcur_open_at_rnd_pos) in O(1). */
  private readonly pages: number[] = [];
  private readonly slot = new Map<number, number>();
  private readonly random = new SeededRandom(8);
  /** Entries applied to each leaf page by this simulation (merged or inserted directly), less those removed. */
  private readonly applied = new Map<number, number>();
  private entries = 0;
  private treePages = 1;
  merges = 0;
  mergedEntries = 0;
  mergeReads = 0;
  refusedTooBig = 0;
  refusedFull = 0;

  constructor(
    readonly maxPages: number,
    private readonly entriesPerPage: number,
    /** The leaves' free space; without it, any number of entries fits. */
    private readonly leaf?: LeafSpace,
  ) {}

  /** ibuf_insert_low's check: the buffered volume plus this entry must fit in what the free bits promise. */
  private fits(page: number, buffered: number): boolean {
    if (!this.leaf) return true;
    const { freeBytes, entryBytes, pageSize } = this.leaf;
    const free = freeBytes - (this.applied.get(page) ?? 0) * entryBytes;
    return (buffered + 1) * entryBytes + 1 <= freeBitsBytes(free, pageSize);
  }

  /** An entry written to the leaf itself (the page was in the pool). */
  applyDirect(page: number): void {
    if (this.leaf) this.applied.set(page, (this.applied.get(page) ?? 0) + 1);
  }

  /** An entry removed from the leaf (a rollback or a delete). */
  remove(page: number): void {
    const n = this.applied.get(page);
    if (n !== undefined) this.applied.set(page, Math.max(0, n - 1));
  }

  /** ibuf_insert_low: buffers one insert for a leaf page that is not in the pool, when the rules allow. */
  tryAdd(page: number): BufferAttempt {
    if (this.maxPages === 0 || this.treePages >= this.maxPages + CONTRACT_DO_NOT_INSERT) {
      this.refusedTooBig++;
      return { buffered: false, tooBig: this.maxPages > 0 };
    }
    const n = this.pending.get(page) ?? 0;
    if (!this.fits(page, n)) {
      this.refusedFull++;
      return { buffered: false, tooBig: false };
    }
    if (n === 0) {
      this.slot.set(page, this.pages.length);
      this.pages.push(page);
    }
    this.pending.set(page, n + 1);
    this.entries++;
    const pagesNeeded = Math.max(1, Math.ceil(this.entries / this.entriesPerPage));
    const grew = pagesNeeded > this.treePages;
    if (grew) this.treePages = pagesNeeded;
    return { buffered: true, grew, contract: grew && this.treePages >= this.maxPages };
  }

  /** Applies a page's buffered entries (its leaf page is now in the pool); whether it had any. */
  merge(page: number): boolean {
    const n = this.pending.get(page);
    if (n === undefined) return false;
    this.pending.delete(page);
    const i = this.slot.get(page)!;
    const last = this.pages.pop()!;
    if (last !== page) {
      this.pages[i] = last;
      this.slot.set(last, i);
    }
    this.slot.delete(page);
    this.entries -= n;
    if (this.leaf) this.applied.set(page, (this.applied.get(page) ?? 0) + n);
    // Merged entries leave holes in the tree's pages, which are merged with a neighbour only once under
    // half full (BTR_CUR_PAGE_COMPRESS_LIMIT) and freed when empty; entries keep arriving everywhere, so
    // the size ibuf_size_update reports falls only once the pages average a quarter full.
    const quarterFull = this.entriesPerPage / 4;
    if (this.entries < this.treePages * quarterFull) this.treePages = Math.max(1, Math.ceil(this.entries / quarterFull));
    this.merges++;
    this.mergedEntries += n;
    return true;
  }

  /** ibuf_merge_pages with contract=TRUE: the pages with entries in the merge area of a random entry's page. */
  nextMergeArea(): number[] {
    if (this.pages.length === 0) return [];
    const at = this.pages[this.random.int(this.pages.length)];
    const low = Math.floor(at / MERGE_AREA) * MERGE_AREA;
    const out: number[] = [];
    for (let q = low; q < low + MERGE_AREA; q++) if (this.pending.has(q)) out.push(q);
    return out;
  }

  has(page: number): boolean {
    return this.pending.has(page);
  }

  get pendingEntries(): number {
    return this.entries;
  }

  /** The tree's pages (ibuf.size), including the ones still holding merged-away space. */
  get sizePages(): number {
    return this.treePages;
  }
}
