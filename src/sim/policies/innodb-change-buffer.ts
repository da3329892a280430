// The InnoDB change buffer's bookkeeping (ibuf0ibuf.cc): entries buffered per leaf page, the size cap
// (innodb_change_buffer_max_size % of the pool), merge areas of 8 pages, and the counters. The pool model
// decides when to buffer and performs the page reads a merge needs.

const MERGE_AREA = 8;

export class ChangeBuffer {
  private readonly pending = new Map<number, number>();
  private entries = 0;
  merges = 0;
  mergedEntries = 0;
  mergeReads = 0;

  constructor(
    private readonly maxPages: number,
    private readonly entriesPerPage: number,
  ) {}

  /** Buffers one entry for a leaf page; true when the buffer has reached its cap and must contract. */
  add(page: number): boolean {
    this.pending.set(page, (this.pending.get(page) ?? 0) + 1);
    this.entries++;
    return Math.ceil(this.entries / this.entriesPerPage) >= this.maxPages;
  }

  /** Applies a page's buffered entries (its leaf page is now in the pool). */
  merge(page: number): void {
    if (this.pending.size === 0) return;
    const n = this.pending.get(page);
    if (n === undefined) return;
    this.pending.delete(page);
    this.entries -= n;
    this.merges++;
    this.mergedEntries += n;
  }

  /** The pages of the oldest buffered page's merge area that have entries: what one contraction merges. */
  nextMergeArea(): number[] {
    const first = this.pending.keys().next();
    if (first.done) return [];
    const low = Math.floor(first.value / MERGE_AREA) * MERGE_AREA;
    const out: number[] = [];
    for (let q = low; q < low + MERGE_AREA; q++) if (this.pending.has(q)) out.push(q);
    return out;
  }

  get pendingEntries(): number {
    return this.entries;
  }
}
