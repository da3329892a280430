// The InnoDB predict step: measured runs and catalog facts in, predictions and what-ifs out. Pure: a
// JSON fixture replays it with no server (test/fixtures/predict/innodb).
import { asPredictedRun, DRAWS, withRanges, type PredictOptions, type ReportPrediction } from '../prediction';
import type { InnodbPredictionInput } from './facts';
import { InnodbPredictor } from './predictor';

export function predictInnodb(input: InnodbPredictionInput, options: PredictOptions): ReportPrediction {
  const why = input.settings.unavailable;
  if (why) {
    const none = { logicalReads: null, physicalReads: null, readAhead: null };
    return { runs: input.runs.map(() => ({ predicted: none, predictedAfter: {}, assumptions: [], unmodelled: [`every prediction: ${why}`] })) };
  }
  const predictor = new InnodbPredictor(input.indexes, input.settings);
  const first = input.runs.map((r) => asPredictedRun(predictor.predictRun(r)));
  // The same runs with other draws of what the model guesses: the band beside the first draw.
  const others = Array.from({ length: DRAWS - 1 }, (_, d) => {
    const again = new InnodbPredictor(input.indexes, input.settings, d + 1);
    return input.runs.map((r) => again.predictRun(r).predicted);
  });
  const runs = withRanges([first.map((r) => r.predicted), ...others], first);
  return options.whatIf ? { runs, whatIf: predictor.whatIf(input.runs, options.poolBytes) } : { runs };
}
