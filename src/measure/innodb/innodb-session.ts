// The MySQL/MariaDB session: every run inside START TRANSACTION … ROLLBACK, bracketed by snapshots of
// InnoDB's global counters, calibrated for the snapshots' own cost, cross-checked against the
// per-statement numbers the server has (MariaDB's r_engine_stats) and against other active sessions.
// Driver work only: the run loop and the report are run-measurement.ts's.
import type { Connection } from 'mysql2/promise';
import { connectMysql } from '../../db/mysql';
import type { ConnectionTarget } from '../../db/connection-url';
import type { Report } from '../../shared/report';
import type { InnodbPredictionInput, InnodbRunInput } from '../../predict/innodb/facts';
import { parseInnodbPlan, resolveAliases, type TableEngineStats } from '../../predict/innodb/plan';
import { tableAliases } from '../../sql/aliases';
import type { EngineSession, ResidencySnapshot, RunOutcome } from '../engine-session';
import type { MeasureOptions } from '../options';
import type { InnodbStatementKind } from '../../sql/classify/mysql-kind';
import type { CheckedStatement } from '../../sql/classify/statement-check';
import { readInnodbServerInfo, type InnodbServerInfo } from './server-info';
import { ibufMetricsAdvice, innodbDelta, readInnodbCounters, snapshotQuery } from './counters';
import { normaliseInnodb, subtractCalibration } from './normalise';
import { readInnodbResidency, relationsAsAllowed, residencySkippedNote, type InnodbRelation } from './residency';
import { countAgesFromNow, readPoolWalk, readTableSpaces, withCachedFills, type PoolWalk } from './pool-walk';
import { killQuery } from './kill-query';
import {
  ALL_PRIVILEGES_WARNING, currentAccount, isProcessDenied, isStatsDenied, mayReadInnodbViews, predictionDenied, withoutProcessWarning,
} from './privileges';
import { readUndoState, undoSpacesOf } from './undo-state';
import { openTables, poolFrames, poolPagesInUse, readInnodbFacts } from './catalog';
import { writeOfRun } from './run-write';
import { innodbError } from './errors';
import { autoIncrementValues, findInnodbSideEffects, hasAllPrivileges, innodbReached } from './side-effects';
import { decide, mustRun, type RunVerdict } from '../gate';
import { maskSql } from '../../sql/mask';
import { parseServerJson } from './server-json';
import { engineStatsRaw, noiseWarnings, otherActiveSessions } from './noise';
import { PURGE_WAIT_MS, purgeWaitWarning, waitForPurge } from './purge';
import { poolStillLoading } from './pool-load';
import { readAfterRuns } from './after-runs-reads';
import { discardingQuery } from './discarding-query';
import { innodbPredictionSettings } from './prediction-settings';
import { autoIncrementWarnings, nonEmpty, prefixed, runFacts, type InnodbPostRunObservations } from './post-run';

const CALIBRATION_PASSES = 3;

export type InnodbFacts = Omit<InnodbPredictionInput, 'runs'>;

export async function openInnodbSession(target: ConnectionTarget, statement: CheckedStatement, options: MeasureOptions): Promise<InnodbSession> {
  const conn = await connectMysql(target);
  return new InnodbSession(conn, target, statement.statement, statement.dataChanging ? 'dml' : 'read', options);
}

export class InnodbSession implements EngineSession<InnodbFacts, InnodbRunInput, InnodbPostRunObservations> {
  private connectionId = 0;
  private inTransaction = false;
  private currentRun = 0;
  private cancelled = false;
  private timedOut = false;
  /** The statement's first keyword, upper-cased, past any comments. */
  private readonly verb: string;
  private info!: InnodbServerInfo;
  private snapshot = '';
  private calibration: Record<string, number> = {};
  relations: InnodbRelation[] = [];
  private needsExplain = false;
  /** The last plan a run's ANALYZE gave, and the index facts: what finishRuns reads key ranges for. */
  private lastPlan: unknown;
  private indexFacts: InnodbFacts['indexes'] = [];
  /** alias → table, since the plans name tables by their aliases. */
  private readonly aliases: Map<string, string>;

  constructor(
    private readonly conn: Connection,
    private readonly target: ConnectionTarget,
    private readonly statement: string,
    private readonly kind: InnodbStatementKind,
    private readonly options: MeasureOptions,
  ) {
    this.verb = (/^[A-Za-z]+/.exec(maskSql(statement, 'mysql').trimStart())?.[0] ?? '').toUpperCase();
    this.aliases = tableAliases(statement);
  }

  get engine(): Report['engine'] {
    const info = this.info;
    return { product: info.product, version: info.version, pageSize: info.pageSize, settings: { ...info.settings, buffer_pool_pages: info.poolPages } };
  }

  get poolPages(): number {
    return this.info.poolPages;
  }

  /** The user may read InnoDB's information_schema views (PROCESS): residency, metrics, tablespaces. */
  private viewsReadable = true;

  get residencyAvailable(): boolean {
    return this.viewsReadable;
  }

  async prepare(warnings: string[]): Promise<void> {
    this.connectionId = Number(((await this.conn.query('SELECT CONNECTION_ID() AS id'))[0] as Array<{ id: number }>)[0].id);
    this.info = await readInnodbServerInfo(this.conn);
    // Without PROCESS: the status counters, no residency, no metrics, no purge wait; said once, with the GRANT.
    this.viewsReadable = await mayReadInnodbViews(this.conn);
    if (!this.viewsReadable) warnings.push(withoutProcessWarning(await currentAccount(this.conn)));
    this.snapshot = snapshotQuery(this.info.statusTable, this.info.product, this.viewsReadable);
    // Without it (no privilege to list them) opening is left out of the prediction, not guessed.
    if (this.info.product === 'mariadb') this.openAtStart = await openTables(this.conn).catch(() => undefined);
    await this.setTimeLimit();
    // Nothing sent before run 1 may touch the statement's pages: the tables come from the catalogs (the
    // statement's names, its views' base tables, its functions' and triggers' tables), not from an EXPLAIN,
    // which reads rows and probes range bounds.
    const tables = await this.checkSideEffects(warnings);
    if (await hasAllPrivileges(this.conn)) warnings.push(ALL_PRIVILEGES_WARNING);
    const resolved = await relationsAsAllowed(this.conn, tables, this.info, this.viewsReadable, warnings);
    this.relations = resolved.relations;
    this.statsDenied = resolved.statsDenied;
    // Before the residency snapshot: what purge reads while it catches up is part of the state found.
    await this.waitForPurge('before run 1', warnings);
    this.notColdBecause = await poolStillLoading(this.conn, this.info.statusTable, this.options, warnings);
  }

  notColdBecause: string | undefined;

  /** What the queries after the last run observe: the plan where runs gave none, the ranges' key ends and a join's lookup keys. */
  async finishRuns(): Promise<InnodbPostRunObservations> {
    const { conn, statement, kind, aliases, insertedTable, needsExplain, lastPlan, verdict, indexFacts: indexes, afterRunsNotes: failures } = this;
    return readAfterRuns({
      conn,
      statement,
      kind,
      aliases,
      insertedTable,
      needsExplain,
      lastPlan,
      indexes,
      failures,
      verdict,
      commit: this.options.commit,
      accessesOf: this.accessesOf,
      pageSize: this.info.pageSize,
      product: this.info.product,
    });
  }

  /** The plan's accesses with aliases resolved to their tables. */
  private readonly accessesOf = (plan: unknown) => resolveAliases(parseInnodbPlan(plan).accesses, this.aliases);

  residencySkipped(limit: number): string {
    return residencySkippedNote(this.info.poolPages, limit);
  }

  async evict(): Promise<string> {
    return 'InnoDB cannot evict one table from its buffer pool; a cold pool needs a server restart with innodb_buffer_pool_load_at_startup=OFF';
  }

  /** The server's own limit where it has one; a client-side KILL QUERY as the backstop for every statement. */
  private async setTimeLimit(): Promise<void> {
    if (this.info.product === 'mariadb') await this.query(`SET SESSION max_statement_time = ${this.options.timeoutMs / 1000}`);
    else await this.query(`SET SESSION max_execution_time = ${Math.round(this.options.timeoutMs)}`);
  }

  /**
   * Refuses what a rollback cannot undo (non-transactional tables a write reaches, global settings or
   * files changed in a routine), names routines, and notes the sequences and counters that will advance.
   */
  private async checkSideEffects(warnings: string[]): Promise<Array<{ schema: string; table: string }>> {
    const [rows] = await this.conn.query('SELECT DATABASE() AS db');
    const db = (rows as Array<{ db: string | null }>)[0].db;
    const fx = await findInnodbSideEffects(this.conn, this.statement, db, this.kind === 'dml').catch((err) => {
      throw this.error(err);
    });
    this.verdict = mustRun(
      decide(this.kind === 'dml' ? 'write' : 'read', innodbReached(fx), {
        commit: this.options.commit,
        allowSideEffects: this.options.allowSideEffects ?? false,
      }),
    );
    warnings.push(...this.verdict.warnings);
    if (fx.autoIncrement.length && !this.options.commit) this.autoIncrementTables = fx.autoIncrement;
    return fx.tables;
  }

  private autoIncrementTables: Array<{ schema: string; table: string }> = [];
  /** The gate's verdict, which decides too whether the statement's own text may be re-asked after the runs. */
  private verdict: RunVerdict | undefined;
  /** What the queries after the runs could not read, or were not sent: the report says so. */
  private readonly afterRunsNotes: string[] = [];
  /** The user may not read mysql.innodb_index_stats: residency per table, no prediction. */
  private statsDenied = false;
  /** The server's table cache before any catalog query of ours (MariaDB): see openTables. */
  private openAtStart: Set<string> | undefined;
  /** Rows the runs inserted (and rolled back): each took an AUTO_INCREMENT value that is not given back. */
  private rowsInserted = 0;
  /** The table the runs inserted into (an INSERT). */
  private insertedTable: string | undefined;

  /** What the snapshots themselves cost, from an empty statement in the same bracket (minimum of a few passes). */
  async beforeRuns(): Promise<void> {
    let min: Record<string, number> | undefined;
    for (let i = 0; i < CALIBRATION_PASSES; i++) {
      const before = await readInnodbCounters(this.conn, this.snapshot);
      await this.query('START TRANSACTION');
      await this.query('DO 0');
      await this.query('ROLLBACK');
      const d = innodbDelta(before, await readInnodbCounters(this.conn, this.snapshot));
      min = min ? Object.fromEntries(Object.entries(d).map(([k, v]) => [k, Math.min(v, min![k] ?? v)])) : d;
    }
    this.calibration = Object.fromEntries(Object.entries(min ?? {}).filter(([k, v]) => v > 0 && !k.startsWith('metric.ibuf_size')));
  }

  /** Before run 1, two walks of the pool (a summary, one filtered read) serve the residency, the prediction's LRU seed and the undo state. */
  private startWalk: PoolWalk | undefined;

  async readResidency(withCache: boolean, moment: 'before run 1' | 'after a run'): Promise<ResidencySnapshot> {
    if (moment === 'after a run' || !withCache) return readInnodbResidency(this.conn, this.relations, withCache);
    const spaces = await readTableSpaces(this.conn, this.relations, this.info.product);
    this.startWalk = await readPoolWalk(this.conn, this.relations, undoSpacesOf(this.info), this.info.pageSize, spaces);
    return this.startWalk.residency;
  }

  async predictionFacts(before: ResidencySnapshot, withCache: boolean, warnings: string[]): Promise<InnodbFacts> {
    const info = this.info;
    let unavailable: string | undefined;
    // The key columns come from InnoDB's dictionary views (PROCESS): STATISTICS would read the root pages.
    const facts = this.statsDenied
      ? Promise.reject(Object.assign(new Error('denied'), { errno: 1142 }))
      : readInnodbFacts(this.conn, info, this.relations, before);
    const indexes = await facts.catch(async (err: unknown) => {
      // Without the index statistics or the index shapes there is no prediction; the measurement itself does not need them.
      if (!isStatsDenied(err) && !isProcessDenied(err)) throw err;
      unavailable = predictionDenied(isProcessDenied(err), await currentAccount(this.conn));
      warnings.push(`no prediction: ${unavailable}`);
      return [];
    });
    this.indexFacts = indexes;
    let other = 0;
    let lruSeed: InnodbFacts['settings']['lruSeed'];
    if (withCache) {
      const tracked = [...before.values()].reduce((a, r) => a + r.cached, 0);
      other = Math.max(0, (await poolPagesInUse(this.conn, info)) - tracked);
      lruSeed = this.startWalk?.seed;
    } else warnings.push("the prediction assumes none of the statement's pages were cached before run 1: residency was not read");
    const frames = await poolFrames(this.conn, info);
    const undo = await readUndoState(this.conn, info, withCache ? this.startWalk?.undoPages : undefined);
    const tablesToOpen = this.openAtStart
      ? [...new Set(this.relations.filter((r) => r.kind === 'table' && !this.openAtStart!.has(`${r.schema}/${r.table}`)).map((r) => r.table))]
      : undefined;
    const settings = innodbPredictionSettings(info, { frames, other, lruSeed, undo, unavailable, tablesToOpen });
    return { indexes: withCachedFills(indexes, withCache ? this.startWalk?.fills : undefined), settings };
  }

  async run(run: number): Promise<RunOutcome<InnodbRunInput, InnodbPostRunObservations>> {
    this.currentRun = run;
    try {
      return await this.measureRun(run);
    } catch (err) {
      // The counters' and process list's queries fail too when the server goes away between runs.
      throw this.error(err);
    }
  }

  /** Waits for purge where the user may see its history list (PROCESS); says so where it waited or could not. */
  private async waitForPurge(when: string, warnings: string[]): Promise<void> {
    const purge = this.viewsReadable ? await waitForPurge(this.conn, PURGE_WAIT_MS, this.options.signal, this.options.onProgress) : undefined;
    if (purge) warnings.push(purgeWaitWarning(purge, when));
  }

  private async measureRun(run: number): Promise<RunOutcome<InnodbRunInput, InnodbPostRunObservations>> {
    const warnings: string[] = [];
    // A committed run leaves its undo log to purge, which would run during the next one.
    if (run > 1 && this.options.commit) await this.waitForPurge(`before run ${run}`, warnings);
    const othersBefore = await otherActiveSessions(this.conn);
    const before = await readInnodbCounters(this.conn, this.snapshot);
    const advice = run === 1 && this.viewsReadable ? ibufMetricsAdvice(before) : undefined;
    if (advice) warnings.push(advice);
    // The seed the prediction facts hold: its pages' ages count from run 1's start where the server's clock allows.
    if (run === 1) countAgesFromNow(this.startWalk?.seed);
    const { elapsedMs, engineStats, plan } = await this.execute();
    const after = await readInnodbCounters(this.conn, this.snapshot);
    const othersAfter = await otherActiveSessions(this.conn);
    const rawDelta = innodbDelta(before, after);
    const delta = subtractCalibration(rawDelta, this.calibration);
    const { measured, notes } = normaliseInnodb(this.info.product, delta);
    const analyzed = plan !== undefined && typeof plan === 'object' ? plan : undefined;
    if (!analyzed) this.needsExplain = true;
    else this.lastPlan = analyzed;
    const write = this.kind === 'dml' ? writeOfRun(this.statement, this.verb, delta, !this.options.commit) : {};
    this.rowsInserted += write.insert?.rows ?? 0;
    if (write.insert) this.insertedTable = write.insert.table;
    warnings.push(...noiseWarnings(run, { before: othersBefore, after: othersAfter }, delta, engineStats, this.kind !== 'dml', this.info.product));
    return {
      elapsedMs,
      measured,
      notes,
      raw: { ...rawDelta, ...prefixed('calibration.', this.calibration), ...engineStatsRaw(engineStats) },
      ...(plan !== undefined ? { enginePlan: plan, planTables: Object.fromEntries(this.aliases) } : {}),
      predictInput: (observed) => ({
        accesses: this.accessesOf(analyzed ?? observed.explainPlan),
        ...(!analyzed && observed.planMissing ? { planMissing: observed.planMissing } : {}),
        ...write,
        ...(write.insert && Object.keys(observed.insertEdges).length > 0 ? { insert: { ...write.insert, edges: observed.insertEdges } } : {}),
        ...(/\bLIMIT\b/i.test(maskSql(this.statement, 'mysql')) ? { limited: true } : {}),
        ...(measured.logicalReads !== null ? { pace: { elapsedMs, requests: measured.logicalReads } } : {}),
        ...nonEmpty(runFacts(observed)),
      }),
      warnings,
    };
  }

  async closingWarnings(): Promise<string[]> {
    const out: string[] = [];
    if (this.rowsInserted > 0) out.push(...autoIncrementWarnings(await autoIncrementValues(this.conn, this.autoIncrementTables), this.rowsInserted));
    out.push(...this.afterRunsNotes);
    if (this.info.product === 'mysql')
      out.push("MySQL has no per-statement page counters (MariaDB's r_engine_stats); the numbers are global deltas, calibrated and checked for other sessions");
    return out;
  }

  private async execute(): Promise<{ elapsedMs: number; engineStats: TableEngineStats[] | undefined; plan?: unknown }> {
    // MariaDB's ANALYZE runs the statement and reports what it did per table; MySQL's EXPLAIN ANALYZE
    // runs a SELECT and reports the plan with timing.
    const info = this.info;
    const viaAnalyze = info.hasEngineStats && ['SELECT', 'WITH', 'UPDATE', 'DELETE', 'INSERT', 'REPLACE'].includes(this.verb);
    const viaExplainAnalyze = !viaAnalyze && info.hasExplainAnalyze && ['SELECT', 'WITH', 'TABLE'].includes(this.verb);
    const text = viaAnalyze ? `ANALYZE FORMAT=JSON ${this.statement}` : viaExplainAnalyze ? `EXPLAIN ANALYZE ${this.statement}` : this.statement;
    const backstop = setTimeout(() => {
      this.timedOut = true;
      void this.killQuery();
    }, this.options.timeoutMs + 2_000);
    // A reading statement runs read-only: a write hidden in a function fails instead of happening.
    await this.query(this.kind === 'read' ? 'START TRANSACTION READ ONLY' : 'START TRANSACTION');
    this.inTransaction = true;
    const started = performance.now();
    try {
      const rows = await discardingQuery(this.conn, text);
      const elapsedMs = performance.now() - started;
      // max_statement_time can stop a statement without an error (BENCHMARK() then just returns 0): a run
      // that lasted the whole limit was stopped, not finished.
      if (elapsedMs >= this.options.timeoutMs) throw Object.assign(new Error('max_statement_time reached'), { errno: 1969 });
      await this.query(this.options.commit ? 'COMMIT' : 'ROLLBACK');
      this.inTransaction = false;
      if (viaAnalyze) {
        const json = parseServerJson(Object.values(rows[0])[0] as string, this.statement) as { query_block?: { r_total_time_ms?: number } };
        return {
          elapsedMs: (json.query_block?.r_total_time_ms as number | undefined) ?? elapsedMs,
          engineStats: parseInnodbPlan(json).engineStats,
          plan: json,
        };
      }
      if (viaExplainAnalyze) return { elapsedMs, engineStats: undefined, plan: Object.values(rows[0])[0] };
      return { elapsedMs, engineStats: undefined };
    } catch (err) {
      await this.rollbackQuietly();
      throw this.error(err);
    } finally {
      clearTimeout(backstop);
    }
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    await this.killQuery();
  }

  private async killQuery(): Promise<void> {
    if (this.connectionId) await killQuery(this.target, this.connectionId);
  }

  private async query(sql: string) {
    try {
      return await this.conn.query(sql);
    } catch (err) {
      throw this.error(err);
    }
  }

  private error(err: unknown): Error {
    return innodbError(err, {
      run: this.currentRun,
      statement: this.statement,
      cancelled: this.cancelled,
      timedOut: this.timedOut,
      timeoutMs: this.options.timeoutMs,
    });
  }

  private async rollbackQuietly(): Promise<void> {
    if (!this.inTransaction) return;
    try {
      await this.conn.query('ROLLBACK');
    } catch {
      // connection gone: the server rolls back by itself
    }
    this.inTransaction = false;
  }

  async close(): Promise<void> {
    await this.rollbackQuietly();
    await this.conn.end().catch(() => this.conn.destroy());
  }
}
