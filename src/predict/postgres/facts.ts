// What the PostgreSQL prediction needs to know about each relation, and how the pool looked before run 1.
// Plain data, so a prediction can be replayed from a JSON fixture with no server.
import type { PlanNode } from '../../shared/report';

export interface PgRelationFacts {
  /** Name as the plan shows it (relation or index name, without schema). */
  planName: string;
  /** Name as the report's residency shows it. */
  reportName: string;
  kind: 'table' | 'index' | 'other';
  pages: number;
  tuples: number;
  /** For an index: the table's planName. */
  table?: string;
  /** For an index: pg_stats.correlation of its first column (null when unknown). */
  correlation?: number | null;
  /** For an index: its first column takes ascending values (identity, or a nextval() default), so inserts append. */
  ascending?: boolean;
  /** For an index: UNIQUE (or a primary key). */
  unique?: boolean;
  /** For a partial index: its WHERE clause as the catalog deparses it (pg_get_expr of pg_index.indpred); only rows satisfying it have entries. */
  predicate?: string;
  /** For an index of one integer column: the key's bytes (2, 4 or 8). */
  keyBytes?: number;
  /**
   * For an index whose first key column has a fixed width (uuid, date, an integer…): that column's bytes
   * (pg_attribute.attlen), which decide how many pivots an internal page holds (suffix truncation leaves a
   * pivot the columns that tell its two leaves apart: the first, where it has many distinct values).
   */
  pivotBytes?: number;
  /** For an index of fixed-width columns only: a leaf entry's data bytes, every column (INCLUDE ones too) aligned. */
  leafBytes?: number;
  /** For a B-tree: its levels from root to leaf as a descent after the last run counted them (index-height.ts); else taken from its size. */
  height?: number;
  /**
   * For a B-tree: the leaves holding only dead entries past its live keys, at its first end and its last (a
   * rolled-back write's new keys), as descents after the last run counted them (index-height.ts).
   */
  deadEndLeaves?: { first: number; last: number };
  /** For a unique index of one integer column: its smallest and largest key, read after the last run (key-range.ts). */
  keyRange?: { min: number; max: number };
  /** For an index: its columns, the INCLUDE ones last, null for an expression (which any UPDATE may change). */
  columns?: Array<string | null>;
  /** For an index: its first column's distinct values as the statistics estimate them (pg_stats.n_distinct), where gathered. */
  leadingDistinct?: number;
  /** For an index: how many of its columns are keys (pg_index.indnkeyatts); the rest are INCLUDE columns. */
  keyColumns?: number;
  /** For a table: its fillfactor (100 unless set). */
  fillfactor?: number;
  /** For a table: a row's data bytes (pg_stats avg_width summed), for how many rows a full page holds. */
  rowBytes?: number;
  /** For a table: blocks of its free-space map fork (0: none yet, as before its first VACUUM). */
  fsmPages?: number;
  /** For a table: the share of its pages the visibility map marks all-visible (relallvisible / relpages). */
  allVisible?: number;
  /** For a table: dead row versions not yet vacuumed (pg_stat n_dead_tup, an estimate). */
  deadTuples?: number;
  /**
   * For a table: rows inserted, updated or deleted by committed transactions since the last ANALYZE
   * (pg_stat n_mod_since_analyze). A rolled-back update counts as tried (rowsUpdated) but as no change, so
   * the updates beyond these changes were rolled back (an earlier measurement's, say).
   */
  changedSinceAnalyze?: number;
  /** For a table: rows updated since the statistics were reset, and how many of them HOT (same page, no index entry). */
  rowsUpdated?: { all: number; hot: number };
  /** For a table: its TOAST table's plan name, where it has one. */
  toast?: string;
  /** For a table: the columns whose values may be stored out of line, in its TOAST table. */
  toastColumns?: string[];
  /** Blocks cached before run 1, as [first, last] ranges. */
  cachedBefore: Array<[number, number]>;
}

export interface PgPredictionSettings {
  major: number;
  nbuffers: number;
  blockSize: number;
  effectiveIoConcurrency: number;
  ioCombineLimit: number;
  maxConnections: number;
  maxWorkerProcesses: number;
  maxWalSenders: number;
  autovacuumWorkerSlots: number;
  /** data_checksums or wal_log_hints is on: setting hint bits writes WAL (a full-page image after a checkpoint). */
  hintsWalLogged?: boolean;
  /** Buffers holding pages of other relations before run 1. */
  otherBuffersUsed: number;
  /**
   * Shared buffers before run 1 as pg_buffercache showed them: per buffer id a usage count ('0'–'5') or
   * '-' when free, and each cached block of the relations as [relation index in the facts, block, buffer
   * id]. The simulated pool starts in that state (other relations' pages where they were); without it, the
   * relations' blocks in block order after the other buffers.
   */
  bufferSeed?: {
    usage: string;
    blocks: Array<[number, number, number]>;
    /** The relations' cached blocks that were dirty, as [relation index, block]: written since the last checkpoint. */
    dirty?: Array<[number, number]>;
  };
  /** An UPDATE's assigned columns (its SET clause); undefined for other statements or when unknown. */
  updatedColumns?: string[];
  /**
   * Per table (its plan name), the heap block of each row a plain SELECT's one index scan returned, in
   * scan order, read after the last run (heap-blocks.ts; a nested loop's outer index scan: lookup-rows.ts).
   * Absent where not read: the heap order is modelled.
   */
  heapBlocks?: Record<string, number[]>;
  /**
   * Per table (its plan name), the heap block of each row an index-only scan fetched from the heap (its
   * page not all-visible in the visibility map, pg_visibility), in scan order, read after the last run
   * (fetched-blocks.ts). Absent where not read: the fetches' pages are modelled.
   */
  fetchedBlocks?: Record<string, number[]>;
  /**
   * Per table (its plan name), the heap blocks of the rows a bitmap heap scan's condition selects, in block
   * order, read after the last run (bitmap-blocks.ts). Absent where not read: the blocks are spread evenly.
   */
  bitmapBlocks?: Record<string, number[]>;
  /**
   * The indexes (plan names) an INSERT … SELECT appends to: every inserted row's leading value lies beyond
   * the index's largest, read after the last run (appended-keys.ts). Absent where not read.
   */
  appendedKeys?: string[];
  /**
   * Per index an INSERT … SELECT appends to (its plan name), the leaves of dead entries an earlier rolled-back
   * write left past the largest inserted key, read after the last run (dead-past-inserted.ts): none, and the
   * keys take the right-most leaf's fast path; some, and they lie among them. Absent where not read.
   */
  deadPastInserted?: Record<string, number>;
  /**
   * Per inner table of a nested loop (its plan name), each lookup's key (where integers) and the heap block
   * of the row it found, in the loop's order, read after the last run (lookup-rows.ts).
   */
  lookupRows?: Record<string, { keys?: number[]; blocks: number[] }>;
  /**
   * Per secondary index (its plan name) a plain SELECT's one index scan used on a table a table-wide update
   * doubled: the rows around the scanned ones, read after the last run (index-window.ts).
   */
  indexWindows?: Record<string, PgIndexWindow>;
  /**
   * Per single index scan (startFractionKey: its index and condition), the share of the index's entries
   * below its first key, from the leading column's statistics, read after the last run (key-fraction.ts).
   */
  startFractions?: Record<string, number>;
  /**
   * Per table (its plan name), among the rows an index scan visits, those an update moved out of key
   * order, read after the last run (moved-rows.ts). Absent where not read: no move is modelled.
   */
  movedRows?: Record<string, PgMovedRows>;
  /**
   * Per table (its plan name), the dead entries a plain SELECT's index scan meets on every run, read after
   * the last run (dead-entries.ts). Absent where not read: none are modelled beyond the statistics'.
   */
  deadEntries?: Record<string, PgDeadEntries>;
  /**
   * Per table (its plan name), the same count after a rolled-back write's runs, read where the statistics
   * counted dead versions before run 1: those an earlier write left under its keys, which run 1 met and no
   * view shows before it, and those its own runs left, which no count tells apart. The range takes them all
   * as met by run 1 (up to the dead versions counted before it); the prediction shown takes none.
   */
  writeDeadEntries?: Record<string, PgDeadEntries>;
  /**
   * Per scan and column an expression reads again (detoasting.ts toastKey), how many of the scan's rows hold
   * the column's value out of line and in how many chunks, read after the last run (toast-values.ts).
   * Absent where not read: reading them again is not modelled.
   */
  toastValues?: Record<string, PgToastValues>;
  /**
   * Per table an UPDATE or DELETE wrote (its plan name), the heap block of each row it wrote, in its scan's
   * order, read after the last run (written-rows.ts). Absent where not read: the rows' pages are modelled
   * from the scan (consecutive for a sequential or correlated one, random otherwise).
   */
  writtenBlocks?: Record<string, number[]>;
  /**
   * Per index of a table an UPDATE or INSERT … SELECT wrote (its plan name), each written row's position
   * along the index (the share of its entries below the row's key, from the leading column's statistics), in
   * the scan's order (an INSERT's: its SELECT's), read after the last run (key-positions.ts). Absent where
   * not read: the new entries go to leaves at random.
   */
  writtenKeyPositions?: Record<string, number[]>;
  /**
   * Per partial index (its plan name) of an INSERT … SELECT's target, how many of the inserted rows satisfy
   * its predicate and so take an entry, read after the last run (partial-entries.ts).
   */
  partialEntries?: Record<string, number>;
  /**
   * Per table a DELETE wrote (its plan name), its rows that hold values out of line, as [the row's number in
   * the scan's order, its values out of line, their chunks], read after the last run (written-rows.ts).
   */
  writtenOutOfLine?: Record<string, Array<[number, number, number]>>;
  /**
   * Per table an INSERT … SELECT writes (its plan name), its inserted rows and the values among them stored
   * out of line, read after the last run (inserted-values.ts).
   */
  insertedOutOfLine?: Record<string, PgToastValues>;
}

/**
 * Of a scan's `scanned` rows, `rows` reach the expression (all, but for a filter's later clause), and of
 * those `values` hold the column out of line, in `chunks` TOAST chunks and `bytes` stored bytes together.
 */
export interface PgToastValues {
  scanned: number;
  rows: number;
  values: number;
  chunks: number;
  bytes: number;
}

/**
 * Index entries an index scan's condition covers beyond its live rows, not marked dead, counted after the
 * last run by a bitmap scan of the same condition (dead-entries.ts): `dead` entries, `live` rows, and
 * `farBlocks` heap blocks the entries point to beyond the live rows' blocks.
 */
export interface PgDeadEntries {
  dead: number;
  live: number;
  farBlocks: number;
  /** An index-only scan's heap fetches on the last run, as executed: a run that fetched more met dead entries it marked. */
  lastFetches?: number;
}

/** The moved rows' heap blocks and their ranks (from 1) in key order among the `scanned` rows. */
export interface PgMovedRows {
  blocks: number[];
  ranks: number[];
  scanned: number;
}

/** Rows around a scan in index order: each one's key and its live version's heap block and line pointer; `first`: the scan's first row. */
export interface PgIndexWindow {
  keys: number[];
  blocks: number[];
  offsets: number[];
  first: number;
  /** Fewer rows than asked for preceded the scan: the rows begin with the index's first key. */
  startsIndex?: boolean;
}

/**
 * What a measurement reads after its last run (never before run 1, so nothing run 1 reads is touched
 * first): where the rows were, the dead entries counted, the keys' ends. Kept in the settings' and the
 * relations' fields the recorded inputs use; merged by withObservations, never written into facts
 * already handed over.
 */
export type PgPostRunObservations = Pick<
  PgPredictionSettings,
  | 'heapBlocks'
  | 'fetchedBlocks'
  | 'bitmapBlocks'
  | 'appendedKeys'
  | 'deadPastInserted'
  | 'lookupRows'
  | 'indexWindows'
  | 'startFractions'
  | 'movedRows'
  | 'deadEntries'
  | 'writeDeadEntries'
  | 'toastValues'
  | 'writtenBlocks'
  | 'writtenKeyPositions'
  | 'partialEntries'
  | 'writtenOutOfLine'
  | 'insertedOutOfLine'
> & {
  /** Per index (its report name), its smallest and largest key. */
  keyRanges?: Record<string, { min: number; max: number }>;
  /** Per index (its report name), its levels from root to leaf as a descent counted them (index-height.ts). */
  indexHeights?: Record<string, number>;
  /** Per index (its report name), the leaves of dead entries past its live keys at each end, as descents counted them (index-height.ts). */
  deadEndLeaves?: Record<string, { first: number; last: number }>;
};

/** The facts read before run 1 completed with what was observed after the last run: a new value. */
export function withObservations(facts: Omit<PgPredictionInput, 'runs'>, observed: PgPostRunObservations): Omit<PgPredictionInput, 'runs'> {
  const { keyRanges, indexHeights, deadEndLeaves, ...settings } = observed;
  const defined = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
  const withHeight = (f: PgRelationFacts) => (indexHeights?.[f.reportName] ? { ...f, height: indexHeights[f.reportName] } : f);
  const withEnds = (f: PgRelationFacts) => (deadEndLeaves?.[f.reportName] ? { ...f, deadEndLeaves: deadEndLeaves[f.reportName] } : f);
  return {
    relations: facts.relations.map((f) => withEnds(withHeight(keyRanges?.[f.reportName] ? { ...f, keyRange: keyRanges[f.reportName] } : f))),
    settings: { ...facts.settings, ...defined },
  };
}

/** Everything one PostgreSQL prediction needs: the relations, the settings, and each run's executed plan. */
export interface PgPredictionInput {
  relations: PgRelationFacts[];
  settings: PgPredictionSettings;
  runs: PlanNode[];
}

/** "128kB" → 16 blocks of 8 kB; a bare number is taken as blocks. */
export function parseBlocks(value: string | number | null | undefined, blockSize: number, fallback: number): number {
  if (value === null || value === undefined) return fallback;
  const m = /^(\d+)\s*(kB|MB|GB)?$/.exec(String(value).trim());
  if (!m) return fallback;
  const n = Number(m[1]);
  const bytes = m[2] === 'kB' ? n * 1024 : m[2] === 'MB' ? n * 1048576 : m[2] === 'GB' ? n * 1073741824 : n * blockSize;
  return Math.max(1, Math.round(bytes / blockSize));
}

/** A single index scan's key to its observed start (startFractions): its index's plan name and its index condition. */
export const startFractionKey = (index: string, indexCond: string): string => `${index}|${indexCond}`;
