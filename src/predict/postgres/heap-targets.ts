// Where new heap tuples go: the table's target block, extended as it fills (RelationGetBufferForTuple with
// no free space mapped), or the blocks the free-space map offers (pages a VACUUM emptied).
import type { PostgresPool } from '../../sim/policies/postgres-clock-sweep';
import { pageId } from './geometry';

/**
 * The heap's target block for new tuples: its last block, then a block added by extension each time the
 * target has taken a block's worth. `lastIsFull`: the first tuple already needs a new block.
 */
export class HeapTarget {
  private block: number;
  private placed = 0;

  constructor(
    private readonly pool: PostgresPool,
    private readonly relation: number,
    pages: number,
    private readonly perBlock: number,
    private readonly lastIsFull: boolean,
    /** What finding no room asks before each block added after the first (the free-space map's pages). */
    private readonly beforeExtend?: () => void,
  ) {
    // An empty heap has no last block: its first tuple extends it to block 0 (written, not read).
    this.block = pages - 1;
  }

  put(): void {
    const needsBlock = this.placed > 0 || this.lastIsFull || this.block < 0;
    if (this.placed % this.perBlock === 0 && needsBlock) {
      if (this.placed > 0) this.beforeExtend?.();
      this.pool.extend(pageId(this.relation, ++this.block));
    } else this.pool.readBuffer(pageId(this.relation, this.block), -1, true);
    this.placed++;
  }
}

/**
 * New versions placed where the free-space map offers room: the pages a VACUUM emptied, read into the pool
 * (they are not extended), each filled with `perBlock` versions, one after the other.
 */
export class FreeSpaceTarget {
  private placed = 0;
  used = 0;
  private block = -1;

  constructor(
    private readonly pool: PostgresPool,
    private readonly relation: number,
    private readonly perBlock: number,
    private readonly blocks: (k: number) => number,
  ) {}

  put(): void {
    if (this.placed % this.perBlock === 0) this.block = this.blocks(this.used++);
    this.pool.readBuffer(pageId(this.relation, this.block), -1, true);
    this.placed++;
  }
}
