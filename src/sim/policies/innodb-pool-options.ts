// The settings of the InnoDB pool model, named after the server variables they stand for.
import type { LeafSpace } from './innodb-change-buffer';

export interface InnodbPoolOptions {
  product?: 'mysql' | 'mariadb';
  oldBlocksPct?: number;
  /** ms; 1000 by default. */
  oldBlocksTime?: number;
  /** 0 turns linear read-ahead off; 56 by default. */
  readAheadThreshold?: number;
  randomReadAhead?: boolean;
  /** Read-ahead area in pages, a power of 2; 64 for pools of 2,048 pages or more. */
  area?: number;
  /** Pages in the tablespace: an area past its end is never read ahead. */
  spacePages?: number;
  /** Where a page's tablespace ends (exclusive page id), when pages of several tablespaces are simulated. */
  spaceEnd?: (page: number) => number;
  /** Simulated time per page request, ms (the clock of innodb_old_blocks_time). */
  msPerAccess?: number;
  /** Change buffering of secondary-index modifications ('none' or any other innodb_change_buffering value). */
  changeBuffering?: 'none' | 'all' | 'inserts' | 'deletes' | 'changes' | 'purges';
  changeBufferMaxPct?: number;
  /** Buffered entries that fill one change-buffer page. */
  entriesPerIbufPage?: number;
  /** Secondary leaves' free space, which caps what the change buffer takes per page (the free bits). */
  leafSpace?: LeafSpace;
  /** Pages merged in the background per simulated second: MySQL 10 by default, MariaDB none. */
  backgroundMergesPerSecond?: number;
  /**
   * MariaDB: the change-buffer bitmap page a page read from disk makes the first request after its read
   * fetch (a secondary-index leaf, whose buffered changes must be merged), or −1 for pages without that check.
   */
  ibufBitmapOf?: (page: number) => number;
  /**
   * Which tracked space (an index) a page belongs to, or −1: gets, reads and read-ahead are then counted per
   * space as well (spaceCounters), as the server counts them per table for ANALYZE (r_engine_stats).
   */
  spaceOf?: (page: number) => number;
  /** MariaDB 10.5+'s page cleaner free-page target (innodb_lru_scan_depth); off when absent. */
  pageCleaner?: { lruScanDepth: number; maxIoCapacity?: number };
}
