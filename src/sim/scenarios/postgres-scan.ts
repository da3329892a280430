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
   * Blocks each process took, as executed (the leader is often slower to ask for chunks); chunks are then
   * handed out in proportion. Without it, processes take turns.
   */
  shares?: number[];
}

/** Chunk size of a parallel seq scan: the next power of two ≥ nblocks / 2048, at most 8,192. */
export function parallelChunk(blocks: number): number {
  let c = 1;
  while (c < Math.max(1, Math.floor(blocks / 2048))) c *= 2;
  return Math.min(c, 8192);
}

export function scanOnce(pool: PostgresPool, spec: ScanSpec): { hits: number; reads: number } {
  const ring = seqScanUsesRing(spec.blocks, pool.capacity);
  const rings = Array.from({ length: spec.processes }, () => (ring ? pool.openRing('bulkread', spec.ringBuffers) : -1));
  const chunk = spec.processes > 1 ? parallelChunk(spec.blocks) : spec.blocks;
  const taken = new Float64Array(spec.processes);
  const shares = spec.shares && spec.shares.length === spec.processes ? spec.shares : undefined;
  let hits = 0;
  let block = 0;
  let turn = 0;
  while (block < spec.blocks) {
    if (shares) {
      // The process furthest behind its share asks next.
      let best = 0;
      for (let p = 1; p < spec.processes; p++) if (taken[p] / shares[p] < taken[best] / shares[best]) best = p;
      turn = best;
    }
    const end = Math.min(spec.blocks, block + chunk);
    const r = rings[turn];
    taken[turn] += end - block;
    for (; block < end; block++) {
      if (pool.readBuffer(spec.firstPage + block, r, spec.dirtiedBlocks?.has(block) ?? false)) hits++;
    }
    if (!shares) turn = (turn + 1) % spec.processes;
  }
  return { hits, reads: spec.blocks - hits };
}
