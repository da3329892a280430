// PostgreSQL's shared buffers, 15–18 (storage/buffer/freelist.c, bufmgr.c):
// - a miss takes a buffer from the freelist first (all buffers at start), then from the clock sweep,
//   which lowers each unpinned buffer's usage_count (0..5) until it finds one at 0;
// - a new buffer starts at usage 1; a hit adds 1 up to 5, except under a ring strategy, where a pin only
//   lifts 0 to 1 ("ring buffers shouldn't evict others");
// - per-process rings (BufferAccessStrategy): a slot's buffer is reused if unpinned with usage ≤ 1,
//   otherwise the slot takes a new buffer and the old one stays cached (it "escapes"); a BULKREAD ring
//   rejects a dirty buffer whose WAL would need flushing, which then stays cached too; writing out a
//   buffer whose WAL is not flushed flushes all WAL inserted so far (XLogFlush writes as far as it can), so
//   no buffer dirtied before that write is rejected after it;
// - a buffer held pinned (pin/unpin: a read stream's look-ahead) is passed over by rings and the clock sweep;
// - counters as EXPLAIN (BUFFERS) and pg_stat_io count them.
// An optional OS page-cache layer (an LRU below) tells reads served by the kernel from reads from disk.
import { PageTable } from '../page-table';
import { LruPool } from './lru';
import type { BufferPoolModel } from '../types';
import type { StrategyKind } from '../postgres-rings';

const MAX_USAGE = 5;
const CONTEXTS = ['normal', 'bulkread', 'bulkwrite', 'vacuum'] as const;
const OPS = ['hits', 'reads', 'evictions', 'reuses', 'writes'] as const;
const [HITS, READS, EVICTIONS, REUSES, WRITES] = [0, 1, 2, 3, 4];
const CONTEXT_INDEX: Record<StrategyKind, number> = { bulkread: 1, bulkwrite: 2, vacuum: 3 };

export interface PostgresPoolOptions {
  /** A BULKREAD ring rejects dirty buffers (StrategyRejectBuffer); their WAL is assumed unflushed. */
  rejectDirty?: boolean;
  /** Pages the OS page cache holds below shared buffers; 0 leaves it out. */
  osCachePages?: number;
}

interface Ring {
  kind: StrategyKind;
  slots: Int32Array;
  current: number;
}

export class PostgresPool implements BufferPoolModel {
  readonly name = 'postgresql';
  private readonly table: PageTable;
  private readonly tag: Int32Array;
  private readonly usage: Uint8Array;
  private readonly dirty: Uint8Array;
  /** Per buffer: the WAL it was last dirtied with, as a count of dirtying requests (its LSN). */
  private readonly dirtiedAt: Float64Array;
  private walInserted = 0;
  private walFlushed = 0;
  private readonly pins: Uint16Array;
  /** Buffers never used yet come from here in order; freed ones are pushed on freeStack. */
  private nextNeverUsed = 0;
  private readonly freeStack: Int32Array;
  private freeTop = 0;
  private hand = 0;
  private readonly rings: Ring[] = [];
  private readonly io = new Float64Array(CONTEXTS.length * OPS.length);
  private sharedHit = 0;
  private sharedRead = 0;
  private sharedWritten = 0;
  private sharedDirtied = 0;
  private readonly os: LruPool | undefined;
  private osHits = 0;
  private readonly rejectDirty: boolean;

  constructor(
    readonly capacity: number,
    options: PostgresPoolOptions = {},
  ) {
    this.table = new PageTable(capacity);
    this.tag = new Int32Array(capacity).fill(-1);
    this.usage = new Uint8Array(capacity);
    this.dirty = new Uint8Array(capacity);
    this.dirtiedAt = new Float64Array(capacity);
    this.pins = new Uint16Array(capacity);
    this.freeStack = new Int32Array(capacity);
    this.rejectDirty = options.rejectDirty ?? true;
    this.os = options.osCachePages ? new LruPool(options.osCachePages) : undefined;
  }

  /** A new ring for one process's scan (GetAccessStrategy). Returns its id for readBuffer. */
  openRing(kind: StrategyKind, buffers: number): number {
    this.rings.push({ kind, slots: new Int32Array(buffers).fill(-1), current: 0 });
    return this.rings.length - 1;
  }

  access(page: number): boolean {
    return this.readBuffer(page, -1, false);
  }

  /**
   * ReadBuffer + release: one page request. `ring` is an id from openRing or -1 (no strategy);
   * `dirties` marks the page dirty (a write, or hint bits / pruning with WAL).
   */
  readBuffer(page: number, ring: number, dirties: boolean): boolean {
    const ctx = ring < 0 ? 0 : CONTEXT_INDEX[this.rings[ring].kind];
    const b = this.table.get(page);
    if (b >= 0) {
      this.sharedHit++;
      this.io[ctx * 5 + HITS]++;
      const u = this.usage[b];
      if (ring < 0) {
        if (u < MAX_USAGE) this.usage[b] = u + 1;
      } else if (u === 0) this.usage[b] = 1;
      if (dirties) {
        if (!this.dirty[b]) this.sharedDirtied++;
        this.dirty[b] = 1;
        this.dirtiedAt[b] = ++this.walInserted;
      }
      return true;
    }
    this.sharedRead++;
    this.io[ctx * 5 + READS]++;
    if (this.os && this.os.access(page)) this.osHits++;
    this.install(page, ring, ctx, dirties);
    return false;
  }

  /** A buffer taken for a page that was not cached: usage 1, dirty when the request writes. */
  private install(page: number, ring: number, ctx: number, dirties: boolean): void {
    const b = this.victim(ring, ctx);
    this.tag[b] = page;
    this.usage[b] = 1;
    this.dirty[b] = dirties ? 1 : 0;
    if (dirties) {
      this.sharedDirtied++;
      this.dirtiedAt[b] = ++this.walInserted;
    }
    this.table.set(page, b);
  }

  /**
   * Holds the buffer of a cached page pinned (a read stream's look-ahead does): neither a ring nor the
   * clock sweep takes it until unpin.
   */
  pin(page: number): void {
    const b = this.table.get(page);
    if (b >= 0) this.pins[b]++;
  }

  unpin(page: number): void {
    const b = this.table.get(page);
    if (b >= 0 && this.pins[b] > 0) this.pins[b]--;
  }

  /**
   * A request for a buffer this process holds pinned already (the heap page a scan returned its tuple
   * from): a hit that leaves the usage count alone (PinBuffer on a privately pinned buffer).
   */
  repin(): void {
    this.sharedHit++;
    this.io[HITS]++;
  }

  /**
   * A write to a page this process holds pinned (heap_update and heap_delete set the old version's xmax):
   * no request, but the buffer is dirty from now on, so a BULKREAD ring that reaches it rejects it.
   */
  markDirty(page: number): void {
    const b = this.table.get(page);
    if (b < 0) return;
    if (!this.dirty[b]) this.sharedDirtied++;
    this.dirty[b] = 1;
    this.dirtiedAt[b] = ++this.walInserted;
  }

  /**
   * A relation extended by one block: a buffer is taken and zeroed, not read. EXPLAIN counts it as a block
   * written (ReadBuffer_common's isExtend; PostgreSQL 16+ ExtendBufferedRel), pg_stat_io as an extend.
   */
  extend(page: number): void {
    if (this.table.get(page) >= 0) {
      this.readBuffer(page, -1, true);
      return;
    }
    this.sharedWritten++;
    this.install(page, -1, 0, true);
  }

  private victim(ringId: number, ctx: number): number {
    const ring = ringId >= 0 ? this.rings[ringId] : undefined;
    for (;;) {
      let b = -1;
      let fromRing = false;
      if (ring) {
        ring.current = ring.current + 1 === ring.slots.length ? 0 : ring.current + 1;
        const s = ring.slots[ring.current];
        if (s >= 0 && this.pins[s] === 0 && this.usage[s] <= 1) {
          b = s;
          fromRing = true;
        }
      }
      if (b < 0) {
        b = this.strategyGetBuffer();
        if (ring) ring.slots[ring.current] = b;
      }
      if (this.dirty[b]) {
        const unflushed = this.dirtiedAt[b] > this.walFlushed;
        if (ring && ring.kind === 'bulkread' && fromRing && this.rejectDirty && unflushed) {
          ring.slots[ring.current] = -1; // StrategyRejectBuffer: the buffer stays cached, dirty
          continue;
        }
        if (unflushed) this.walFlushed = this.walInserted;
        this.dirty[b] = 0;
        this.sharedWritten++;
        this.io[ctx * 5 + WRITES]++;
      }
      if (this.tag[b] >= 0) {
        this.io[ctx * 5 + (fromRing ? REUSES : EVICTIONS)]++;
        this.table.delete(this.tag[b]);
        this.tag[b] = -1;
      }
      return b;
    }
  }

  private strategyGetBuffer(): number {
    if (this.freeTop > 0) return this.freeStack[--this.freeTop];
    if (this.nextNeverUsed < this.capacity) return this.nextNeverUsed++;
    const usage = this.usage;
    const pins = this.pins;
    const n = this.capacity;
    let h = this.hand;
    let tries = n;
    for (;;) {
      const b = h;
      h = h + 1 === n ? 0 : h + 1;
      if (pins[b] === 0) {
        const u = usage[b];
        if (u === 0) {
          this.hand = h;
          return b;
        }
        usage[b] = u - 1;
        tries = n;
      } else if (--tries === 0) throw new Error('no unpinned buffers available');
    }
  }

  /**
   * The starting state exactly as pg_buffercache showed it: per buffer id its page (or -1: empty) and its
   * usage count. Empty buffers past the last used one are the never-used tail of the freelist; empty ones
   * among used buffers (invalidated by an eviction) are found by the clock sweep at usage 0, as
   * EvictUnpinnedBuffer leaves them off the freelist. The clock hand starts at buffer 0: pg_buffercache does
   * not show it.
   */
  seed(pageOf: (buffer: number) => number, usageOf: (buffer: number) => number): void {
    let lastUsed = -1;
    for (let b = 0; b < this.capacity; b++) {
      const page = pageOf(b);
      if (page < 0) continue;
      this.tag[b] = page;
      this.usage[b] = Math.min(MAX_USAGE, usageOf(b));
      this.table.set(page, b);
      lastUsed = b;
    }
    this.nextNeverUsed = lastUsed + 1;
  }

  /** Drops a page from shared buffers (pg_buffercache_evict); the buffer returns to the freelist. */
  evict(page: number): void {
    const b = this.table.get(page);
    if (b < 0) return;
    this.table.delete(page);
    this.tag[b] = -1;
    this.usage[b] = 0;
    this.dirty[b] = 0;
    this.freeStack[this.freeTop++] = b;
  }

  run(trace: Int32Array): number {
    let hits = 0;
    for (let i = 0; i < trace.length; i++) if (this.access(trace[i])) hits++;
    return hits;
  }

  contains(page: number): boolean {
    return this.table.get(page) >= 0;
  }

  usageOf(page: number): number {
    const b = this.table.get(page);
    return b < 0 ? -1 : this.usage[b];
  }

  counters(): Record<string, number> {
    const out: Record<string, number> = {
      shared_blks_hit: this.sharedHit,
      shared_blks_read: this.sharedRead,
      shared_blks_dirtied: this.sharedDirtied,
      shared_blks_written: this.sharedWritten,
    };
    CONTEXTS.forEach((c, ci) => OPS.forEach((o, oi) => (out[`pg_stat_io.${c}.${o}`] = this.io[ci * 5 + oi])));
    if (this.os) {
      out.os_cache_hits = this.osHits;
      out.disk_reads = this.sharedRead - this.osHits;
    }
    return out;
  }

  cachedPages(): number[] {
    const out: number[] = [];
    for (const t of this.tag) if (t >= 0) out.push(t);
    return out;
  }
}
