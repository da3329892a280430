// What a predictor gives back, for both engines: per measured run the predicted reads, the pages of each
// relation cached after it, what the model assumed and what it left out; and the what-if series.
import type { PredictedRange, Reads, WhatIf } from '../shared/report';

/** One run as a predictor returns it (per-relation residency keyed by the report's relation name). */
export interface RunPrediction {
  predicted: Reads;
  predictedAfter: Map<string, number>;
  assumptions: string[];
  unmodelled: string[];
  /** InnoDB: per table, the pages requested and read (read-ahead included), to set beside the plan's per-table counts. */
  perTable?: Map<string, { pages: number; read: number }>;
}

/** The same, as plain data: what the predict step returns and the golden fixtures hold. */
export interface PredictedRun {
  predicted: Reads;
  predictedAfter: Record<string, number>;
  assumptions: string[];
  unmodelled: string[];
  /** Present where other draws of what the model guesses gave other numbers. */
  range?: PredictedRange;
  /** Per relation, the lowest and highest pages cached after the run over the draws, where they differ. */
  afterRange?: Record<string, [number, number]>;
  perTable?: Record<string, { pages: number; read: number }>;
}

export interface ReportPrediction {
  runs: PredictedRun[];
  whatIf?: WhatIf;
}

export interface PredictOptions {
  /** Re-simulate the runs with changed settings. */
  whatIf: boolean;
  /** Pool sizes, in bytes, for the pool-size series; a default sweep otherwise. */
  poolBytes?: number[];
  /** The statement's text: where a range over constants starts, which the plan does not say. */
  statement?: string;
  /**
   * Why run 1 finds every page it requests cached (an earlier measurement of the statement read none on
   * its last run, and every page of its relations then cached still is): see cached-statement.ts.
   */
  statementCached?: string;
  /**
   * An earlier measurement of the same write ran it this many times just before, each rolled back
   * (earlier-measurement.ts): run 1 meets what they left.
   */
  earlierRuns?: number;
}

export function asPredictedRun(p: RunPrediction): PredictedRun {
  return {
    predicted: p.predicted,
    predictedAfter: Object.fromEntries(p.predictedAfter),
    assumptions: p.assumptions,
    unmodelled: p.unmodelled,
    ...(p.perTable ? { perTable: Object.fromEntries(p.perTable) } : {}),
  };
}

/** How many times a prediction is drawn where the model guesses. */
export const DRAWS = 8;

/**
 * The band of the runs' predictions over draws: the lowest and highest per number, and per relation's
 * pages cached after, attached to a run only where the draws disagree. `draws[0]` are the runs shown (a
 * predictor puts the draw it shows first).
 */
export function withRanges(draws: PredictedRun[][]): PredictedRun[] {
  return draws[0].map((run, k) => {
    const all = draws.map((d) => d[k].predicted);
    const pick = (f: (a: number, b: number) => number) =>
      Object.fromEntries(
        (['logicalReads', 'physicalReads', 'readAhead'] as const).map((m) => [
          m,
          all.some((r) => r[m] === null) ? null : all.map((r) => r[m]!).reduce((a, b) => f(a, b)),
        ]),
      ) as unknown as Reads;
    const low = pick(Math.min);
    const high = pick(Math.max);
    const differs = (['logicalReads', 'physicalReads', 'readAhead'] as const).some((m) => low[m] !== high[m]);
    const afterRange: Record<string, [number, number]> = {};
    for (const relation of Object.keys(run.predictedAfter)) {
      const values = draws.map((d) => d[k].predictedAfter[relation]).filter((v) => v !== undefined);
      const [lo, hi] = [Math.min(...values), Math.max(...values)];
      if (lo !== hi) afterRange[relation] = [lo, hi];
    }
    return {
      ...run,
      ...(differs ? { range: { draws: draws.length, low, high } } : {}),
      ...(Object.keys(afterRange).length ? { afterRange } : {}),
    };
  });
}

/**
 * The draw to show where every draw is an equally likely guess (positions, orders): the one nearest the
 * median of the draws on each run's logical reads and pages read, so that a guess the draws mostly reject
 * (one read-ahead triggered out of eight, say) is not the number shown. Ties go to the earlier draw.
 */
export function centralDraw(draws: Reads[][]): number {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const pages = (r: Reads) => (r.physicalReads === null ? null : r.physicalReads + (r.readAhead ?? 0));
  const metrics = [(r: Reads) => r.logicalReads, pages];
  const runs = draws[0]?.length ?? 0;
  const centres = Array.from({ length: runs }, (_, k) =>
    metrics.map((m) => {
      const values = draws.map((d) => m(d[k]));
      return values.some((v) => v === null) ? null : median(values as number[]);
    }),
  );
  let best = 0;
  let bestScore = Infinity;
  draws.forEach((d, i) => {
    let score = 0;
    d.forEach((r, k) =>
      metrics.forEach((m, j) => {
        const c = centres[k][j];
        const v = m(r);
        if (c !== null && v !== null) score += Math.abs(v - c) / Math.max(1, c);
      }),
    );
    if (score < bestScore - 1e-12) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}
