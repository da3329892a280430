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

export function scanOnce(pool: PostgresPool, spec: ScanSpec): { hits: number; reads: number } {
  const ring = seqScanUsesRing(spec.blocks, pool.capacity);
  const rings = Array.from({ length: spec.processes }, () => (ring ? pool.openRing('bulkread', spec.ringBuffers) : -1));
  const chunk = spec.processes > 1 ? parallelChunk(spec.blocks) : spec.blocks;
  const taken = new Float64Array(spec.processes);
  const shares = spec.shares && spec.shares.length === spec.processes && spec.shares.some((s) => s > 0) ? spec.shares : undefined;
  const next = shares ? chunkSchedule(shares, spec.lateWorkers ?? false) : undefined;
  let hits = 0;
  let block = 0;
  let turn = 0;
  while (block < spec.blocks) {
    if (next) turn = next(taken);
    const end = Math.min(spec.blocks, block + chunk);
    const r = rings[turn];
    taken[turn] += end - block;
    for (; block < end; block++) {
      if (pool.readBuffer(spec.firstPage + block, r, spec.dirtiedBlocks?.has(block) ?? false)) hits++;
    }
    if (!next) turn = (turn + 1) % spec.processes;
  }
  return { hits, reads: spec.blocks - hits };
}
