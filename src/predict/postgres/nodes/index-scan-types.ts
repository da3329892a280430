// What a single index scan's parts hand each other: its base (index-scan.ts), its route (index-scan-route.ts)
// and the walk that follows it (index-scan-walk.ts).
import type { PlanNode } from '../../../shared/report';
import type { DeadVersions, LiveRows } from '../heap-layout';
import type { ChurnedLeaves } from '../version-churn';
import type { PgDeadEntries, PgMovedRows, PgRelationFacts } from '../facts';

/** What a single scan's heap visits start from: the table, its live rows and dead versions, and what is known of its rows. */
export interface ScanBase {
  n: PlanNode;
  t: number;
  f: PgRelationFacts;
  indexOnly: boolean;
  /** Entries the scan walked, and of them those whose heap it visited. */
  tuples: number;
  heapTuples: number;
  /** Share of heap visits in block order, from the index's correlation. */
  ordered: number;
  live: LiveRows;
  dead: DeadVersions | undefined;
  /** Which keys an earlier run marked dead after a table-wide update (churned leaves, or alone per row). */
  kills: { leaves: ChurnedLeaves; min: number; max: number } | undefined;
  alone: ArrayLike<number> | undefined;
  first: { key: number; fraction: number } | undefined;
  /** The key the churned leaves are walked from. */
  start: number | undefined;
  liveVisits: number;
  /** The pages not all-visible an uncorrelated index-only scan fetches from. */
  unsettled: number[] | undefined;
  /** Where the scan starts along the live rows. */
  position: number;
  /** The rows' heap blocks as the scan found them, read after the last run. */
  known: number[] | undefined;
  capacity: number | undefined;
  loadOrder: { min: number; capacity: number; moved: Uint8Array } | undefined;
  /** Entries under one key of the scanned index (1: unique, or not known): they lie in heap order. */
  rowsPerKey: number;
}

/** The heap visits' route: what the walk meets beside the live rows, and where. */
export interface HeapRoute {
  /** Rows an update moved among those scanned (read after the runs), and how many of them the walk jumps to. */
  moved: PgMovedRows | undefined;
  jumps: number;
  /** Dead entries under the keys that no scan can mark, and the trips out to them. */
  far: PgDeadEntries | undefined;
  trips: number;
  /** Heap visits to live rows. */
  visits: number;
  /** Dead entries a key holds (one trip out takes them in turn). */
  perKey: (key: number) => number;
  farBlock: (j: number) => number;
  /** The pages a correlated index-only scan fetched from, where it fetched from part of its range. */
  partial: number[] | undefined;
  /** Where an earlier update's versions of rows moved twice lie: between the rows as loaded and the live ones. */
  twice: { first: number; pages: number } | undefined;
  /** Dead versions the k-th entry leads to, less those an earlier run marked. */
  unmarked: (k: number) => number;
  /** Out to the given blocks and back to `block`, asking the visibility map where an index-only scan must. */
  outAndBack: (block: number, ...away: number[]) => void;
  vmOf: (block: number) => number;
}
