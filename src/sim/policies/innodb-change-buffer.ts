// The InnoDB change buffer's bookkeeping (ibuf0ibuf.cc): entries buffered per leaf page, the tree's size
// in pages against its cap (innodb_change_buffer_max_size % of the pool), the per-page volume the free
// bits allow, and which pages a contraction merges (8-page merge areas around a random entry). The pool
// model decides when to try buffering and performs the page reads a merge needs.
import { SeededRandom } from '../random';

/** IBUF_MERGE_AREA: a contraction merges the pages of one area of this many page numbers. */
const MERGE_AREA = 8;
/** IBUF_CONTRACT_DO_NOT_INSERT: pages over the cap at which an insert is refused and the tree contracted. */
const CONTRACT_DO_NOT_INSERT = 10;

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
    /** Entries one leaf page's free bits admit (ibuf_index_page_calc_free_from_bits). */
    private readonly perLeafLimit: number,
  ) {}

  /** ibuf_insert_low: buffers one insert for a leaf page that is not in the pool, when the rules allow. */
  tryAdd(page: number): BufferAttempt {
    if (this.maxPages === 0 || this.treePages >= this.maxPages + CONTRACT_DO_NOT_INSERT) {
      this.refusedTooBig++;
      return { buffered: false, tooBig: this.maxPages > 0 };
    }
    const n = this.pending.get(page) ?? 0;
    if (n + 1 > this.perLeafLimit) {
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
