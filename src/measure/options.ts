import type { Report } from '../shared/report';
/** What a caller (CLI, editor) asks of a measurement; engine-independent. */
export interface MeasureOptions {
  /** The input text; its first statement is measured. */
  sql: string;
  runs: number;
  /** 'yes': evict before run 1 or fail; 'try': evict where possible, else measure and say so. */
  cold: 'no' | 'yes' | 'try';
  /** Keep a data-changing statement's changes instead of rolling every run back. */
  commit: boolean;
  /**
   * Measure although the statement has effects a rollback cannot undo (a file written, a remote commit,
   * a signalled session): the user has acknowledged them. Off by default: such statements are refused.
   */
  allowSideEffects?: boolean;
  /** Per-node timing in EXPLAIN ANALYZE (costs overhead). */
  timing: boolean;
  /** Per-run statement limit. */
  timeoutMs: number;
  /**
   * Read buffer residency (which pages are cached) around each run. 'auto' skips it, with a warning,
   * when the pool is larger than residencyLimitPages: the engines' views scan every buffer header.
   */
  residency?: 'auto' | 'always' | 'never';
  residencyLimitPages?: number;
  /** Re-simulate the runs with changed settings (default on). */
  whatIf?: boolean;
  /** Pool sizes, in bytes, for the what-if pool series; a default sweep otherwise. */
  whatIfPoolBytes?: number[];
  /**
   * The last report of the same statement on the same server, where the caller keeps one: when its last
   * run read nothing and its relations' cached pages still are, run 1 is predicted to find every page cached.
   */
  earlier?: Report;
  /** Create pg_buffercache when missing and allowed. */
  createExtension?: boolean;
  /**
   * Receives what the predict step was given (facts, settings and each run as replayed): plain data that
   * reproduces the prediction with no server. The golden fixtures of test/fixtures/predict come from it.
   */
  onPredictionInput?: (input: {
    engine: 'postgresql' | 'mysql';
    statement: string;
    facts: unknown;
    runs: unknown[];
    statementCached?: string;
    earlierRuns?: number;
  }) => void;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

/** 262,144 pages = 2 GiB of 8 KiB pages: pg_buffercache scans them in roughly 40 ms. */
export const DEFAULT_RESIDENCY_LIMIT_PAGES = 262_144;
