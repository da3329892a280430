// The PostgreSQL predict step: measured plans and catalog facts in, predictions and what-ifs out. Pure: a
// JSON fixture replays it with no server (test/fixtures/predict/postgresql).
import { asPredictedRun, type PredictOptions, type ReportPrediction } from '../prediction';
import type { PgPredictionInput } from './facts';
import { PostgresPredictor } from './predictor';

export function predictPostgres(input: PgPredictionInput, options: PredictOptions): ReportPrediction {
  const predictor = new PostgresPredictor(input.relations, input.settings);
  const runs = input.runs.map((plan) => asPredictedRun(predictor.predictRun(plan)));
  return options.whatIf ? { runs, whatIf: predictor.whatIf(input.runs, options.poolBytes) } : { runs };
}
