// Plain LRU: the textbook reference policy (and the one whose miss-ratio curve is exact in one pass).
// A doubly linked list over typed arrays; slot i holds page[i].
import { PageTable } from '../page-table';
import type { BufferPoolModel } from '../types';

export class LruPool implements BufferPoolModel {
  readonly name = 'lru';
  private readonly table: PageTable;
  private readonly page: Int32Array;
  private readonly prev: Int32Array;
  private readonly next: Int32Array;
  private head = -1; // most recently used
  private tail = -1; // least recently used
  private used = 0;
  private hits = 0;
  private misses = 0;

  constructor(readonly capacity: number) {
    this.table = new PageTable(capacity);
    this.page = new Int32Array(capacity);
    this.prev = new Int32Array(capacity).fill(-1);
    this.next = new Int32Array(capacity).fill(-1);
  }

  access(p: number): boolean {
    let s = this.table.get(p);
    if (s >= 0) {
      this.hits++;
      if (s !== this.head) {
        this.unlink(s);
        this.pushHead(s);
      }
      return true;
    }
    this.misses++;
    if (this.used < this.capacity) s = this.used++;
    else {
      s = this.tail;
      this.unlink(s);
      this.table.delete(this.page[s]);
    }
    this.page[s] = p;
    this.table.set(p, s);
    this.pushHead(s);
    return false;
  }

  private unlink(s: number): void {
    const a = this.prev[s];
    const b = this.next[s];
    if (a >= 0) this.next[a] = b;
    else this.head = b;
    if (b >= 0) this.prev[b] = a;
    else this.tail = a;
  }

  private pushHead(s: number): void {
    this.prev[s] = -1;
    this.next[s] = this.head;
    if (this.head >= 0) this.prev[this.head] = s;
    this.head = s;
    if (this.tail < 0) this.tail = s;
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
