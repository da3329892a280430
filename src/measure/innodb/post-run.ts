// What an InnoDB measurement keeps beside the runs: what the queries after the last run observed, and
// the calibration's numbers under their own names in a run's raw counters.
import type { InsertEdge } from '../../predict/innodb/facts';

/** What the queries after the last run observe, for the runs' prediction inputs. */
export interface InnodbPostRunObservations {
  /** EXPLAIN's plan, where the runs gave none (MySQL: EXPLAIN would touch the pages before run 1). */
  explainPlan?: unknown;
  /** Why no plan could be had. */
  planMissing?: string;
  keyRanges: Record<string, [number, number]>;
  lookupKeys: Record<string, number[]>;
  /** Per clustered index: its records' bytes and the pages its long values take off the rows' pages (off-page.ts). */
  rowStorage: Record<string, { offPagePages: number; recordBytes: number; sampled: number; rows?: number }>;
  /** A rolled-back INSERT … SELECT: where its keys fell in each index of its table (insert-edges.ts). */
  insertEdges: Record<string, InsertEdge>;
  /** A rolled-back UPDATE or DELETE: its rows' values of each changed secondary index's first column (written-keys.ts). */
  writtenKeys: Record<string, number[]>;
  /** Per index (report name), its levels, counted by a descent (index-levels.ts; MariaDB). */
  indexLevels: Record<string, number>;
}

/** The observations a run's prediction input carries as they are. */
export function runFacts(
  o: InnodbPostRunObservations,
): Pick<InnodbPostRunObservations, 'keyRanges' | 'lookupKeys' | 'rowStorage' | 'writtenKeys' | 'indexLevels'> {
  return { keyRanges: o.keyRanges, lookupKeys: o.lookupKeys, rowStorage: o.rowStorage, writtenKeys: o.writtenKeys, indexLevels: o.indexLevels };
}

/** The observations that hold something, for a run's prediction input. */
export function nonEmpty<T extends Record<string, object>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => Object.keys(v).length > 0)) as Partial<T>;
}

export function prefixed(prefix: string, o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [prefix + k, v]));
}

/** Each AUTO_INCREMENT counter the runs' rolled-back inserts advanced: not given back by the rollback. */
export function autoIncrementWarnings(after: Map<string, number>, rowsInserted: number): string[] {
  return [...after].map(
    ([name, v]) =>
      `the AUTO_INCREMENT counter of ${name} advanced by at least ${rowsInserted.toLocaleString('en-US')} over the runs (one value per row inserted; ` +
      `bulk inserts reserve more) and stays advanced after the rollback: it now stands at ${v.toLocaleString('en-US')}`,
  );
}
