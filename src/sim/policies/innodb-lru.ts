// InnoDB's buffer pool (MySQL 8.0/8.4 buf0lru.cc, buf0buf.cc, buf0rea.cc; MariaDB 10.11 differences):
// - the LRU list with its old sublist (innodb-lru-list.ts), its frames and the page cleaner (innodb-frames.ts);
// - a page is made young only after the first eviction since start-up; an old page only when
//   innodb_old_blocks_time ms have passed since its first access (on a simulated clock); a young page only
//   when it has drifted a quarter of the young list towards the tail (the freed_page_clock rule);
// - linear read-ahead: the first access to the border page of a 64-page area whose pages were accessed in
//   order (at most 64 − threshold misses; MariaDB one fewer) reads the neighbouring area asynchronously;
//   random read-ahead (off by default) reads the rest of an area with 13 recently used pages;
// - the change buffer (innodb-change-buffer.ts): its pages live in the pool; entries merge when the page is
//   read, when the tree is at its cap, and on MySQL only in the background (MariaDB 10.5 removed that);
// - MariaDB 10.5+'s page cleaner keeps free pages: once the LRU holds more than 256 pages and fewer than
//   innodb_lru_scan_depth / 2 are free (buf_pool_t::need_LRU_eviction), buf_flush_LRU_list_batch evicts
//   from the tail until innodb_lru_scan_depth pages are free or the LRU is down to 5 % of the pool; a dirty
//   page is written and evicted when its write completes, so while the batch runs it still counts as in the
//   LRU and the batch goes on towards the head: with most pages dirty, it empties the pool. Woken on
//   demand, by the thread that takes a free page when too few are left (measured under sysbench at 32-96
//   MiB: 1,113-1,171 of 1,536 pages free on average; a scan a little larger than the pool read 2,865
//   pages on its second run, which a once-a-second wake-up put at 1,361). A batch passes over pages read
//   ahead that the scan has not reached yet (still read-fixed: their asynchronous reads complete as the
//   scan gets there), so in a pool under 1.5 × the scan depth a full scan reads the table once per run,
//   as measured (read_ahead_evicted stayed 0).
// - MariaDB: the first request for a secondary-index leaf read from disk fetches its tablespace's
//   change-buffer bitmap page (ibuf_merge_or_delete_for_page), whatever innodb_change_buffering says:
//   measured, a cold 20,000-row covering range took 18 gets more than warm for 18 leaves read.
// Counters carry the status-variable names, with MariaDB's _reads including read-ahead pages.
import { ChangeBuffer } from './innodb-change-buffer';
import { SeededRandom } from '../random';
import type { BufferPoolModel } from '../types';
import { InnodbFrames } from './innodb-frames';
import type { InnodbPoolOptions } from './innodb-pool-options';

export type { InnodbPoolOptions };

/** Where the change buffer's own pages (system tablespace) are numbered in the simulation. */
export const IBUF_PAGE_BASE = 0x7e000000;
/** The change-buffer bitmap page of the simulated indexes' tablespace (one per 16,384 pages: here, one). */
const IBUF_BITMAP_PAGE = IBUF_PAGE_BASE - 1;

export class InnodbPool extends InnodbFrames implements BufferPoolModel {
  readonly name = 'innodb';
  private readonly tolerance: number;
  private readonly spaceEnd: (page: number) => number;
  private readonly randomReadAhead: boolean;
  private readonly ibufBitmapOf: ((page: number) => number) | undefined;
  private readonly product: 'mysql' | 'mariadb';
  // counters
  private requests = 0;
  private syncReads = 0;
  private readAhead = 0;
  private readAheadRnd = 0;
  // change buffer
  private readonly changeBuffering: boolean;
  private readonly ibuf: ChangeBuffer;
  /** Page requests between two background merges. */
  private readonly backgroundMergeInterval: number;
  private nextBackgroundMerge: number;
  private readonly ibufRandom = new SeededRandom(5);
  private readonly spaceOf: ((page: number) => number) | undefined;
  /** Per tracked space: gets, synchronous reads, pages read ahead. */
  private readonly perSpace: Array<[number, number, number]> = [];

  constructor(capacity: number, options: InnodbPoolOptions = {}) {
    super(capacity, options);
    this.product = options.product ?? 'mysql';
    this.spaceOf = options.spaceOf;
    const threshold = options.readAheadThreshold ?? 56;
    this.tolerance = threshold === 0 ? -1 : Math.min(64 - threshold, this.area);
    const spacePages = options.spacePages ?? Number.MAX_SAFE_INTEGER;
    this.spaceEnd = options.spaceEnd ?? (() => spacePages);
    this.randomReadAhead = options.randomReadAhead ?? false;
    this.ibufBitmapOf = options.ibufBitmapOf;
    this.changeBuffering = (options.changeBuffering ?? 'none') !== 'none';
    this.ibuf = new ChangeBuffer(Math.floor((capacity * (options.changeBufferMaxPct ?? 25)) / 100), options.entriesPerIbufPage ?? 300, options.leafSpace);
    const perSecond = options.backgroundMergesPerSecond ?? (this.product === 'mariadb' ? 0 : 10);
    this.backgroundMergeInterval = perSecond > 0 ? Math.max(1, Math.round(1000 / perSecond / this.tick)) : Infinity;
    this.nextBackgroundMerge = this.backgroundMergeInterval;
    // ibuf_init_at_db_start reads the tree's root at start-up.
    if (this.changeBuffering) this.preload(IBUF_PAGE_BASE);
  }

  /** One page get (Buf_fetch), as a B-tree walk makes it; true when the page was cached. */
  access(p: number): boolean {
    if (this.cleanerTrigger !== 0) this.cleanLru();
    this.now++;
    this.requests++;
    let s = this.table.get(p);
    const hit = s >= 0;
    if (this.spaceOf) this.countSpace(p, hit ? 1 : 0, hit ? 0 : 1, 0);
    if (!hit) {
      this.syncReads++;
      s = this.readIn(p);
      // Entries are only ever buffered with change buffering on.
      if (this.changeBuffering) this.ibuf.merge(p);
      if (this.randomReadAhead) this.randomAhead(p);
    }
    const first = this.accessTime[s] === 0;
    if (first) this.accessTime[s] = this.now;
    if (this.freedPageClock !== 0) this.makeYoungIfNeeded(s);
    // Only the first access to an area's first or last page can trigger linear read-ahead (areas are powers of 2).
    if (first && this.tolerance >= 0) {
      const r = p & (this.area - 1);
      if (r === 0 || r === this.area - 1) this.linearAhead(p);
    }
    // The first request after a read (synchronous or ahead) checks the change buffer's bitmap.
    if (first && this.ibufBitmapOf) {
      const bitmap = this.ibufBitmapOf(p);
      if (bitmap >= 0) this.access(bitmap);
    }
    if (this.changeBuffering && this.now >= this.nextBackgroundMerge) this.backgroundMerge();
    return hit;
  }

  /**
   * A modification of a secondary-index leaf page. `bufferable`: the index may use the change buffer
   * (secondary, non-unique unless unique_checks=0, not spatial, no DESC part, not temporary).
   */
  modifySecondaryLeaf(p: number, bufferable: boolean): boolean {
    if (this.changeBuffering && bufferable && this.table.get(p) < 0) {
      this.now++;
      this.requests++; // the IF_IN_POOL attempt is a page get
      const attempt = this.ibuf.tryAdd(p);
      if (attempt.buffered) {
        this.touchIbufTree(attempt.grew);
        if (attempt.contract) this.contract();
        if (this.now >= this.nextBackgroundMerge) this.backgroundMerge();
        return false;
      }
      // Refused: a tree over its cap contracts first; either way the page is then read as usual.
      if (attempt.tooBig) this.contract();
    }
    const hit = this.modify(p);
    this.ibuf.applyDirect(p);
    return hit;
  }

  /** The removal of a secondary-index entry from its leaf (a rollback's), read if not cached. */
  removeSecondaryEntry(p: number): boolean {
    const hit = this.modify(p);
    this.ibuf.remove(p);
    return hit;
  }

  /** The change buffer tree's root and the leaf an entry goes to; a page it grew by is created. */
  /**
   * ibuf_insert_low's page requests: the index's change-buffer bitmap page (ibuf_bitmap_get_map_page),
   * then the tree opened in BTR_MODIFY_PREV mode, which latches the leaf before the insert position too:
   * the root, the previous leaf and the leaf the entry goes to.
   */
  private touchIbufTree(grew: boolean): void {
    const size = this.ibuf.sizePages;
    this.modify(IBUF_BITMAP_PAGE);
    // The root is page 0 of the tree; a tree of n pages has leaves 1 … n − 1.
    if (grew) this.create(IBUF_PAGE_BASE + size - 1);
    if (size > 1) {
      this.access(IBUF_PAGE_BASE);
      const leaf = 1 + this.ibufRandom.int(size - 1);
      if (leaf > 1) this.access(IBUF_PAGE_BASE + leaf - 1);
      this.modify(IBUF_PAGE_BASE + leaf);
    } else this.modify(IBUF_PAGE_BASE);
  }

  /** A page request that modifies the page (it becomes dirty). */
  modify(p: number): boolean {
    const hit = this.access(p);
    this.dirty[this.table.get(p)] = 1;
    return hit;
  }

  /** buf_page_create: a page allocated by a write enters at the young head without a read. */
  create(p: number): void {
    if (this.cleanerTrigger !== 0) this.cleanLru();
    if (this.table.get(p) >= 0) {
      this.access(p);
      return;
    }
    this.now++;
    const s = this.readIn(p);
    this.accessTime[s] = this.now;
    this.dirty[s] = 1;
    this.remove(s);
    this.add(s, false);
  }

  /** Merge one area: read its pages that are not cached, apply their entries. */
  private contract(): void {
    for (const q of this.ibuf.nextMergeArea()) {
      if (this.table.get(q) < 0) {
        this.ibuf.mergeReads++;
        this.readIn(q);
      }
      this.ibuf.merge(q);
      this.dirty[this.table.get(q)] = 1;
    }
  }

  private backgroundMerge(): void {
    while (this.now >= this.nextBackgroundMerge) {
      this.nextBackgroundMerge += this.backgroundMergeInterval;
      this.contract();
    }
  }

  /** buf_read_ahead_linear, with leaf pages linked in page order (FIL_PAGE_PREV/NEXT = p ∓ 1). */
  private linearAhead(p: number): void {
    const area = this.area;
    const low = Math.floor(p / area) * area;
    const high = low + area;
    if (p !== low && p !== high - 1) return;
    const end = this.spaceEnd(p);
    if (high > end) return;
    const descending = p === low;
    // MySQL gives up when failures exceed the tolerance; MariaDB counts the tolerance down to 0.
    const allowed = this.product === 'mariadb' ? this.tolerance - 1 : this.tolerance;
    let fail = 0;
    let predTime = -1;
    for (let i = low; i < high; i++) {
      const s = this.table.get(i);
      if (s < 0 || this.accessTime[s] === 0) fail++;
      else {
        if (predTime >= 0) {
          const t = this.accessTime[s];
          const c = t > predTime ? 1 : t < predTime ? -1 : 0;
          if (c !== 0 && c !== (descending ? -1 : 1)) fail++;
        }
        predTime = this.accessTime[s];
      }
      if (fail > allowed) return;
    }
    const target = descending ? p - 1 : p + 1;
    if (target < 0) return;
    const low2 = Math.floor(target / area) * area;
    const high2 = low2 + area;
    if (high2 > end) return;
    for (let i = low2; i < high2; i++) {
      if (this.table.get(i) < 0) {
        this.readAheadAt[this.readIn(i)] = this.now;
        this.readAhead++;
        if (this.spaceOf) this.countSpace(i, 0, 0, 1);
        if (this.changeBuffering) this.ibuf.merge(i);
      }
    }
  }

  /** buf_read_ahead_random: 5 + area/8 recently used pages of the area bring in the rest. */
  private randomAhead(p: number): void {
    const area = this.area;
    const low = Math.floor(p / area) * area;
    const high = Math.min(low + area, this.spaceEnd(p));
    let recent = 0;
    for (let i = low; i < high; i++) {
      const s = this.table.get(i);
      if (s >= 0 && this.accessTime[s] !== 0 && this.peekIfYoung(s)) recent++;
    }
    if (recent < 5 + area / 8) return;
    for (let i = low; i < high; i++) {
      if (this.table.get(i) < 0) {
        this.readAheadAt[this.readIn(i)] = this.now;
        this.readAheadRnd++;
        if (this.spaceOf) this.countSpace(i, 0, 0, 1);
      }
    }
  }

  run(trace: Int32Array): number {
    let hits = 0;
    for (let i = 0; i < trace.length; i++) if (this.access(trace[i])) hits++;
    return hits;
  }

  private countSpace(p: number, gets: number, reads: number, ahead: number): void {
    const i = this.spaceOf!(p);
    if (i < 0) return;
    const c = (this.perSpace[i] ??= [0, 0, 0]);
    c[0] += gets + reads;
    c[1] += reads;
    c[2] += ahead;
  }

  /** Per tracked space (spaceOf): [gets, synchronous reads, pages read ahead] so far. */
  spaceCounters(): Array<[number, number, number]> {
    return Array.from(this.perSpace, (c) => (c ? [c[0], c[1], c[2]] : [0, 0, 0]));
  }

  /** Gets of pages kept hot outside the model (dictionary, statistics, rollback segment): requests that hit. */
  residentHits(n: number): void {
    this.requests += n;
  }

  counters(): Record<string, number> {
    const allReads = this.syncReads + this.readAheadRnd + this.ibuf.mergeReads;
    return {
      Innodb_buffer_pool_read_requests: this.requests,
      // MySQL: synchronous and random read-ahead pages; MariaDB: every page read.
      Innodb_buffer_pool_reads: this.product === 'mariadb' ? allReads + this.readAhead : allReads,
      Innodb_buffer_pool_read_ahead: this.readAhead,
      Innodb_buffer_pool_read_ahead_rnd: this.readAheadRnd,
      Innodb_buffer_pool_read_ahead_evicted: this.readAheadEvicted,
      Innodb_buffer_pool_pages_made_young: this.madeYoung,
      Innodb_buffer_pool_pages_made_not_young: this.notMadeYoung,
      Innodb_pages_read: allReads + this.readAhead,
      page_cleaner_evicted: this.cleanerEvicted,
      sync_reads: this.syncReads,
      ibuf_merges: this.ibuf.merges,
      ibuf_merged_entries: this.ibuf.mergedEntries,
      ibuf_merge_reads: this.ibuf.mergeReads,
      ibuf_pending_entries: this.ibuf.pendingEntries,
      ibuf_size: this.ibuf.sizePages,
      ibuf_refused_too_big: this.ibuf.refusedTooBig,
    };
  }
}
