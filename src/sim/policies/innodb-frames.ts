// The frames of InnoDB's buffer pool under its LRU list (innodb-lru-list.ts): which page each frame holds,
// whether it is dirty or read ahead, how a page is read into a frame (buf_page_init_for_read), when a page
// is made young, and the page cleaner that frees frames from the LRU tail (buf_flush_LRU_list_batch). The
// policy on top, page gets, read-ahead and the change buffer, is InnodbPool (innodb-lru.ts).
import { PageTable } from '../page-table';
import { InnodbLruList } from './innodb-lru-list';
import type { InnodbPoolOptions } from './innodb-pool-options';

/**
 * Per slot of a seeded list, head to tail: ms since the page's first access (-1: never; NaN: not known), and
 * the freed-page clock when it was put at the head.
 */
export interface SeedHistory {
  ageMs: ArrayLike<number>;
  clockAt: ArrayLike<number>;
  freedPageClock: number;
}

/** BUF_LRU_MIN_LEN: the page cleaner is not woken for a shorter LRU. */
const LRU_MIN_LEN = 256;

export abstract class InnodbFrames extends InnodbLruList {
  protected readonly table: PageTable;
  /** Modified since read (on the flush list): the page cleaner must write it before it leaves. */
  protected readonly dirty: Uint8Array;
  /** When a page was read ahead (0: read on request): until the scan reaches it, its read is in flight. */
  protected readonly readAheadAt: Int32Array;
  protected used = 0;
  protected now = 0;
  /** innodb_old_blocks_time in page requests. */
  protected readonly oldBlocksTicks: number;
  protected readonly tick: number;
  /** The read-ahead area, in pages. */
  protected readonly area: number;
  protected readAheadEvicted = 0;
  protected notMadeYoung = 0;
  // The page cleaner (MariaDB 10.5+): free frames it made, and its pace.
  private readonly freeSlots: Int32Array;
  private freeTop = 0;
  protected readonly cleanerTrigger: number;
  private readonly cleanerTarget: number;
  private readonly cleanerMinLen: number;
  private readonly cleanerBatch: number;
  protected cleanerEvicted = 0;

  constructor(capacity: number, options: InnodbPoolOptions) {
    super(capacity, options.oldBlocksPct ?? 37);
    this.table = new PageTable(capacity);
    this.dirty = new Uint8Array(capacity);
    this.readAheadAt = new Int32Array(capacity);
    this.tick = options.msPerAccess ?? 0.01;
    const oldBlocksTime = options.oldBlocksTime ?? 1000;
    this.oldBlocksTicks = oldBlocksTime === 0 ? 0 : Math.max(1, Math.ceil(oldBlocksTime / this.tick));
    this.area = options.area ?? (capacity >= 2048 ? 64 : Math.max(1, 2 ** Math.ceil(Math.log2(capacity / 32))));
    if ((this.area & (this.area - 1)) !== 0) throw new Error(`read-ahead area ${this.area}: InnoDB's is a power of 2`);
    this.freeSlots = new Int32Array(options.pageCleaner ? capacity : 0);
    const depth = options.pageCleaner?.lruScanDepth ?? 0;
    this.cleanerTrigger = Math.floor(depth / 2);
    this.cleanerTarget = depth;
    this.cleanerMinLen = Math.max(1, Math.min(Math.floor(capacity / 20) - 1, LRU_MIN_LEN));
    this.cleanerBatch = options.pageCleaner?.maxIoCapacity ?? 2000;
  }

  /**
   * buf_flush_LRU_list_batch as the page cleaner runs it between page requests: dirty pages are written
   * and evicted like clean ones (the writes go to the OS cache, so they finish before the next batch).
   */
  protected cleanLru(): void {
    if (this.len <= LRU_MIN_LEN || this.capacity - this.len >= this.cleanerTrigger) return;
    // What the batch sees: a dirty page under write is still in the LRU and not yet free.
    let seen = this.len;
    let cursor = this.tail;
    for (let n = 0; n < this.cleanerBatch && cursor >= 0 && seen > this.cleanerMinLen && this.capacity - seen < this.cleanerTarget; n++) {
      const s = cursor;
      cursor = this.prev[s];
      // A page read ahead that the scan has not reached is still read-fixed (its asynchronous read
      // completes as the scan gets there), and the batch passes over it.
      if (this.accessTime[s] === 0 && this.readAheadAt[s] !== 0 && this.now - this.readAheadAt[s] < this.area) {
        n--;
        continue;
      }
      if (this.dirty[s] === 0) seen--;
      this.dirty[s] = 0;
      if (this.accessTime[s] === 0) this.readAheadEvicted++;
      this.remove(s);
      this.table.delete(this.page[s]);
      this.freedPageClock++;
      this.freeSlots[this.freeTop++] = s;
      this.cleanerEvicted++;
    }
  }

  /** buf_page_init_for_read: into a free or evicted slot, at the old sublist's head, not yet accessed. */
  protected readIn(p: number): number {
    let s: number;
    if (this.freeTop > 0) s = this.freeSlots[--this.freeTop];
    else if (this.used < this.capacity) s = this.used++;
    else if (this.lruOld >= 0 && this.isOld[this.tail] === 1 && this.tail !== this.lruOld) {
      // The common case in a full pool: the old tail leaves and the new page enters the old sublist's
      // head. Lengths do not change, so the old-sublist boundary needs no adjustment.
      s = this.tail;
      if (this.accessTime[s] === 0) this.readAheadEvicted++;
      this.table.delete(this.page[s]);
      this.freedPageClock++;
      const a = this.prev[s];
      this.next[a] = -1;
      this.tail = a;
      const o = this.lruOld;
      const after = this.next[o];
      this.prev[s] = o;
      this.next[s] = after;
      this.next[o] = s;
      if (after >= 0) this.prev[after] = s;
      else this.tail = s;
      this.page[s] = p;
      this.dirty[s] = 0;
      this.accessTime[s] = 0;
      this.readAheadAt[s] = 0;
      this.freedClockAt[s] = 0;
      this.table.set(p, s);
      return s;
    } else {
      s = this.tail;
      if (this.accessTime[s] === 0) this.readAheadEvicted++;
      this.remove(s);
      this.table.delete(this.page[s]);
      this.freedPageClock++;
    }
    this.page[s] = p;
    this.dirty[s] = 0;
    this.accessTime[s] = 0;
    this.readAheadAt[s] = 0;
    this.freedClockAt[s] = 0;
    this.table.set(p, s);
    this.add(s, true);
    return s;
  }

  protected makeYoungIfNeeded(s: number): void {
    if (this.oldBlocksTicks !== 0 && this.isOld[s]) {
      if (this.accessTime[s] !== 0 && this.now - this.accessTime[s] >= this.oldBlocksTicks) this.makeYoung(s);
      else this.notMadeYoung++;
    } else if (!this.peekIfYoung(s)) this.makeYoung(s);
  }

  contains(p: number): boolean {
    return this.table.get(p) >= 0;
  }

  /**
   * The starting state as the server's LRU list had it (INNODB_BUFFER_PAGE_LRU), head to tail with old
   * flags, into an empty pool; pages beyond its capacity (a smaller what-if) are the tail's it would evict.
   * With the pages' history (where the server gave it): each page's first access as long ago as it was
   * (never, for a page read ahead and not yet requested), so a hit on an old page first read more than
   * innodb_old_blocks_time before makes it young, and the freed-page clock as the pages show it (0: nothing
   * evicted since start-up, so nothing is made young). Without it, pages count as accessed in LRU order
   * just now, and the clock starts at 0.
   */
  seed(headToTail: ArrayLike<number>, old: ArrayLike<number>, history?: SeedHistory): void {
    const n = Math.min(headToTail.length, this.capacity);
    if (this.used !== 0 || n === 0) return;
    this.seedList(
      n,
      (k) => headToTail[k],
      (k) => old[k] === 1,
    );
    for (let s = 0; s < n; s++) this.table.set(this.page[s], s);
    this.used = n;
    this.now = n;
    if (history) this.seedHistory(n, history);
  }

  private seedHistory(n: number, h: SeedHistory): void {
    // Any age past innodb_old_blocks_time acts alike: ages are capped there, which keeps the clock small.
    const cap = this.oldBlocksTicks + 1;
    this.now = n + cap;
    for (let k = 0; k < n; k++) {
      const age = h.ageMs[k];
      // A page of unknown history keeps its place in the order of accesses, the latest just now.
      if (age === undefined || Number.isNaN(age)) {
        this.accessTime[k] += cap;
        continue;
      }
      this.accessTime[k] = age < 0 ? 0 : this.now - Math.min(cap, Math.round(age / this.tick));
      this.freedClockAt[k] = h.clockAt[k] ?? 0;
    }
    this.freedPageClock = h.freedPageClock;
  }

  /** Puts a page in the pool as already accessed, with no counters touched: a starting state. */
  preload(p: number): void {
    if (this.table.get(p) < 0) this.accessTime[this.readIn(p)] = ++this.now;
  }

  /** Whether a cached page is in the old sublist (for tests of midpoint insertion). */
  isInOldSublist(p: number): boolean {
    const s = this.table.get(p);
    return s >= 0 && this.isOld[s] === 1;
  }
}
