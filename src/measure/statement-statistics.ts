// What a server already counts of the statements run on it (pg_stat_statements; performance_schema's
// statement digests), for a workload made from them: the statements by calls, and the range of a numeric
// indexed column to draw a placeholder from. Engine-neutral: each engine folder reads its own.

export interface CountedStatement {
  text: string;
  calls: number;
}

/** A column's range, or undefined when it is not numeric or has no index to read its ends from. */
export type RangeOf = (table: string, column: string) => Promise<[number, number] | undefined>;

export interface StatementStatistics {
  /** The view the statements come from, as a user knows it. */
  source: string;
  /** The statements in calls order, most called first. */
  statements: CountedStatement[];
  rangeOf: RangeOf;
  close(): Promise<void>;
}

/** The server keeps no such statistics, or the user may not read them: the message says what enables them. */
export class StatisticsUnavailable extends Error {}
