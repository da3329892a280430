// What a predictor gives back, for both engines: per measured run the predicted reads, the pages of each
// relation cached after it, what the model assumed and what it left out; and the what-if series.
import type { PredictedRange, Reads, WhatIf } from '../shared/report';

/** One run as a predictor returns it (per-relation residency keyed by the report's relation name). */
export interface RunPrediction {
  predicted: Reads;
  predictedAfter: Map<string, number>;
  assumptions: string[];
  unmodelled: string[];
}

/** The same, as plain data: what the predict step returns and the golden fixtures hold. */
export interface PredictedRun {
  predicted: Reads;
  predictedAfter: Record<string, number>;
  assumptions: string[];
  unmodelled: string[];
  /** Present where other draws of what the model guesses gave other numbers. */
  range?: PredictedRange;
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
}

export function asPredictedRun(p: RunPrediction): PredictedRun {
  return { predicted: p.predicted, predictedAfter: Object.fromEntries(p.predictedAfter), assumptions: p.assumptions, unmodelled: p.unmodelled };
}

/** How many times a prediction is drawn where the model guesses: the first draw is the one shown. */
export const DRAWS = 8;

/**
 * The band of the runs' predictions over draws: the lowest and highest per number, attached to a run
 * only where the draws disagree. `draws[0]` are the runs shown.
 */
export function withRanges(draws: Reads[][], runs: PredictedRun[]): PredictedRun[] {
  return runs.map((run, k) => {
    const all = draws.map((d) => d[k]);
    const pick = (f: (a: number, b: number) => number) =>
      Object.fromEntries((['logicalReads', 'physicalReads', 'readAhead'] as const).map((m) => [m, all.some((r) => r[m] === null) ? null : all.map((r) => r[m]!).reduce((a, b) => f(a, b))])) as unknown as Reads;
    const low = pick(Math.min);
    const high = pick(Math.max);
    const differs = (['logicalReads', 'physicalReads', 'readAhead'] as const).some((m) => low[m] !== high[m]);
    return differs ? { ...run, range: { draws: draws.length, low, high } } : run;
  });
}
