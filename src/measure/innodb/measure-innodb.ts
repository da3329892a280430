// Measures one statement on MySQL or MariaDB: N runs inside START TRANSACTION … ROLLBACK, bracketed by
// snapshots of InnoDB's global counters, calibrated for the snapshots' own cost, cross-checked against
// the per-statement numbers the server has (MariaDB's r_engine_stats) and against other active sessions.
import type { Connection } from 'mysql2/promise';
import { connectMysql } from '../../db/mysql';
import { describeTarget, type ConnectionTarget } from '../../db/connection-url';
import { MeasureError } from '../errors';
import { DEFAULT_RESIDENCY_LIMIT_PAGES, type MeasureOptions } from '../options';
import { EMPTY_READS, type RelationResidency, type Report, type RunReport } from '../../shared/report';
import { checkInnodbStatement, writtenTables, type InnodbStatementKind } from './statement-kind';
import { readInnodbServerInfo, type InnodbServerInfo } from './server-info';
import { ibufMetricsAdvice, innodbDelta, readInnodbCounters, snapshotQuery } from './counters';
import { normaliseInnodb, subtractCalibration } from './normalise';
import { engineStatsOf, planTables, sumEngineStats, type TableEngineStats } from './engine-stats';
import { cachedOf, readInnodbResidency, resolveInnodbRelations, type InnodbRelation, type InnodbResidency } from './residency';
import { poolPagesInUse, readInnodbFacts } from './catalog';
import type { InnodbPoolOptions } from '../../sim/policies/innodb-lru';

type InnodbChangeBuffering = NonNullable<InnodbPoolOptions['changeBuffering']>;
import { InnodbPredictor, type InnodbRunInput, type InnodbRunPrediction } from '../../predict/innodb/predictor';
import { atLeast } from './server-info';

const CALIBRATION_PASSES = 3;

interface MysqlError {
  code?: string;
  errno?: number;
  message: string;
  sqlMessage?: string;
}

export async function measureInnodb(target: ConnectionTarget, options: MeasureOptions): Promise<Report> {
  const check = checkInnodbStatement(options.sql, options.commit);
  if (!check.ok) throw new MeasureError(check.reason, check.kind);
  const conn = await connectMysql(target);
  const session = new InnodbSession(conn, target, check.statement, check.kind, options);
  try {
    return await session.measure([...check.warnings]);
  } finally {
    await session.close();
  }
}

class InnodbSession {
  private connectionId = 0;
  private inTransaction = false;
  private run = 0;
  private cancelled = false;
  private timedOut = false;
  /** The plan EXPLAIN FORMAT=JSON gave before run 1 (the prediction's input where ANALYZE is not used). */
  private explainPlan: unknown;
  private readonly onAbort = () => void this.killQuery('cancel');

  constructor(
    private readonly conn: Connection,
    private readonly target: ConnectionTarget,
    private readonly statement: string,
    private readonly kind: InnodbStatementKind,
    private readonly options: MeasureOptions,
  ) {
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  async measure(warnings: string[]): Promise<Report> {
    this.connectionId = Number(((await this.conn.query('SELECT CONNECTION_ID() AS id'))[0] as Array<{ id: number }>)[0].id);
    const info = await readInnodbServerInfo(this.conn);
    await this.setTimeLimit(info);
    const tables = await this.tablesOfStatement();
    await this.refuseNonTransactional(tables);
    if (this.options.cold !== 'no') {
      const reason = 'InnoDB cannot evict one table from its buffer pool; a cold pool needs a server restart with innodb_buffer_pool_load_at_startup=OFF';
      if (this.options.cold === 'yes') throw new MeasureError(`--cold is not possible: ${reason} (--cold=try measures anyway)`, 'unsupported');
      warnings.push(`run 1 is not cold: ${reason}`);
    }
    const relations = await resolveInnodbRelations(this.conn, tables);
    const withResidency = this.residencyWanted(info, warnings);
    const snapshot = snapshotQuery(info.statusTable, info.product);
    const calibration = await this.calibrate(snapshot);
    let residency = withResidency ? await readInnodbResidency(this.conn, relations) : new Map();
    const predictor = await this.makePredictor(info, relations, residency, withResidency, warnings);
    const plans: InnodbRunInput[] = [];
    const runs: RunReport[] = [];
    for (this.run = 1; this.run <= this.options.runs; this.run++) {
      // A cancel between statements has nothing to stop on the server: it must stop the loop.
      if (this.options.signal?.aborted) throw new MeasureError(`cancelled before run ${this.run}`, 'cancelled');
      this.options.onProgress?.(`run ${this.run} of ${this.options.runs}`);
      const others = await this.otherActiveSessions();
      const before = await readInnodbCounters(this.conn, snapshot);
      const advice = this.run === 1 ? ibufMetricsAdvice(before) : undefined;
      if (advice) warnings.push(advice);
      const { elapsedMs, engineStats, plan } = await this.execute(info);
      const after = await readInnodbCounters(this.conn, snapshot);
      const othersAfter = await this.otherActiveSessions();
      const residencyAfter: InnodbResidency = withResidency ? await readInnodbResidency(this.conn, relations) : new Map();
      const rawDelta = innodbDelta(before, after);
      const delta = subtractCalibration(rawDelta, calibration);
      const { measured, notes } = normaliseInnodb(info.product, delta);
      const run: RunReport = {
        run: this.run,
        cold: false,
        elapsedMs,
        measured,
        predicted: { ...EMPTY_READS },
        notes,
        residency: residencyRows(relations, residency, residencyAfter, withResidency),
        raw: { ...rawDelta, ...prefixed('calibration.', calibration), ...engineStatsRaw(engineStats) },
      };
      if (plan !== undefined) run.enginePlan = plan;
      const executed = plan !== undefined && typeof plan === 'object' ? plan : this.explainPlan;
      const input: InnodbRunInput = { plan: executed, ...this.writeOf(delta) };
      if (predictor) applyPrediction(run, predictor.predictRun(input));
      plans.push(input);
      runs.push(run);
      residency = residencyAfter;
      warnings.push(...this.noiseWarnings(others, othersAfter, delta, engineStats, info));
    }
    if (info.product === 'mysql') warnings.push('MySQL has no per-statement page counters (MariaDB\'s r_engine_stats); the numbers are global deltas, calibrated and checked for other sessions');
    return {
      schemaVersion: 1,
      engine: { product: info.product, version: info.version, pageSize: info.pageSize, settings: { ...info.settings, buffer_pool_pages: info.poolPages } },
      statement: this.statement,
      createdAt: new Date().toISOString(),
      target: describeTarget(this.target),
      rolledBack: !this.options.commit,
      dataChanging: this.kind === 'dml',
      runs,
      warnings,
      ...(predictor && this.options.whatIf !== false ? { whatIf: predictor.whatIf(plans, this.options.whatIfPoolBytes?.map((b) => Math.max(64, Math.round(b / info.pageSize)))) } : {}),
    };
  }

  /**
   * What the statement wrote in this run: an INSERT's rows, which the prediction replays (with their
   * rollback); an UPDATE or DELETE, whose changes the prediction names as left out.
   */
  private writeOf(delta: Record<string, number>): Pick<InnodbRunInput, 'insert' | 'otherWrite'> {
    const verb = /^\s*(?:\/\*.*?\*\/\s*)*(INSERT|REPLACE|UPDATE|DELETE)\b/is.exec(this.statement)?.[1].toUpperCase();
    const table = writtenTables(this.statement)[0]?.split('.').pop();
    if (this.kind !== 'dml' || !verb || !table) return {};
    if (verb === 'UPDATE' || verb === 'DELETE') return { otherWrite: { statement: verb, table } };
    const rowsFrom = delta.Innodb_rows_inserted !== undefined ? 'Innodb_rows_inserted' : 'Handler_write';
    return { insert: { table, rows: Math.max(0, delta[rowsFrom] ?? 0), rowsFrom, rolledBack: !this.options.commit } };
  }

  private async makePredictor(
    info: InnodbServerInfo,
    relations: InnodbRelation[],
    residency: InnodbResidency,
    withResidency: boolean,
    warnings: string[],
  ): Promise<InnodbPredictor> {
    const facts = await readInnodbFacts(this.conn, info, relations, residency);
    let other = 0;
    if (withResidency) {
      const tracked = relations.reduce((a, r) => a + cachedOf(residency, r).cached, 0);
      other = Math.max(0, (await poolPagesInUse(this.conn, info)) - tracked);
    } else warnings.push('the prediction assumes none of the statement\'s pages were cached before run 1: residency was not read');
    const st = info.settings;
    return new InnodbPredictor(facts, {
      product: info.product,
      poolPages: info.poolPages,
      pageSize: info.pageSize,
      oldBlocksPct: Number(st.innodb_old_blocks_pct ?? 37),
      oldBlocksTime: Number(st.innodb_old_blocks_time ?? 1000),
      readAheadThreshold: Number(st.innodb_read_ahead_threshold ?? 56),
      randomReadAhead: String(st.innodb_random_read_ahead).toUpperCase() === 'ON',
      otherPagesUsed: other,
      changeBuffering: changeBufferingOf(st.innodb_change_buffering),
      changeBufferMaxPct: Number(st.innodb_change_buffer_max_size ?? 25),
      // MariaDB 10.5 made the page cleaner keep innodb_lru_scan_depth pages free on demand.
      ...(info.product === 'mariadb' && atLeast(info.release, 10, 5, 0) ? { lruScanDepth: Number(st.innodb_lru_scan_depth ?? 1536) } : {}),
    });
  }

  /** The server's own limit where it has one; a client-side KILL QUERY as the backstop for every statement. */
  private async setTimeLimit(info: InnodbServerInfo): Promise<void> {
    const seconds = this.options.timeoutMs / 1000;
    if (info.product === 'mariadb') await this.query(`SET SESSION max_statement_time = ${seconds}`);
    else await this.query(`SET SESSION max_execution_time = ${Math.round(this.options.timeoutMs)}`);
  }

  private async tablesOfStatement(): Promise<Array<{ schema: string; table: string }>> {
    const [rows] = await this.conn.query('SELECT DATABASE() AS db');
    const current = (rows as Array<{ db: string | null }>)[0].db;
    let names: string[];
    try {
      const [plan] = await this.conn.query(`EXPLAIN FORMAT=JSON ${this.statement}`);
      const text = Object.values((plan as Array<Record<string, string>>)[0])[0];
      this.explainPlan = JSON.parse(text);
      names = planTables(this.explainPlan);
    } catch (err) {
      throw this.statementError(err);
    }
    const explicit = [...this.statement.matchAll(/([`\w$]+)\s*\.\s*([`\w$]+)/g)].map((m) => ({ schema: m[1].replace(/`/g, ''), table: m[2].replace(/`/g, '') }));
    // An INSERT … SELECT's plan names only the tables it reads; the one it writes is added.
    for (const w of writtenTables(this.statement)) {
      const name = w.split('.').pop()!;
      if (!names.includes(name)) names.push(name);
    }
    const out: Array<{ schema: string; table: string }> = [];
    for (const name of names) {
      const qualified = explicit.find((e) => e.table === name);
      const schema = qualified?.schema ?? current;
      if (schema) out.push({ schema, table: name });
    }
    return out;
  }

  private async refuseNonTransactional(tables: Array<{ schema: string; table: string }>): Promise<void> {
    if (this.kind !== 'dml' || this.options.commit) return;
    const written = writtenTables(this.statement).map((w) => {
      const [a, b] = w.includes('.') ? w.split('.') : [undefined, w];
      return { schema: a ?? tables.find((t) => t.table === b)?.schema, table: b };
    });
    for (const w of written) {
      const [rows] = await this.conn.query(
        'SELECT ENGINE AS engine FROM information_schema.TABLES WHERE TABLE_NAME = ? AND TABLE_SCHEMA = COALESCE(?, DATABASE())',
        [w.table, w.schema ?? null],
      );
      const engine = (rows as Array<{ engine: string | null }>)[0]?.engine;
      if (engine && engine.toLowerCase() !== 'innodb') {
        throw new MeasureError(`${w.table} uses the ${engine} engine, which is not transactional: a rollback would undo nothing (--commit measures it and keeps its changes)`, 'refused');
      }
    }
  }

  private residencyWanted(info: InnodbServerInfo, warnings: string[]): boolean {
    if (this.options.residency === 'never') return false;
    const limit = this.options.residencyLimitPages ?? DEFAULT_RESIDENCY_LIMIT_PAGES;
    if (this.options.residency !== 'always' && info.poolPages > limit) {
      warnings.push(
        `residency not read: the buffer pool holds ${info.poolPages.toLocaleString('en-US')} pages, above the limit of ${limit.toLocaleString('en-US')}; INNODB_BUFFER_PAGE_LRU walks the whole pool (--residency=always reads it anyway)`,
      );
      return false;
    }
    return true;
  }

  /** What the snapshots themselves cost, from an empty statement in the same bracket (minimum of a few passes). */
  private async calibrate(snapshot: string): Promise<Record<string, number>> {
    let min: Record<string, number> | undefined;
    for (let i = 0; i < CALIBRATION_PASSES; i++) {
      const before = await readInnodbCounters(this.conn, snapshot);
      await this.query('START TRANSACTION');
      await this.query('DO 0');
      await this.query('ROLLBACK');
      const d = innodbDelta(before, await readInnodbCounters(this.conn, snapshot));
      min = min ? Object.fromEntries(Object.entries(d).map(([k, v]) => [k, Math.min(v, min![k] ?? v)])) : d;
    }
    return Object.fromEntries(Object.entries(min ?? {}).filter(([k, v]) => v > 0 && !k.startsWith('metric.ibuf_size')));
  }

  private async execute(info: InnodbServerInfo): Promise<{ elapsedMs: number; engineStats: TableEngineStats[] | undefined; plan?: unknown }> {
    // MariaDB's ANALYZE runs the statement and reports what it did per table; MySQL's EXPLAIN ANALYZE
    // runs a SELECT and reports the plan with timing.
    const viaAnalyze = info.hasEngineStats && /^\s*(\/\*.*?\*\/\s*)*(SELECT|WITH|UPDATE|DELETE|INSERT|REPLACE)\b/is.test(this.statement);
    const viaExplainAnalyze = !viaAnalyze && info.hasExplainAnalyze && /^\s*(\/\*.*?\*\/\s*)*(SELECT|WITH|TABLE)\b/is.test(this.statement);
    const text = viaAnalyze ? `ANALYZE FORMAT=JSON ${this.statement}` : viaExplainAnalyze ? `EXPLAIN ANALYZE ${this.statement}` : this.statement;
    const backstop = setTimeout(() => {
      this.timedOut = true;
      void this.killQuery('timeout');
    }, this.options.timeoutMs + 2_000);
    await this.query('START TRANSACTION');
    this.inTransaction = true;
    const started = performance.now();
    try {
      const rows = await this.discardingQuery(text);
      const elapsedMs = performance.now() - started;
      await this.query(this.options.commit ? 'COMMIT' : 'ROLLBACK');
      this.inTransaction = false;
      if (viaAnalyze) {
        const json = JSON.parse(Object.values(rows[0])[0] as string);
        return { elapsedMs: (json.query_block?.r_total_time_ms as number | undefined) ?? elapsedMs, engineStats: engineStatsOf(json), plan: json };
      }
      if (viaExplainAnalyze) return { elapsedMs, engineStats: undefined, plan: Object.values(rows[0])[0] };
      return { elapsedMs, engineStats: undefined };
    } catch (err) {
      await this.rollbackQuietly();
      throw this.statementError(err);
    } finally {
      clearTimeout(backstop);
    }
  }

  /** Runs a statement without keeping a result set's rows (a big SELECT must not fill memory); returns the rows only for ANALYZE/EXPLAIN. */
  private discardingQuery(text: string): Promise<Array<Record<string, unknown>>> {
    const keep = /^(ANALYZE|EXPLAIN) /.test(text);
    return new Promise((resolve, reject) => {
      const rows: Array<Record<string, unknown>> = [];
      const q = (this.conn as unknown as { connection: { query(sql: string): NodeJS.EventEmitter } }).connection.query(text);
      q.on('result', (row: Record<string, unknown>) => {
        if (keep && rows.length < 10) rows.push(row);
      });
      q.on('error', reject);
      q.on('end', () => resolve(rows));
    });
  }

  private async otherActiveSessions(): Promise<string[]> {
    const [rows] = await this.conn.query(
      `SELECT ID AS id, USER AS user, COMMAND AS command, LEFT(COALESCE(INFO, ''), 60) AS info FROM information_schema.PROCESSLIST
        WHERE ID <> CONNECTION_ID() AND COMMAND NOT IN ('Sleep', 'Daemon', 'Binlog Dump') AND USER NOT IN ('system user', 'event_scheduler')`,
    );
    return (rows as Array<{ id: number; user: string; command: string; info: string }>).map((r) => `#${r.id} ${r.user} ${r.command}${r.info ? `: ${r.info}` : ''}`);
  }

  private noiseWarnings(before: string[], after: string[], delta: Record<string, number>, stats: TableEngineStats[] | undefined, info: InnodbServerInfo): string[] {
    const out: string[] = [];
    const others = [...new Set([...before, ...after])];
    if (others.length) out.push(`run ${this.run}: other sessions were active, so the global counters may include their reads: ${others.join('; ')}`);
    // r_engine_stats counts the pages of the tables a statement reads, not of those it writes (nor the
    // undo log and a rollback), so the cross-check holds for reading statements only.
    if (stats && stats.length && this.kind !== 'dml') {
      const s = sumEngineStats(stats);
      const global = delta.Innodb_buffer_pool_read_requests ?? 0;
      const gap = global - s.pagesAccessed;
      // A few extra requests per run are InnoDB's own (dictionary, change-buffer bitmap pages on reads).
      const tolerance = Math.max(16, Math.round(s.pagesAccessed * 0.05) + (delta.Innodb_buffer_pool_reads ?? 0) * 0.05);
      if (Math.abs(gap) > tolerance) {
        out.push(
          `run ${this.run}: the global read requests (${global.toLocaleString('en-US')}) differ from the statement's own pages accessed (${s.pagesAccessed.toLocaleString('en-US')}, ${info.product === 'mariadb' ? 'r_engine_stats' : 'engine stats'}) by ${gap.toLocaleString('en-US')}: something else was reading`,
        );
      }
    }
    return out;
  }

  private async killQuery(why: 'cancel' | 'timeout'): Promise<void> {
    if (why === 'cancel') this.cancelled = true;
    if (!this.connectionId) return;
    const second = await connectMysql(this.target).catch(() => undefined);
    if (!second) return;
    try {
      await second.query(`KILL QUERY ${this.connectionId}`);
    } catch {
      // the query already ended
    } finally {
      await second.end().catch(() => undefined);
    }
  }

  private async query(sql: string) {
    try {
      return await this.conn.query(sql);
    } catch (err) {
      throw this.statementError(err);
    }
  }

  private statementError(err: unknown): Error {
    if (err instanceof MeasureError) return err;
    const e = err as MysqlError;
    const during = this.run > 0 ? ` during run ${this.run}` : '';
    const limit = `the statement ran longer than the ${this.options.timeoutMs / 1000} s limit${during} and was stopped (--timeout)`;
    if (e.errno === 1969 || e.errno === 3024 || (e.errno === 1317 && this.timedOut && !this.cancelled)) return new MeasureError(limit, 'timeout');
    if (e.errno === 1317 || e.errno === 1927) {
      return this.cancelled ? new MeasureError(`cancelled${during}: the statement was stopped on the server and rolled back`, 'cancelled') : new MeasureError(`${e.message}${during}`, 'statement');
    }
    if (e.code === 'PROTOCOL_CONNECTION_LOST' || e.code === 'ECONNRESET' || e.code === 'EPIPE' || e.errno === 2013 || e.errno === 2006 || /closed state/.test(e.message)) {
      return new MeasureError(`lost the connection to the server${during}: ${e.message}`, 'connection');
    }
    return new MeasureError(e.sqlMessage ?? e.message, 'statement');
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
    this.options.signal?.removeEventListener('abort', this.onAbort);
    await this.rollbackQuietly();
    await this.conn.end().catch(() => this.conn.destroy());
  }
}

function applyPrediction(run: RunReport, p: InnodbRunPrediction): void {
  run.predicted = p.predicted;
  for (const row of run.residency) row.predictedAfter = p.predictedAfter.get(row.relation) ?? null;
  run.prediction = { assumptions: p.assumptions, unmodelled: p.unmodelled };
}

function residencyRows(rels: InnodbRelation[], before: InnodbResidency, after: InnodbResidency, known: boolean): RelationResidency[] {
  return rels.map((r) => {
    const b = cachedOf(before, r);
    const a = cachedOf(after, r);
    const row: RelationResidency = {
      relation: r.name,
      kind: r.kind,
      pages: r.pages,
      cachedBefore: known ? b.cached : null,
      cachedAfter: known ? a.cached : null,
      predictedAfter: null,
    };
    if (known) row.blocksAfter = a.ranges;
    return row;
  });
}

function prefixed(prefix: string, o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [prefix + k, v]));
}

function engineStatsRaw(stats: TableEngineStats[] | undefined): Record<string, number> {
  if (!stats) return {};
  const out: Record<string, number> = {};
  for (const s of stats) {
    out[`r_engine_stats.${s.table}.pages_accessed`] = s.pagesAccessed;
    out[`r_engine_stats.${s.table}.pages_read_count`] = s.pagesReadCount;
    out[`r_engine_stats.${s.table}.pages_prefetch_read_count`] = s.pagesPrefetchReadCount;
    out[`r_engine_stats.${s.table}.pages_read_time_ms`] = s.pagesReadTimeMs;
  }
  return out;
}

function changeBufferingOf(value: unknown): InnodbChangeBuffering {
  const v = String(value ?? 'none').toLowerCase();
  return (['none', 'all', 'inserts', 'deletes', 'changes', 'purges'] as const).find((x) => x === v) ?? 'none';
}
