// What the replay of a statement's reads needs from its predictor and from the run, shared by the lookups
// (read-replay.ts) and the full scans (full-scan.ts), and the rows a LIMIT leaves InnoDB fetching. Pure.
import type { IndexLayouts } from './index-layout';
import type { InnodbIndexFacts, InnodbPredictionSettings, InnodbRunInput } from './facts';
import type { TableAccess } from './plan';

/** What the read replay reads of its predictor. */
export interface InnodbReadContext {
  facts: InnodbIndexFacts[];
  settings: InnodbPredictionSettings;
  layouts: IndexLayouts;
  draw: number;
  statement: string | undefined;
  indexOf(table: string, key: string | undefined): number;
  /** Called when a range was placed where its key puts it, rather than its start drawn. */
  placedByKey(): void;
}

/** What a run's accesses are replayed with: whether a LIMIT stopped them, and the keys read after the runs. */
export interface ReadRun {
  limited: boolean;
  keyRanges: Record<string, [number, number]>;
  lookupKeys: Record<string, number[]>;
  /** A DELETE's table and the rows it deleted: those found through a secondary index are searched for again. */
  deleted?: { table: string; rows: number };
  /** An UPDATE's table and the rows it updated: where its plan collects positions first, each is read again. */
  updated?: { table: string; rows: number };
}

/** What a run's accesses are replayed with, from the run as measured. */
export function readRunOf(run: InnodbRunInput): ReadRun {
  const w = run.otherWrite;
  return {
    limited: run.limited === true,
    keyRanges: run.keyRanges ?? {},
    lookupKeys: run.lookupKeys ?? {},
    ...(w?.statement === 'DELETE' && w.rows ? { deleted: { table: w.table, rows: w.rows } } : {}),
    ...(w?.statement === 'UPDATE' && w.rows ? { updated: { table: w.table, rows: w.rows } } : {}),
  };
}

/** How the statement reads its rows, for InnoDB's row prefetch (row_search_mvcc). */
export interface PrefetchReader {
  /** The read locks its rows (UPDATE, DELETE, FOR UPDATE, LOCK IN SHARE MODE): no prefetch. */
  locking: boolean;
  /** The read hands up a BLOB or TEXT column (templ_contains_blob): no prefetch. */
  readsBlob: boolean;
}

const PREFETCH_THRESHOLD = 4; // MYSQL_FETCH_CACHE_THRESHOLD
const PREFETCH_CACHE = 8; // MYSQL_FETCH_CACHE_SIZE

/**
 * Rows fetched per fill of the prefetch cache. With an index condition pushed down every row found goes
 * into the cache, 8 to a fill; without one the first row goes straight to the server's record buffer and 8
 * more are cached, 9 to a fill. A plan recorded before the condition was read counts as pushed on a range or
 * lookup (the server pushes a range's own condition) and as not on a full index scan, which has none.
 */
export function prefetchFill(a: TableAccess): number {
  const pushed = a.indexCondition ?? (a.accessType !== 'index' && a.accessType !== 'ALL');
  return pushed ? PREFETCH_CACHE : PREFETCH_CACHE + 1;
}

/**
 * Rows InnoDB fetched for a scan the LIMIT stopped: after 4 single fetches a consistent read that hands up
 * no BLOB fills its prefetch cache (prefetchFill), so up to 8 rows past the limit are read, each with its
 * clustered lookup. Measured on MariaDB 10.11 (a date index over 120,000 rows, each row 3 gets): ORDER BY
 * the date LIMIT 5-13 fetched 13 rows, 14-22 fetched 22; the same range with its condition pushed LIMIT 12
 * fetched 12 and 13 fetched 20; selecting a MEDIUMTEXT column, each LIMIT its own rows. A scan that ran to
 * its range's end (rows as estimated) fetched no more.
 */
export function prefetchedRows(a: TableAccess, reader: PrefetchReader): number {
  if (!a.executed || a.loops > 1 || a.rows <= PREFETCH_THRESHOLD || a.estimatedRows === undefined || a.rows >= a.estimatedRows) return a.rows;
  if (reader.locking || reader.readsBlob) return a.rows;
  const fill = prefetchFill(a);
  return Math.min(a.estimatedRows, PREFETCH_THRESHOLD + fill * Math.ceil((a.rows - PREFETCH_THRESHOLD) / fill));
}
