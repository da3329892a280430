// The measurement report: what `bufferlens measure --json` prints, what the editor stores and the
// webview renders. Version 1 is the public contract in shared/contracts/report.schema.json; fields
// beyond the contract's minimum are additions, never changes of meaning.

export type Product = 'postgresql' | 'mysql' | 'mariadb';

/** The three normalised numbers. null means "the engine cannot tell" — never a made-up 0. */
export interface Reads {
  logicalReads: number | null;
  physicalReads: number | null;
  readAhead: number | null;
}

/** Why a number in Reads is null, or what it includes, keyed by field. */
export type ReadsNotes = Partial<Record<keyof Reads, string>>;

export interface RelationResidency {
  relation: string;
  kind: 'table' | 'index' | 'other';
  /** Size of the relation in pages at measurement time. */
  pages: number;
  cachedBefore: number | null;
  cachedAfter: number | null;
  predictedAfter: number | null;
  /** Where the model guesses (see RunReport.predictedRange): the lowest and highest of its draws. */
  predictedAfterRange?: [number, number];
  /** Block numbers cached after the run, as [start, endInclusive] ranges, for a block map. */
  blocksAfter?: Array<[number, number]>;
}

/** One plan node with its buffer counters; `self` excludes the node's children. */
export interface PlanNode {
  nodeType: string;
  /** ModifyTable: Insert, Update, Delete or Merge. */
  operation?: string;
  relation?: string;
  /** The name the statement gives the relation (its alias, or the relation's name). */
  alias?: string;
  index?: string;
  /** Index scans: the condition on the index as EXPLAIN prints it, e.g. "(id = a.k)". */
  indexCond?: string;
  /** "Partial" or "Finalize" for the two halves of a parallel aggregate (EXPLAIN's Partial Mode). */
  partialMode?: string;
  /** Joins: Left, Right, Full, Semi, Anti…; aggregates and set operations: Sorted, Hashed, Mixed… (EXPLAIN's Join Type, Strategy). */
  joinType?: string;
  strategy?: string;
  /** The planner's estimate of rows per loop (EXPLAIN's Plan Rows). */
  planRows?: number;
  /** What the node tests and sorts on, as EXPLAIN prints it: "Hash Cond: (…)", "Filter: (…)", "Sort Key: a, b", "Sort Method: quicksort, Memory 25 kB". */
  conditions?: string[];
  /**
   * What the node's output computes beyond passing columns on, as EXPLAIN VERBOSE prints it, e.g.
   * "sum(length(doc))": where a long value stored out of line is read again (detoasted).
   */
  computed?: string[];
  rowsRemovedByJoinFilter?: number;
  rowsRemovedByIndexRecheck?: number;
  /** Sorts: how many keys they sort on (EXPLAIN's Sort Key). */
  sortKeys?: number;
  /** Index scans: walked from the index's high end (EXPLAIN's Scan Direction: Backward). */
  backward?: boolean;
  workersPlanned?: number;
  workersLaunched?: number;
  actualRows?: number;
  actualLoops?: number;
  parallelAware?: boolean;
  /** Heap tuples fetched and then discarded by a Filter, per loop. */
  rowsRemovedByFilter?: number;
  /** Index-only scans: tuples that had to visit the heap. */
  heapFetches?: number;
  /** PostgreSQL 18+ index scans: descents from the root, per loop (EXPLAIN's Index Searches; a skip scan's repositionings). */
  indexSearches?: number;
  /**
   * PostgreSQL UPDATE (ModifyTable): of the rows it updated, those whose new version went on the same page
   * with no index entry (HOT), as the server counted them in the run's transaction.
   */
  hotUpdated?: number;
  /** Bitmap heap scans: heap blocks visited. */
  exactHeapBlocks?: number;
  lossyHeapBlocks?: number;
  /** Parallel workers' own share (EXPLAIN VERBOSE): shared blocks touched and rows, per worker. */
  workers?: Array<{ blocks: number; rows: number }>;
  totalTimeMs?: number;
  total: BufferCounters;
  self: BufferCounters;
  children: PlanNode[];
}

export interface BufferCounters {
  sharedHit: number;
  sharedRead: number;
  sharedDirtied: number;
  sharedWritten: number;
  localHit: number;
  localRead: number;
  localDirtied: number;
  localWritten: number;
  tempRead: number;
  tempWritten: number;
  /** null when track_io_timing is off. */
  readTimeMs: number | null;
  writeTimeMs: number | null;
}

export interface RunReport {
  run: number;
  cold: boolean;
  elapsedMs: number;
  measured: Reads;
  predicted: Reads;
  /** What each measured number means on this engine/version, and why a null is null. */
  notes?: ReadsNotes;
  residency: RelationResidency[];
  /** The engine's own counter deltas for this run, by their engine names. */
  raw: Record<string, number | string | null>;
  plan?: PlanNode;
  planning?: BufferCounters;
  /**
   * Where the model draws what it cannot know (a range's position, the order of lookups, which leaves are
   * full): the lowest and highest prediction over `draws` draws; `predicted` is the first of them.
   */
  predictedRange?: PredictedRange;
  /** The simulator's prediction for this run: what it assumed and which plan nodes it could not model. */
  prediction?: { assumptions: string[]; unmodelled: string[] };
  /** The engine's own plan output where it is not a PostgreSQL plan tree: MariaDB's ANALYZE FORMAT=JSON, MySQL's EXPLAIN ANALYZE text. */
  enginePlan?: unknown;
  /** MariaDB plans name tables by their aliases: alias → table, as the statement declares them. */
  planTables?: Record<string, string>;
  /** InnoDB: per table (every index of it), the pages the prediction requested and read, read-ahead included, beside the plan's r_engine_stats. */
  predictedTables?: Record<string, { pages: number; read: number }>;
}

export interface PredictedRange {
  draws: number;
  low: Reads;
  high: Reads;
}

export interface Report {
  schemaVersion: 1;
  engine: {
    product: Product;
    version: string;
    pageSize: number;
    /** The settings that explain the numbers, by their engine names. */
    settings: Record<string, string | number | null>;
  };
  statement: string;
  createdAt: string;
  /** Where it was measured, without any password. */
  target: string;
  /** Every run was rolled back (false only with --commit). */
  rolledBack: boolean;
  /** The statement writes (INSERT/UPDATE/DELETE/MERGE, CREATE TABLE AS, a writing CTE). */
  dataChanging?: boolean;
  runs: RunReport[];
  warnings: string[];
  /** The same runs re-simulated with changed settings, for what-if charts. */
  whatIf?: WhatIf;
}

/** One what-if series: a setting varied, the predicted outcome per value, the current value marked. */
export interface WhatIfSeries {
  setting: string;
  /** Unit of `value`: pages, ms, workers, or '' for a count or named values. */
  unit: string;
  /**
   * `value` is the setting's value in `unit`; for a setting with named values (innodb_change_buffering)
   * it is the position of `label` in the series. The reads are predicted totals over all runs;
   * `physicalReads` are all pages read from disk: on InnoDB synchronous reads and read-ahead together.
   */
  points: Array<{ value: number; label: string; current: boolean; physicalReads: number; logicalReads: number; missRatio: number }>;
}

export interface WhatIf {
  /** Which runs the series add up (all measured runs, from the same starting state). */
  runs: number;
  series: WhatIfSeries[];
}

export const EMPTY_READS: Reads = { logicalReads: null, physicalReads: null, readAhead: null };
