// What the InnoDB predictor is given: catalog facts per index, the server's settings, and each measured
// run as it is replayed. Plain data, so a prediction can be replayed from a JSON fixture with no server.
import type { InnodbPoolOptions } from '../../sim/policies/innodb-lru';
import type { TableAccess } from './plan';

export interface InnodbIndexFacts {
  /** db.table for the clustered index, db.table.index otherwise (the report's residency name). */
  reportName: string;
  table: string;
  index: string;
  clustered: boolean;
  leafPages: number;
  /** All pages of the index, leaf and non-leaf. */
  sizePages: number;
  /** Pages of the table's tablespace file. */
  spacePages: number;
  /** Page numbers cached before run 1, as ranges. */
  cachedBefore: Array<[number, number]>;
  unique: boolean;
  /** Rows of the table (the clustered index's statistics). */
  rows: number;
  /** Bytes of the index's key columns plus, for a secondary index, the primary key's. */
  keyBytes: number;
  /** Bytes of one index record's data: the whole row for the clustered index. */
  entryBytes: number;
  /** The clustered index's key is an AUTO_INCREMENT column, so inserts append at its right end. */
  autoIncrementKey: boolean;
  /** The index's own key columns in order (absent in fixtures recorded before they were read). */
  keyColumns?: string[];
  /** The clustered index: each column's bytes in a record (what an UPDATE's undo record keeps of it). */
  columnBytes?: Record<string, number>;
  /** The clustered index: its BLOB and TEXT columns (absent in fixtures recorded before they were read). */
  blobColumns?: string[];
  /** The clustered index: pages of its leaf segment that hold long values, not rows (set from offPagePages). */
  offPagePages?: number;
  /** Levels from the root to the leaves, where counted after the runs (set from indexLevels); else worked out from the leaves. */
  levels?: number;
  /**
   * The index's cached pages before run 1 counted by fill, per twentieth of the page (INNODB_BUFFER_PAGE_LRU's
   * DATA_SIZE; the last bin: 95 % and more, full): which leaves an insert finds full. Absent where not read.
   */
  cachedFills?: number[];
}

export interface InnodbPredictionSettings {
  product: 'mysql' | 'mariadb';
  /** The server's version (absent in inputs recorded before it was kept): which calibration holds for it. */
  release?: string;
  /** innodb_buffer_pool_size in pages: what the what-if's sizes are named by. */
  poolPages: number;
  /**
   * The pages the pool really has (Innodb_buffer_pool_pages_total), a few fewer: the simulation uses that
   * share of every size it simulates. Absent in older fixtures: the size in pages.
   */
  poolFrames?: number;
  pageSize: number;
  oldBlocksPct: number;
  oldBlocksTime: number;
  readAheadThreshold: number;
  randomReadAhead: boolean;
  /** Pages of other tables and the system in the pool before run 1. */
  otherPagesUsed: number;
  /**
   * The server's LRU list before run 1 (INNODB_BUFFER_PAGE_LRU): its length, where its old sublist begins,
   * and each cached page of the indexes as [index in the facts, page number, position from the head] and,
   * where read (absent in older fixtures), the ms since its first access (-1: never accessed) and the
   * freed-page clock when it was last put at the head, with the pool's clock (pool-walk.ts).
   * The simulated pool starts in that order, other pages in the gaps; without it, in page order.
   */
  /**
   * The runs' measured time per page request (their elapsed time over their gets), the simulated clock that
   * innodb_old_blocks_time is counted on; absent: 0.01 ms.
   */
  msPerRequest?: number;
  lruSeed?: {
    length: number;
    /** The first old page's position, counted from the head where `headFirst`. */
    firstOld: number | null;
    /**
     * Positions count from the LRU list's head (most recently used). INNODB_BUFFER_PAGE_LRU numbers them
     * from the tail; recordings made before 2026-12-07 kept the view's numbers and lack this flag.
     */
    headFirst?: boolean;
    pages: Array<[number, number, number] | [number, number, number, number, number]>;
    /**
     * The pages of long values stored off the rows' pages (BLOB), as `pages` lists index pages under the table's
     * clustered index; the page number is the file's, which the simulated layout does not follow. Absent in
     * recordings made before 2026-12-07: each cached leaf's long values are then taken as cached with it.
     */
    longValues?: Array<[number, number, number, number, number]>;
    freedPageClock?: number;
    /** How long before run 1 the ages' reference (the list's latest first access) was, where known (pool-walk.ts). */
    sinceLastAccessMs?: number;
  };
  changeBuffering: NonNullable<InnodbPoolOptions['changeBuffering']>;
  changeBufferMaxPct: number;
  /** innodb_lru_scan_depth where the page cleaner keeps that many pages free (MariaDB 10.5+). */
  lruScanDepth?: number;
  /** An IN list of this many values or more is estimated from statistics, not by a dive per value (0: always dived; absent: 200, the default). */
  eqRangeIndexDiveLimit?: number;
  /**
   * Tables of the statement that were not in the server's table cache before run 1 (SHOW OPEN TABLES,
   * MariaDB): the first run opens them, reading their definitions and statistics. Absent where not read
   * (MySQL, older fixtures): opening is then not modelled.
   */
  tablesToOpen?: string[];
  /** Why no prediction can be made (the index statistics could not be read): every number not modelled. */
  unavailable?: string;
  /** Where the runs' undo logs come from (MariaDB); absent in older fixtures and on MySQL. */
  undo?: UndoState;
}

/**
 * Before run 1: the write statements the server ran since it started, and (where residency was read) the
 * pages of the undo logs' tablespaces in the pool, by page type.
 */
export interface UndoState {
  /** Com_insert, Com_update, Com_delete and the other statements that start a write transaction. */
  writesSinceStartup: number;
  /** The system tablespace and the undo tablespaces. */
  spaces?: number;
  /** SYSTEM pages: the 128 rollback segments' headers and a few of the system's own. */
  systemPagesCached?: number;
  logPagesCached?: number;
  spaceHeadersCached?: number;
  bitmapsCached?: number;
  /** Inode pages beyond the first (page 2), where the undo logs' segments are described. */
  inodePagesCached?: number;
  /**
   * The rollback segments (0–127) that kept a one-page log, read from the order a restart left their pages
   * in; absent where the pool does not hold every segment's header, or with undo tablespaces.
   */
  keptLogSlots?: number[];
}

/** The rows an INSERT wrote in one run, which the prediction replays (with their rollback). */
export interface InsertRun {
  table: string;
  rows: number;
  /** The counter the rows came from. */
  rowsFrom: string;
  rolledBack: boolean;
  /**
   * Per index of the table (its name), where the rows' keys fell, read after the last run (a rolled-back
   * INSERT … SELECT): all above the index's own keys, all below, or among them. Absent: among them.
   */
  edges?: Record<string, InsertEdge>;
}

export type InsertEdge = 'above' | 'below' | 'within';

/** The rows an UPDATE or DELETE changed in one run. */
export interface RowWrite {
  statement: 'UPDATE' | 'DELETE';
  table: string;
  rows?: number;
  /** The counter the rows came from. */
  rowsFrom?: string;
  /** An UPDATE's assigned columns, from the statement text; absent when not read. */
  setColumns?: string[];
  /** Of those, the ones assigned from themselves (`k = k + 1`): the new key lands next to the old. */
  selfRelative?: string[];
  rolledBack?: boolean;
}

/** One measured run as the predictor replays it. */
export interface InnodbRunInput {
  /** The plan's table accesses in execution order. */
  accesses: TableAccess[];
  /** Why there is no plan (the server refused the EXPLAIN): the reads are then not modelled, never 0. */
  planMissing?: string;
  insert?: InsertRun;
  /**
   * The statement has a LIMIT: MariaDB's optimizer estimates a range twice (a second index dive, measured
   * with and without ORDER BY), and a scan that stops early has fetched rows past the limit into
   * InnoDB's row prefetch cache.
   */
  limited?: boolean;
  /**
   * How long the run took and how many pages it requested, as measured. Kept with the run; the model no
   * longer uses it (the page cleaner is woken on demand, not once a second). Absent in older fixtures.
   */
  pace?: { elapsedMs: number; requests: number };
  /**
   * An UPDATE or DELETE on this table. With the rows it changed (and an UPDATE's SET columns) its changes
   * are replayed; without them (older fixtures) they are named as left out.
   */
  otherWrite?: RowWrite;
  /**
   * The lowest and highest value of the first key column of each index a range used, by keyRangeName,
   * read after the last run. Absent in older fixtures and where not whole numbers: ranges are then drawn.
   */
  keyRanges?: Record<string, [number, number]>;
  /**
   * Per table, the keys looked up in its clustered index, in the order they were looked up, read after the
   * last run: the rows a secondary index of it found (a single-table SELECT), or an eq_ref join's outer
   * column. Absent where not read: the lookups are then drawn.
   */
  lookupKeys?: Record<string, number[]>;
  /**
   * A rolled-back UPDATE or DELETE: per column (keyRangeName), the values its rows hold in the first key
   * column of each secondary index whose entries it changes, read after the last run. Absent where not read:
   * the entries' leaves are then drawn.
   */
  writtenKeys?: Record<string, number[]>;
  /** Per index (report name), its levels from the root to the leaves, counted after the last run (MariaDB). */
  indexLevels?: Record<string, number>;
  /**
   * Per clustered index (its report name), read after the last run: its records' average bytes (what
   * variable-length columns hold) and the pages its long values take off the rows' pages, which
   * n_leaf_pages counts with the leaves. Absent where not read.
   */
  rowStorage?: Record<string, { offPagePages: number; recordBytes: number; sampled?: number; rows?: number }>;
}

/** How keyRanges names a table's column. */
export function keyRangeName(table: string, column: string): string {
  return `${table}.${column}`.toLowerCase();
}

/** Everything one InnoDB prediction needs. */
export interface InnodbPredictionInput {
  indexes: InnodbIndexFacts[];
  settings: InnodbPredictionSettings;
  runs: InnodbRunInput[];
}
