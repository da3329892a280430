// What one engine contributes to a measurement: driver work only. The run loop, progress, cancel between
// runs, residency before/after, warnings, prediction and the report are the orchestrator's
// (run-measurement.ts), written once for every engine.
import type { BufferCounters, PlanNode, Reads, ReadsNotes, Report } from '../shared/report';
import type { ConnectionTarget } from '../db/connection-url';
import type { Dialect } from '../shared/dialect';
import type { SqlStatement } from '../sql/statement';
import type { PredictOptions, ReportPrediction } from '../predict/prediction';
import type { MeasureOptions } from './options';
import type { CheckedStatement, StatementCheck } from '../sql/classify/statement-check';

/** Pages of one relation: its size and which of its blocks are cached, as [first, last] ranges. */
export interface CachedPages {
  pages: number;
  cached: number;
  ranges: Array<[number, number]>;
}

/** Per relation (by its report name), what a residency read found. */
export type ResidencySnapshot = Map<string, CachedPages>;

export interface TrackedRelation {
  /** The name the report shows. */
  name: string;
  kind: 'table' | 'index' | 'other';
}

/** What one run of the statement gave, before the orchestrator adds residency and the prediction. */
export interface RunOutcome<RunInput, Observed> {
  elapsedMs: number;
  measured: Reads;
  notes: ReadsNotes;
  raw: Record<string, number | string | null>;
  plan?: PlanNode;
  planning?: BufferCounters;
  enginePlan?: unknown;
  planTables?: Record<string, string>;
  /**
   * The run as the predictor replays it, made once every run is over with what the queries after the last
   * run observed (MySQL's EXPLAIN, which would touch the statement's pages before run 1; where rows were).
   */
  predictInput: (observed: Observed) => RunInput;
  warnings: string[];
}

export interface EngineSession<Facts, RunInput, Observed> {
  /** Reads what the server is, sets the session up, refuses what must not run and finds the relations. */
  prepare(warnings: string[]): Promise<void>;
  /** The report's engine part (product, version, page size, settings); valid after prepare. */
  readonly engine: Report['engine'];
  readonly relations: TrackedRelation[];
  /** The pool's size in pages, which decides whether reading residency is affordable. */
  readonly poolPages: number;
  /** False when the engine gives no residency at all (the advice is already among the warnings). */
  readonly residencyAvailable: boolean;
  /** The warning when the pool is above the residency limit: what the read would cost on this engine. */
  residencySkipped(limit: number): string;
  /** Why run 1 is not cold although none of its pages was found cached (a pool still loading); valid after prepare. */
  readonly notColdBecause?: string;
  /** Evicts the statement's relations before run 1; the reason when that is not possible here. */
  evict(warnings: string[]): Promise<string | undefined>;
  /** Work done once before run 1 that must not be counted in any run (calibration). */
  beforeRuns(): Promise<void>;
  /**
   * Sizes of every tracked relation and, when `withCache`, their cached blocks. Before run 1 an engine may
   * read, in the same pass over its pool, what predictionFacts needs of it.
   */
  readResidency(withCache: boolean, moment: 'before run 1' | 'after a run'): Promise<ResidencySnapshot>;
  /** Catalog facts and settings for the prediction, read before run 1. */
  predictionFacts(before: ResidencySnapshot, withCache: boolean, warnings: string[]): Promise<Facts>;
  /** One run of the statement, bracketed by the engine's counters; rolled back unless committing. */
  run(run: number, cold: boolean): Promise<RunOutcome<RunInput, Observed>>;
  /**
   * The queries after the last run, which must not come before run 1 (an EXPLAIN that would touch the
   * pages), and what they observed: returned, never written into facts already handed over.
   */
  finishRuns(): Promise<Observed>;
  /** Warnings that hold for the whole measurement, added after the runs (what the runs left behind). */
  closingWarnings(): Promise<string[]>;
  /** Stops the running statement on the server (from a second connection). */
  cancel(): Promise<void>;
  /** Rolls back anything open and closes the connection; never throws. */
  close(): Promise<void>;
}

/** One engine: how its files split, how its statements are checked, how to measure and predict on it. */
export interface EngineDefinition<Facts, RunInput, Observed> {
  id: ConnectionTarget['engine'];
  dialect: Dialect;
  split(text: string): SqlStatement[];
  check(sql: string, commit: boolean): StatementCheck;
  open(target: ConnectionTarget, statement: CheckedStatement, options: MeasureOptions): Promise<EngineSession<Facts, RunInput, Observed>>;
  /** The facts read before run 1 completed with what was observed after the last run: a new value. */
  complete(facts: Facts, observed: Observed): Facts;
  predict(facts: Facts, runs: RunInput[], options: PredictOptions): ReportPrediction;
}
