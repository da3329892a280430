// page id → buffer slot, for the pages currently in a simulated pool. Open addressing with linear
// probing and backward-shift deletion over typed arrays: no allocation per access, no tombstones.
// Page ids are non-negative 31-bit integers.

const EMPTY = -1;

export class PageTable {
  private readonly keys: Int32Array;
  private readonly values: Int32Array;
  private readonly mask: number;
  private readonly shift: number;

  /**
   * Sized for at most `maxEntries` pages at a time (the pool's capacity). The load factor stays ≤ 1/4:
   * short probe runs keep both lookups and backward-shift deletions (one per eviction) cheap.
   */
  constructor(maxEntries: number) {
    let bits = 4;
    while (1 << bits < maxEntries * 4) bits++;
    this.keys = new Int32Array(1 << bits).fill(EMPTY);
    this.values = new Int32Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
  }

  private home(page: number): number {
    return Math.imul(page, 0x9e3779b1) >>> this.shift;
  }

  /** The slot holding `page`, or -1. */
  get(page: number): number {
    const keys = this.keys;
    let i = this.home(page);
    for (;;) {
      const k = keys[i];
      if (k === page) return this.values[i];
      if (k === EMPTY) return -1;
      i = (i + 1) & this.mask;
    }
  }

  set(page: number, slot: number): void {
    const keys = this.keys;
    let i = this.home(page);
    for (;;) {
      const k = keys[i];
      if (k === page || k === EMPTY) {
        keys[i] = page;
        this.values[i] = slot;
        return;
      }
      i = (i + 1) & this.mask;
    }
  }

  delete(page: number): void {
    const keys = this.keys;
    const values = this.values;
    const mask = this.mask;
    let i = this.home(page);
    for (;;) {
      const k = keys[i];
      if (k === EMPTY) return;
      if (k === page) break;
      i = (i + 1) & mask;
    }
    // Backward shift: pull later entries of the probe run into the hole when their home allows it.
    let hole = i;
    let j = (i + 1) & mask;
    for (;;) {
      const k = keys[j];
      if (k === EMPTY) break;
      const h = this.home(k);
      const between = hole <= j ? h > hole && h <= j : h > hole || h <= j;
      if (!between) {
        keys[hole] = k;
        values[hole] = values[j];
        hole = j;
      }
      j = (j + 1) & mask;
    }
    keys[hole] = EMPTY;
  }

  clear(): void {
    this.keys.fill(EMPTY);
  }
}
