// The one measurement lifecycle, for every engine: check the statement, open the engine's session, decide
// residency and a cold start, run the statement N times with residency before and after each run, then
// hand the measured runs to the predict step and assemble the report. Engines do only driver work
// (engine-session.ts); everything here is written once.
import { describeTarget, type ConnectionTarget } from '../db/connection-url';
import { MeasureError } from '../db/errors';
import { EMPTY_READS, type RelationResidency, type Report, type RunReport } from '../shared/report';
import type { PredictedRun, ReportPrediction } from '../predict/prediction';
import type { EngineDefinition, EngineSession, ResidencySnapshot, RunOutcome, TrackedRelation } from './engine-session';
import { DEFAULT_RESIDENCY_LIMIT_PAGES, type MeasureOptions } from './options';
import type { CheckedStatement } from '../sql/classify/statement-check';
import { earlierMeasurementNote, earlierRolledBackRuns } from './earlier-measurement';

export async function runMeasurement<Facts, RunInput, Observed>(
  engine: EngineDefinition<Facts, RunInput, Observed>,
  target: ConnectionTarget,
  options: MeasureOptions,
): Promise<Report> {
  // No server takes a NUL character; the drivers' own messages about it say nothing useful.
  if (options.sql.includes('\0')) throw new MeasureError('the statement contains a NUL character (\\0), which no server accepts in SQL text', 'input');
  const check = engine.check(options.sql, options.commit);
  if (!check.ok) throw new MeasureError(check.reason, check.kind);
  const warnings = [...check.warnings];
  const session = await openCancellably(engine, target, check, options);
  let measured: Measured<Facts, RunInput, Observed>;
  // The cancel runs on a second connection; it is awaited before returning, so that none is left open.
  let cancelling: Promise<void> | undefined;
  const onAbort = () => {
    cancelling = session.cancel().catch(() => undefined);
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    measured = await measureRuns(session, options, warnings, { statement: check.statement, target: describeTarget(target) });
  } catch (err) {
    throw inInputLines(err, options.sql, check.offset);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await cancelling;
    await session.close();
  }
  // The prediction needs no server: the connection is released before simulating.
  const runInputs = measured.outcomes.map((o) => o.predictInput(measured.observed));
  const facts = engine.complete(measured.facts, measured.observed);
  const cached = {
    ...(measured.statementCached ? { statementCached: measured.statementCached } : {}),
    ...(measured.earlierRuns ? { earlierRuns: measured.earlierRuns } : {}),
  };
  options.onPredictionInput?.({ engine: engine.id, statement: options.sql, facts, runs: runInputs, ...cached });
  const prediction = engine.predict(facts, runInputs, {
    whatIf: options.whatIf !== false,
    statement: options.sql,
    ...cached,
    ...(options.whatIfPoolBytes ? { poolBytes: options.whatIfPoolBytes } : {}),
  });
  return assemble(session, target, check.statement, check.dataChanging, options, measured, prediction, warnings);
}

/**
 * A server's error position is found in the statement sent; the input may begin with comments or
 * blank lines before it, and a user reads positions in the input (a file, the text given).
 */
function inInputLines(err: unknown, input: string, offset: number): unknown {
  if (!(err instanceof MeasureError) || !err.at || offset === 0) return err;
  const before = input.slice(0, offset).split('\n');
  const at = {
    line: err.at.line + before.length - 1,
    column: err.at.line === 1 ? err.at.column + before[before.length - 1].length : err.at.column,
  };
  const message = err.message.replace(`(line ${err.at.line}, column ${err.at.column})`, `(line ${at.line}, column ${at.column})`);
  return new MeasureError(message, err.kind, err.acknowledgeable, at);
}

interface Measured<Facts, RunInput, Observed> {
  facts: Facts;
  /** What the queries after the last run observed. */
  observed: Observed;
  outcomes: Array<RunOutcome<RunInput, Observed>>;
  residencies: RelationResidency[][];
  cold: boolean;
  /** Why run 1 finds every page it requests cached (earlier-measurement.ts), where an earlier report shows it. */
  statementCached?: string;
  /** The runs of an earlier measurement of the same write, rolled back (earlier-measurement.ts), where the caller handed one. */
  earlierRuns?: number;
}

/** Connecting can hang (a server that accepts and never answers): a cancel must not wait for it. */
async function openCancellably<Facts, RunInput, Observed>(
  engine: EngineDefinition<Facts, RunInput, Observed>,
  target: ConnectionTarget,
  check: CheckedStatement,
  options: MeasureOptions,
): Promise<EngineSession<Facts, RunInput, Observed>> {
  const signal = options.signal;
  if (signal?.aborted) throw new MeasureError('cancelled before connecting', 'cancelled');
  const opening = engine.open(target, check, options);
  if (!signal) return opening;
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new MeasureError('cancelled while connecting', 'cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([opening, aborted]);
  } catch (err) {
    // A connection that arrives after the cancel is closed at once.
    void opening.then(
      (s) => s.close(),
      () => undefined,
    );
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

async function measureRuns<Facts, RunInput, Observed>(
  session: EngineSession<Facts, RunInput, Observed>,
  options: MeasureOptions,
  warnings: string[],
  measuring: { statement: string; target: string },
): Promise<Measured<Facts, RunInput, Observed>> {
  await session.prepare(warnings);
  const withResidency = residencyWanted(session, options, warnings);
  const evictFailure = options.cold === 'no' ? undefined : await session.evict(warnings);
  await session.beforeRuns();
  // Each run's "after" residency is the next run's "before": nothing of ours runs in between.
  let residency = await session.readResidency(withResidency, 'before run 1');
  // A restart leaves at most an index's root page cached (InnoDB reads it when it opens the table).
  const nothingCached =
    withResidency && session.notColdBecause === undefined && session.relations.length > 0 && [...residency.values()].every((r) => r.cached <= 1);
  const cold = coldStart(options, evictFailure, nothingCached, warnings);
  const facts = await session.predictionFacts(residency, withResidency, warnings);
  const statementCached = withResidency && !cold ? earlierMeasurementNote(options.earlier, measuring.statement, measuring.target, residency) : undefined;
  const outcomes: Array<RunOutcome<RunInput, Observed>> = [];
  const residencies: RelationResidency[][] = [];
  for (let n = 1; n <= options.runs; n++) {
    // A cancel between statements has nothing to stop on the server: it must stop the loop.
    if (options.signal?.aborted) throw new MeasureError(`cancelled before run ${n}`, 'cancelled');
    options.onProgress?.(`run ${n} of ${options.runs}`);
    const { outcome, after } = await asCancelled(n, options.signal, async () => {
      const outcome = await session.run(n, n === 1 && cold);
      return { outcome, after: await session.readResidency(withResidency, 'after a run') };
    });
    outcomes.push(outcome);
    residencies.push(residencyRows(session.relations, residency, after, withResidency));
    warnings.push(...outcome.warnings);
    residency = after;
  }
  const observed = await session.finishRuns();
  warnings.push(...(await session.closingWarnings()));
  const earlierRuns = earlierRolledBackRuns(options.earlier, measuring.statement, measuring.target);
  return { facts, observed, outcomes, residencies, cold, ...(statementCached ? { statementCached } : {}), ...(earlierRuns ? { earlierRuns } : {}) };
}

/** A cancel may land on any of a run's queries (counters, residency), not only the statement: all mean "cancelled". */
async function asCancelled<T>(run: number, signal: AbortSignal | undefined, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (signal?.aborted && !(err instanceof MeasureError && err.kind === 'cancelled')) {
      throw new MeasureError(`cancelled during run ${run}: the statement was stopped on the server and rolled back`, 'cancelled');
    }
    throw err;
  }
}

function residencyWanted<F, R, O>(session: EngineSession<F, R, O>, options: MeasureOptions, warnings: string[]): boolean {
  if (!session.residencyAvailable || options.residency === 'never') return false;
  const limit = options.residencyLimitPages ?? DEFAULT_RESIDENCY_LIMIT_PAGES;
  if (options.residency !== 'always' && session.poolPages > limit) {
    warnings.push(session.residencySkipped(limit));
    return false;
  }
  return true;
}

/**
 * Run 1 is cold when the statement's relations were evicted, or when the residency snapshot shows none of
 * their pages cached but at most a root page each (after a restart): then the engine's inability to evict
 * does not matter.
 */
function coldStart(options: MeasureOptions, evictFailure: string | undefined, nothingCached: boolean, warnings: string[]): boolean {
  if (nothingCached) return true;
  if (options.cold === 'no') return false;
  if (evictFailure === undefined) return true;
  if (options.cold === 'yes') throw new MeasureError(`--cold is not possible: ${evictFailure} (--cold=try measures anyway)`, 'unsupported');
  warnings.push(`run 1 is not cold: ${evictFailure}`);
  return false;
}

function assemble<Facts, RunInput, Observed>(
  session: EngineSession<Facts, RunInput, Observed>,
  target: ConnectionTarget,
  statement: string,
  dataChanging: boolean,
  options: MeasureOptions,
  measured: Measured<Facts, RunInput, Observed>,
  prediction: ReportPrediction,
  warnings: string[],
): Report {
  const runs = measured.outcomes.map((o, i) => runReport(i + 1, i === 0 && measured.cold, o, measured.residencies[i], prediction.runs[i]));
  return {
    schemaVersion: 1,
    engine: session.engine,
    statement,
    createdAt: new Date().toISOString(),
    target: describeTarget(target),
    rolledBack: !options.commit,
    dataChanging,
    runs,
    warnings,
    ...(prediction.whatIf ? { whatIf: prediction.whatIf } : {}),
  };
}

function runReport<RunInput, Observed>(
  run: number,
  cold: boolean,
  o: RunOutcome<RunInput, Observed>,
  residency: RelationResidency[],
  p: PredictedRun | undefined,
): RunReport {
  const out: RunReport = {
    run,
    cold,
    elapsedMs: o.elapsedMs,
    measured: o.measured,
    predicted: p?.predicted ?? { ...EMPTY_READS },
    notes: o.notes,
    residency: residency.map((r) => {
      const range = p?.afterRange?.[r.relation];
      return { ...r, predictedAfter: p?.predictedAfter[r.relation] ?? null, ...(range ? { predictedAfterRange: range } : {}) };
    }),
    raw: o.raw,
  };
  if (o.plan) out.plan = o.plan;
  if (o.planning) out.planning = o.planning;
  if (p) out.prediction = { assumptions: p.assumptions, unmodelled: p.unmodelled };
  if (p?.range) out.predictedRange = p.range;
  if (o.enginePlan !== undefined) out.enginePlan = o.enginePlan;
  if (o.planTables) out.planTables = o.planTables;
  if (p?.perTable) out.predictedTables = p.perTable;
  return out;
}

function residencyRows(rels: TrackedRelation[], before: ResidencySnapshot, after: ResidencySnapshot, known: boolean): RelationResidency[] {
  return rels.map((r) => {
    const b = before.get(r.name);
    const a = after.get(r.name);
    const row: RelationResidency = {
      relation: r.name,
      kind: r.kind,
      pages: a?.pages ?? b?.pages ?? 0,
      cachedBefore: known ? (b?.cached ?? 0) : null,
      cachedAfter: known ? (a?.cached ?? 0) : null,
      predictedAfter: null,
    };
    if (known && a) row.blocksAfter = a.ranges;
    return row;
  });
}
