// The PostgreSQL predict step: measured plans and catalog facts in, predictions and what-ifs out. Pure: a
// JSON fixture replays it with no server (test/fixtures/predict/postgresql).
import { asPredictedRun, DRAWS, withRanges, type PredictOptions, type ReportPrediction } from '../prediction';
import type { PgPredictionInput } from './facts';
import { PostgresPredictor } from './predictor';

export function predictPostgres(input: PgPredictionInput, options: PredictOptions): ReportPrediction {
  const predictor = new PostgresPredictor(input.relations, input.settings);
  const first = input.runs.map((plan) => asPredictedRun(predictor.predictRun(plan)));
  // The same runs with other draws of what the model guesses: the band beside the first draw.
  const others = Array.from({ length: DRAWS - 1 }, (_, d) => {
    const again = new PostgresPredictor(input.relations, input.settings, d + 1);
    return input.runs.map((plan) => asPredictedRun(again.predictRun(plan)));
  });
  const runs = withRanges([first, ...others]);
  return options.whatIf ? { runs, whatIf: predictor.whatIf(input.runs, options.poolBytes) } : { runs };
}
