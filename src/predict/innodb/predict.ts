// The InnoDB predict step: measured runs and catalog facts in, predictions and what-ifs out. Pure: a
// JSON fixture replays it with no server (test/fixtures/predict/innodb).
import { asPredictedRun, centralDraw, DRAWS, withRanges, type PredictOptions, type ReportPrediction } from '../prediction';
import type { InnodbIndexFacts, InnodbPredictionInput, InnodbPredictionSettings, InnodbRunInput } from './facts';
import { InnodbPredictor } from './predictor';
import { firstAccessAges } from './lru-seed';
import { IndexLayouts } from './index-layout';
import { withExactRows } from './key-position';
import { withOffPageLeaves } from './off-page-leaves';

export function predictInnodb(input: InnodbPredictionInput, options: PredictOptions): ReportPrediction {
  const why = input.settings.unavailable;
  if (why) {
    const none = { logicalReads: null, physicalReads: null, readAhead: null };
    return { runs: input.runs.map(() => ({ predicted: none, predictedAfter: {}, assumptions: [], unmodelled: [`every prediction: ${why}`] })) };
  }
  const offPage = withOffPageLeaves(input.indexes, input.runs.find((r) => r.rowStorage)?.rowStorage);
  const indexes = withExactRows(
    withCountedLevels(offPage.indexes, input.runs.find((r) => r.indexLevels)?.indexLevels),
    input.runs.map((r) => r.keyRanges),
    input.settings.pageSize,
  );
  // Every draw of what the model guesses (where ranges start, lookup orders, which leaves are full) is
  // equally likely: the central one is shown, the others give the band, and the what-if follows the one shown.
  const layouts = new IndexLayouts(indexes, input.settings.pageSize, firstAccessAges(input.settings.lruSeed));
  const settings = withRunPace(input.settings, input.runs);
  const predictors = Array.from({ length: DRAWS }, (_, d) => new InnodbPredictor(indexes, settings, d, options.statement, layouts));
  const cached = options.statementCached;
  if (cached && input.runs.length > 0) for (const p of predictors) p.assumeStatementCached(input.runs[0], cached);
  const draws = predictors.map((p) => input.runs.map((r) => asPredictedRun(p.predictRun(r))));
  // Where a range's start was worked out from its key, the draws that place it there are the prediction;
  // the others, which draw its start, only widen the band.
  const candidates = [...draws.keys()].filter((d) => !predictors.some((p) => p.placedByKey) || predictors[d].placedByKey);
  const shown = candidates[centralDraw(candidates.map((d) => draws[d].map((r) => r.predicted)))];
  const shownFirst = [shown, ...[...draws.keys()].filter((d) => d !== shown)];
  const runs = withRanges(shownFirst.map((d) => draws[d])).map((r) => (offPage.notes.length ? { ...r, assumptions: [...offPage.notes, ...r.assumptions] } : r));
  return options.whatIf ? { runs, whatIf: predictors[shown].whatIf(input.runs, options.poolBytes) } : { runs };
}

/**
 * The runs' time per page request, their total elapsed time over their total gets, as the clock of the
 * simulated pool: whether a page hit again was first read innodb_old_blocks_time before depends on how long
 * the runs took, disk reads and all. Kept as given where the settings name one or no run was timed.
 */
function withRunPace(settings: InnodbPredictionSettings, runs: InnodbRunInput[]): InnodbPredictionSettings {
  if (settings.msPerRequest !== undefined) return settings;
  const timed = runs.filter((r) => r.pace && r.pace.requests > 0);
  const ms = timed.reduce((a, r) => a + r.pace!.elapsedMs, 0);
  const requests = timed.reduce((a, r) => a + r.pace!.requests, 0);
  return requests > 0 && ms > 0 ? { ...settings, msPerRequest: ms / requests } : settings;
}

/** Each index's levels where a descent counted them after the runs (index-levels.ts). */
function withCountedLevels(indexes: InnodbIndexFacts[], levels: Record<string, number> | undefined): InnodbIndexFacts[] {
  if (!levels) return indexes;
  return indexes.map((f) => (levels[f.reportName] ? { ...f, levels: levels[f.reportName] } : f));
}
