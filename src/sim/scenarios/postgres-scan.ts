// A sequential scan as PostgreSQL's executor performs it: serial, or parallel with each participant
// (the leader too) taking block chunks in turn, each with its own BULKREAD ring when the relation has
// more than NBuffers/4 blocks (heapam.c initscan, table_block_parallelscan_nextpage).
import type { PostgresPool } from '../policies/postgres-clock-sweep';
import { seqScanUsesRing } from '../postgres-rings';

export interface ScanSpec {
  /** Page id of block 0. */
  firstPage: number;
  blocks: number;
  processes: number;
  ringBuffers: number;
  /** Blocks the scan dirties (hint bits, pruning), which a BULKREAD ring then rejects. */
  dirtiedBlocks?: ReadonlySet<number>;
  /**
   * Blocks each process took, as executed, the leader's first (0 where it took none). Without it,
   * processes take turns. See `chunkSchedule` for how the shares become an order of chunks.
   */
  shares?: number[];
  /** Read the shares as workers that started late rather than went slower (`chunkSchedule`). */
  lateWorkers?: boolean;
  /** Read the shares at the outer bound instead: the fewest blocks the rings keep (`fewestKeptSchedule`). */
  fewestKept?: boolean;
  /** Each process reads through a read stream (PostgreSQL 18 as modelled: `StreamPins`). */
  stream?: StreamLimits;
}

/** What bounds a read stream's look-ahead (read_stream.c read_stream_begin_impl). */
export interface StreamLimits {
  /** max_pinned_buffers: (effective_io_concurrency + 1) × io_combine_limit, at most the ring and the backend's pin limit. */
  maxPinned: number;
  /** io_combine_limit: blocks started as one read. */
  combine: number;
}

/**
 * A read stream pins the blocks it has looked ahead to, the caller holding the one it was last given, and
 * a ring slot whose buffer is still pinned is not reused: the slot takes a buffer from the clock sweep and
 * the pinned page stays cached ("escapes"). The stream starts a read of `combine` blocks once the pins
 * leave room for them under its distance, the backend's pin limit counting the caller's pin too
 * (read_stream_look_ahead, GetAdditionalPinLimit); the distance doubles with each read that waited for
 * I/O and shrinks by one with each hit. A ring of as many buffers as the stream may pin then comes round
 * to a slot just after the stream let go of its buffer, while no buffer is rejected. But a BULKREAD ring
 * rejects a dirty buffer whose WAL is not flushed (a page the scan pruned or set hints on, WAL-logged)
 * and moves on to the next slot at once (StrategyRejectBuffer, GetBufferFromRing): each rejection brings
 * the ring round one block sooner, onto buffers the stream still holds. Measured on PostgreSQL 18 at
 * 128 MB (94-buffer rings and pin limit): a cold table's scans keep only their rings' blocks; after
 * pgbench's updates, run 2 found some 3,300 pages more cached than the rejected buffers alone.
 */
class StreamPins {
  private seq = 0;
  private batchEnd = 0;
  private lowest = 0;
  private distance = 1;
  private missedInBatch = false;
  private readonly held: Array<[number, number]> = [];

  constructor(
    private readonly pool: PostgresPool,
    private readonly limits: StreamLimits,
  ) {}

  read(page: number, ring: number, dirties: boolean): boolean {
    if (this.seq >= this.batchEnd) {
      const window = Math.max(1, Math.min(this.distance, this.limits.maxPinned));
      const size = Math.min(this.limits.combine, window);
      // Held when this read starts, within the limit: the caller's block and the stream's others.
      this.lowest = this.seq - (window - size);
      this.batchEnd = this.seq + size;
      this.missedInBatch = false;
      while (this.held.length && this.held[0][0] < this.lowest) this.pool.unpin(this.held.shift()![1]);
    }
    const hit = this.pool.readBuffer(page, ring, dirties);
    this.pool.pin(page);
    this.held.push([this.seq++, page]);
    if (hit) this.distance = Math.max(1, this.distance - 1);
    else if (!this.missedInBatch) [this.missedInBatch, this.distance] = [true, Math.min(2 * this.distance, this.limits.maxPinned)];
    return hit;
  }

  release(): void {
    for (const [, page] of this.held) this.pool.unpin(page);
    this.held.length = 0;
  }
}

/** Chunk size of a parallel seq scan: the next power of two ≥ nblocks / 2048, at most 8,192. */
export function parallelChunk(blocks: number): number {
  let c = 1;
  while (c < Math.max(1, Math.floor(blocks / 2048))) c *= 2;
  return Math.min(c, 8192);
}

/**
 * When each process asks for its chunks, from the blocks it took as executed; which blocks a process took
 * no counter tells, and with rings that decides what stays cached. Two readings of the same shares:
 * - paced (the default): every process asks from the start, at a pace in proportion to its share (the
 *   leader, busy with the Gather as well, and workers sharing two cores with it go slower all along);
 * - late workers: the leader asks from the start at its pace, a worker at the busiest pace but from a late
 *   start (a background worker is forked on demand). A worker with a small share then takes its chunks at
 *   the end of the scan, where an earlier run's rings left their blocks cached: they are hits and add
 *   nothing to its ring, where the paced reading has it miss on most of them.
 * Measured on PostgreSQL 15 under load (1,059 blocks, 32-buffer rings, cached after run 3): with a worker
 * of 82 blocks, 288 as paced (late: 274); of 25, 256 as late (paced: 274); of 28, 272 between the two
 * (255 late, 280 paced). So neither is the prediction alone: the shown draw paces, the band takes both.
 * Returns the process that asks next.
 */
export function chunkSchedule(shares: number[], lateWorkers: boolean): (taken: Float64Array) => number {
  const busiest = Math.max(...shares);
  // Time is counted in blocks the busiest process reads; a process asks again after `taken / rate`.
  const late = (p: number) => lateWorkers && p > 0;
  const start = shares.map((s, p) => (late(p) ? busiest - s : 0));
  const rate = shares.map((s, p) => (late(p) ? 1 : s / busiest));
  const at = (p: number, taken: Float64Array) => start[p] + taken[p] / rate[p];
  return (taken) => {
    let best = -1;
    for (let p = 0; p < shares.length; p++) {
      if (shares[p] <= 0 || taken[p] >= shares[p]) continue;
      if (best < 0 || at(p, taken) < at(best, taken)) best = p;
    }
    // Past every share (chunks round the last one up): whoever would ask first.
    if (best < 0) for (let p = 0; p < shares.length; p++) if (shares[p] > 0 && (best < 0 || at(p, taken) < at(best, taken))) best = p;
    return best;
  };
}

/**
 * The outer bound of the readings above: a ring keeps the last blocks its process missed, as many as it
 * holds, so the fewest new blocks stay cached where every block already cached goes to the processes with
 * the smallest shares (hits, which add nothing to their rings) and every other to the largest, whose ring
 * keeps no more however many it misses. Measured on PostgreSQL 15 under load, a run 3 kept 171 pages, 192
 * predicted, beyond both readings above: the timing can go further than either. `cachedIn` counts the cached blocks
 * of a chunk. Returns the process that takes the chunk.
 */
export function fewestKeptSchedule(
  shares: number[],
  cachedIn: (from: number, to: number) => number,
): (taken: Float64Array, from: number, to: number) => number {
  const smallestFirst = shares
    .map((_, p) => p)
    .filter((p) => shares[p] > 0)
    .sort((a, b) => shares[a] - shares[b] || a - b);
  const largestFirst = [...smallestFirst].reverse();
  return (taken, from, to) => {
    const order = 2 * cachedIn(from, to) >= to - from ? smallestFirst : largestFirst;
    return order.find((p) => taken[p] < shares[p]) ?? largestFirst[0];
  };
}

export function scanOnce(pool: PostgresPool, spec: ScanSpec): { hits: number; reads: number } {
  const ring = seqScanUsesRing(spec.blocks, pool.capacity);
  const rings = Array.from({ length: spec.processes }, () => (ring ? pool.openRing('bulkread', spec.ringBuffers) : -1));
  const chunk = spec.processes > 1 ? parallelChunk(spec.blocks) : spec.blocks;
  const taken = new Float64Array(spec.processes);
  const shares = spec.shares && spec.shares.length === spec.processes && spec.shares.some((s) => s > 0) ? spec.shares : undefined;
  const cachedIn = (from: number, to: number) => {
    let n = 0;
    for (let b = from; b < to; b++) if (pool.contains(spec.firstPage + b)) n++;
    return n;
  };
  const paced = shares && !spec.fewestKept ? chunkSchedule(shares, spec.lateWorkers ?? false) : undefined;
  const bound = shares && spec.fewestKept ? fewestKeptSchedule(shares, cachedIn) : undefined;
  const streams = spec.stream && ring ? rings.map(() => new StreamPins(pool, spec.stream!)) : undefined;
  let hits = 0;
  let block = 0;
  let turn = 0;
  while (block < spec.blocks) {
    const end = Math.min(spec.blocks, block + chunk);
    if (paced) turn = paced(taken);
    else if (bound) turn = bound(taken, block, end);
    const r = rings[turn];
    taken[turn] += end - block;
    for (; block < end; block++) {
      const dirties = spec.dirtiedBlocks?.has(block) ?? false;
      if (streams ? streams[turn].read(spec.firstPage + block, r, dirties) : pool.readBuffer(spec.firstPage + block, r, dirties)) hits++;
    }
    if (!shares) turn = (turn + 1) % spec.processes;
  }
  streams?.forEach((s) => s.release());
  return { hits, reads: spec.blocks - hits };
}
