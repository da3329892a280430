// The LRU list of InnoDB's buffer pool (buf0lru.cc) with its old sublist: pages read from disk enter at
// the midpoint (the old sublist's head), the old sublist is kept at innodb_old_blocks_pct (37 %) of the list
// within a tolerance of 20 pages once the list has 512 pages, and a page made young moves to the head. The
// pool (innodb-lru.ts) adds what decides when a page is read, made young or evicted.

export const OLD_MIN_LEN = 512;
const OLD_TOLERANCE = 20;
const NON_OLD_MIN_LEN = 5;

/** Slots hold pages; prev/next link them head (young) to tail (old). Typed arrays: the hot path allocates nothing. */
export class InnodbLruList {
  protected readonly page: Int32Array;
  protected readonly prev: Int32Array;
  protected readonly next: Int32Array;
  protected readonly isOld: Uint8Array;
  /** Time of the first access, in page requests since start (the simulated clock); 0 = never accessed. */
  protected readonly accessTime: Int32Array;
  /** freed_page_clock when the page was last put at the head. */
  protected readonly freedClockAt: Int32Array;
  protected head = -1;
  protected tail = -1;
  protected len = 0;
  protected lruOld = -1;
  protected oldLen = 0;
  /** Pages evicted so far (buf_pool->freed_page_clock). */
  protected freedPageClock = 0;
  protected madeYoung = 0;
  /** innodb_old_blocks_pct in 1/1024ths, clamped as InnoDB clamps it. */
  protected readonly ratio: number;

  constructor(
    readonly capacity: number,
    oldBlocksPct: number,
  ) {
    this.page = new Int32Array(capacity);
    this.prev = new Int32Array(capacity).fill(-1);
    this.next = new Int32Array(capacity).fill(-1);
    this.isOld = new Uint8Array(capacity);
    this.accessTime = new Int32Array(capacity);
    this.freedClockAt = new Int32Array(capacity);
    this.ratio = Math.min(Math.max(Math.floor((oldBlocksPct * 1024) / 100), 51), 972);
  }

  /** buf_page_peek_if_young: still within the first quarter of the young list since it was put at the head. */
  protected peekIfYoung(s: number): boolean {
    return this.freedPageClock < this.freedClockAt[s] + (this.capacity * (1024 - this.ratio)) / (1024 * 4);
  }

  protected makeYoung(s: number): void {
    if (this.isOld[s]) this.madeYoung++;
    this.remove(s);
    this.add(s, false);
  }

  protected add(s: number, old: boolean): void {
    if (!old || this.len < OLD_MIN_LEN) {
      this.prev[s] = -1;
      this.next[s] = this.head;
      if (this.head >= 0) this.prev[this.head] = s;
      this.head = s;
      if (this.tail < 0) this.tail = s;
      this.freedClockAt[s] = this.freedPageClock;
    } else {
      const o = this.lruOld;
      const after = this.next[o];
      this.prev[s] = o;
      this.next[s] = after;
      this.next[o] = s;
      if (after >= 0) this.prev[after] = s;
      else this.tail = s;
      this.oldLen++;
    }
    this.len++;
    if (this.len > OLD_MIN_LEN) {
      this.isOld[s] = old ? 1 : 0;
      this.adjust();
    } else if (this.len === OLD_MIN_LEN) {
      for (let x = this.head; x >= 0; x = this.next[x]) this.isOld[x] = 1;
      this.lruOld = this.head;
      this.oldLen = this.len;
      this.adjust();
    } else this.isOld[s] = this.lruOld >= 0 ? 1 : 0;
  }

  protected remove(s: number): void {
    if (s === this.lruOld) {
      this.lruOld = this.prev[s];
      this.isOld[this.lruOld] = 1;
      this.oldLen++;
    }
    const a = this.prev[s];
    const b = this.next[s];
    if (a >= 0) this.next[a] = b;
    else this.head = b;
    if (b >= 0) this.prev[b] = a;
    else this.tail = a;
    this.len--;
    if (this.len < OLD_MIN_LEN) {
      if (this.lruOld >= 0) for (let x = this.head; x >= 0; x = this.next[x]) this.isOld[x] = 0;
      this.isOld[s] = 0;
      this.lruOld = -1;
      this.oldLen = 0;
      return;
    }
    if (this.isOld[s]) this.oldLen--;
    this.adjust();
  }

  protected adjust(): void {
    const want = Math.min(Math.floor((this.len * this.ratio) / 1024), this.len - (OLD_TOLERANCE + NON_OLD_MIN_LEN));
    for (;;) {
      if (this.oldLen + OLD_TOLERANCE < want) {
        this.lruOld = this.prev[this.lruOld];
        this.isOld[this.lruOld] = 1;
        this.oldLen++;
      } else if (this.oldLen > want + OLD_TOLERANCE) {
        this.isOld[this.lruOld] = 0;
        this.lruOld = this.next[this.lruOld];
        this.oldLen--;
      } else return;
    }
  }

  /**
   * Builds the list in slots 0 … n − 1, head to tail, with the server's old flags (the old sublist is the
   * tail's contiguous part). A list shorter than 512 pages has no old sublist, whatever the flags say.
   */
  protected seedList(n: number, pageAt: (k: number) => number, oldAt: (k: number) => boolean): void {
    for (let k = 0; k < n; k++) {
      this.page[k] = pageAt(k);
      this.prev[k] = k - 1;
      this.next[k] = k + 1 < n ? k + 1 : -1;
      this.freedClockAt[k] = 0;
      // Accessed in LRU order: the tail first (time 1), the head last (time n).
      this.accessTime[k] = n - k;
    }
    this.head = 0;
    this.tail = n - 1;
    this.len = n;
    let firstOld = -1;
    if (n >= OLD_MIN_LEN) {
      for (let k = 0; k < n && firstOld < 0; k++) if (oldAt(k)) firstOld = k;
      // No flags for a list this long: start as buf_LRU_old_init does (all old), and let adjust() move the boundary.
      if (firstOld < 0) firstOld = 0;
    }
    for (let k = 0; k < n; k++) this.isOld[k] = firstOld >= 0 && k >= firstOld ? 1 : 0;
    this.lruOld = firstOld;
    this.oldLen = firstOld >= 0 ? n - firstOld : 0;
    // The server keeps the boundary within its tolerance; a truncated list (a smaller what-if) may not be.
    if (firstOld >= 0) this.adjust();
  }

  cachedPages(): number[] {
    const out: number[] = [];
    for (let s = this.head; s >= 0; s = this.next[s]) out.push(this.page[s]);
    return out;
  }
}
