// The InnoDB predict step: measured runs and catalog facts in, predictions and what-ifs out. Pure: a
// JSON fixture replays it with no server (test/fixtures/predict/innodb).
import { asPredictedRun, type PredictOptions, type ReportPrediction } from '../prediction';
import type { InnodbPredictionInput } from './facts';
import { InnodbPredictor } from './predictor';

export function predictInnodb(input: InnodbPredictionInput, options: PredictOptions): ReportPrediction {
  const predictor = new InnodbPredictor(input.indexes, input.settings);
  const runs = input.runs.map((r) => asPredictedRun(predictor.predictRun(r)));
  return options.whatIf ? { runs, whatIf: predictor.whatIf(input.runs, options.poolBytes) } : { runs };
}
