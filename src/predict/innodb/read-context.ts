// What the replay of a statement's reads needs from its predictor and from the run, shared by the lookups
// (read-replay.ts) and the full scans (full-scan.ts), and the rows a LIMIT leaves InnoDB fetching. Pure.
import type { IndexLayouts } from './index-layout';
import type { InnodbIndexFacts, InnodbPredictionSettings } from './facts';
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
}

/**
 * Rows InnoDB fetched for a scan the LIMIT stopped: after 4 single fetches a consistent read fills its
 * prefetch cache 8 rows at a time (MYSQL_FETCH_CACHE_THRESHOLD, MYSQL_FETCH_CACHE_SIZE), so up to 7 rows
 * past the limit are read, each with its clustered lookup (measured: LIMIT 5 and 12 fetched 12 rows, LIMIT
 * 50 fetched 52). A scan that ran to its range's end (rows as estimated) fetched no more.
 */
export function prefetchedRows(a: TableAccess): number {
  if (!a.executed || a.loops > 1 || a.rows <= 4 || a.estimatedRows === undefined || a.rows >= a.estimatedRows) return a.rows;
  return Math.min(a.estimatedRows, 4 + 8 * Math.ceil((a.rows - 4) / 8));
}
