// The predict step replayed from a fixture: the engine's facts and runs as a measurement gave them.
// Shared by the golden test and the script that records the fixtures. Not a test file itself.
import { predictInnodb } from '../../src/predict/innodb/predict';
import { predictPostgres } from '../../src/predict/postgres/predict';
import type { InnodbPredictionInput } from '../../src/predict/innodb/facts';
import type { PgPredictionInput } from '../../src/predict/postgres/facts';
import type { ReportPrediction } from '../../src/predict/prediction';

export interface PredictFixtureInput {
  engine: 'postgresql' | 'mysql';
  /** The statement that was measured, for a reader of the fixture. */
  statement?: string;
  facts: unknown;
  runs: unknown[];
  /** Why run 1 finds every page it requests cached (an earlier measurement's), where the measurement knew. */
  statementCached?: string;
  /** An earlier measurement of the same write ran it this many times just before, rolled back (PredictOptions.earlierRuns). */
  earlierRuns?: number;
}

export function predictFixture(input: PredictFixtureInput, options: { whatIf: boolean } = { whatIf: true }): ReportPrediction {
  const cached = {
    ...(input.statementCached ? { statementCached: input.statementCached } : {}),
    ...(input.earlierRuns ? { earlierRuns: input.earlierRuns } : {}),
  };
  return input.engine === 'postgresql'
    ? predictPostgres({ ...(input.facts as Omit<PgPredictionInput, 'runs'>), runs: input.runs as PgPredictionInput['runs'] }, { ...options, ...cached })
    : predictInnodb(
        { ...(input.facts as Omit<InnodbPredictionInput, 'runs'>), runs: input.runs as InnodbPredictionInput['runs'] },
        { ...options, ...cached, ...(input.statement ? { statement: input.statement } : {}) },
      );
}
