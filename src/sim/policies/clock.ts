// CLOCK (second chance): one reference bit per buffer and a sweeping hand. The common approximation of
// LRU, and the base that PostgreSQL's clock sweep generalises to usage counts 0..5.
import { PageTable } from '../page-table';
import type { BufferPoolModel } from '../types';

export class ClockPool implements BufferPoolModel {
  readonly name = 'clock';
  private readonly table: PageTable;
  private readonly page: Int32Array;
  private readonly ref: Uint8Array;
  private hand = 0;
  private used = 0;
  private hits = 0;
  private misses = 0;

  constructor(readonly capacity: number) {
    this.table = new PageTable(capacity);
    this.page = new Int32Array(capacity);
    this.ref = new Uint8Array(capacity);
  }

  access(p: number): boolean {
    const s = this.table.get(p);
    if (s >= 0) {
      this.hits++;
      this.ref[s] = 1;
      return true;
    }
    this.misses++;
    let victim: number;
    if (this.used < this.capacity) victim = this.used++;
    else {
      const ref = this.ref;
      const n = this.capacity;
      let h = this.hand;
      while (ref[h] !== 0) {
        ref[h] = 0;
        h = h + 1 === n ? 0 : h + 1;
      }
      victim = h;
      this.hand = h + 1 === n ? 0 : h + 1;
      this.table.delete(this.page[victim]);
    }
    this.page[victim] = p;
    this.ref[victim] = 0;
    this.table.set(p, victim);
    return false;
  }

  run(trace: Int32Array): number {
    let hits = 0;
    for (let i = 0; i < trace.length; i++) if (this.access(trace[i])) hits++;
    return hits;
  }

  contains(p: number): boolean {
    return this.table.get(p) >= 0;
  }

  counters(): Record<string, number> {
    return { hits: this.hits, misses: this.misses };
  }

  cachedPages(): number[] {
    return Array.from(this.page.subarray(0, this.used));
  }
}
