// The PostgreSQL predict step: measured plans and catalog facts in, predictions and what-ifs out. Pure: a
// JSON fixture replays it with no server (test/fixtures/predict/postgresql).
import { asPredictedRun, DRAWS, withRanges, type PredictOptions, type ReportPrediction } from '../prediction';
import type { PgPredictionInput } from './facts';
import { PostgresPredictor } from './predictor';

export function predictPostgres(input: PgPredictionInput, options: PredictOptions): ReportPrediction {
  const cached = options.statementCached;
  const made = (draw: number) => {
    const p = new PostgresPredictor(input.relations, input.settings, draw);
    if (cached && input.runs.length > 0) p.assumeStatementCached(input.runs[0], cached, options.earlierRuns ?? 0);
    if (options.earlierRuns && input.runs.length > 0) p.assumeEarlierRuns(input.runs[0], options.earlierRuns, cached === undefined);
    return p;
  };
  const predictor = made(0);
  const first = input.runs.map((plan) => asPredictedRun(predictor.predictRun(plan)));
  // The same runs with other draws of what the model guesses: the band beside the first draw.
  const others = Array.from({ length: DRAWS - 1 }, (_, d) => {
    const again = made(d + 1);
    return input.runs.map((plan) => asPredictedRun(again.predictRun(plan)));
  });
  const runs = withRanges([first, ...others]);
  return options.whatIf ? { runs, whatIf: predictor.whatIf(input.runs, options.poolBytes) } : { runs };
}
