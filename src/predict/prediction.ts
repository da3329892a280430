// What a predictor gives back, for both engines: per measured run the predicted reads, the pages of each
// relation cached after it, what the model assumed and what it left out; and the what-if series.
import type { Reads, WhatIf } from '../shared/report';

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
