// What an InnoDB measurement keeps beside the runs: what the queries after the last run observed, and
// the calibration's numbers under their own names in a run's raw counters.

/** What the queries after the last run observe, for the runs' prediction inputs. */
export interface InnodbPostRunObservations {
  /** EXPLAIN's plan, where the runs gave none (MySQL: EXPLAIN would touch the pages before run 1). */
  explainPlan?: unknown;
  /** Why no plan could be had. */
  planMissing?: string;
  keyRanges: Record<string, [number, number]>;
  lookupKeys: Record<string, number[]>;
}

export function prefixed(prefix: string, o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [prefix + k, v]));
}
