// Measures one statement on PostgreSQL: N runs of EXPLAIN (ANALYZE, BUFFERS) inside transactions that
// are rolled back, with counter and residency snapshots around each run.
import type { Client, QueryConfig } from 'pg';
import { connectPostgres, lineColumn } from '../../db/postgres';
import { describeTarget, type ConnectionTarget } from '../../db/connection-url';
import { MeasureError } from '../errors';
import type { RelationResidency, Report, RunReport } from '../../shared/report';
import { EMPTY_READS } from '../../shared/report';
import { checkPostgresStatement } from './statement-kind';
import { buffercacheAdvice, readServerInfo, type PostgresServerInfo } from './server-info';
import { parseExplainJson, type ParsedPlan } from './plan';
import { readResidency, resolveRelations, type ResidencySnapshot, type TrackedRelation } from './residency';
import { counterDelta, readCounters } from './counters';
import { normalisePostgres } from './normalise';
import { DEFAULT_RESIDENCY_LIMIT_PAGES, type MeasureOptions } from '../options';
import { buffersInUse, readRelationFacts } from './catalog';
import { updatedColumns } from './update-columns';
import { PostgresPredictor, type RunPrediction } from '../../predict/postgres/predictor';
import { parseBlocks } from '../../predict/postgres/facts';

interface PgError {
  code?: string;
  message: string;
  position?: string;
}

export async function measurePostgres(target: ConnectionTarget, options: MeasureOptions): Promise<Report> {
  const check = checkPostgresStatement(options.sql, options.commit);
  if (!check.ok) throw new MeasureError(check.reason, check.kind);
  const warnings = [...check.warnings];
  const client = await connectPostgres(target, { query_timeout: options.timeoutMs + 15_000 });
  const session = new PostgresSession(client, target, check.statement, options);
  try {
    return await session.measure(warnings, check.dataChanging);
  } finally {
    await session.close();
  }
}

class PostgresSession {
  private pid = 0;
  private inTransaction = false;
  private run = 0;
  private cancelled = false;
  private readonly onAbort = () => void this.cancel();

  constructor(
    private readonly client: Client,
    private readonly target: ConnectionTarget,
    private readonly statement: string,
    private readonly options: MeasureOptions,
  ) {
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  async measure(warnings: string[], dataChanging: boolean): Promise<Report> {
    this.pid = (await this.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const info = await readServerInfo(this.client);
    await this.ensureBuffercache(info, warnings);
    const explainPrefix = 'EXPLAIN (VERBOSE, FORMAT JSON) ';
    const planOnly = parseExplainJson(await this.withTransaction(async () => (await this.statementQuery(explainPrefix)).rows[0]['QUERY PLAN']));
    const relations = await resolveRelations(this.client, planOnly.relations);
    const withResidency = this.residencyWanted(info, warnings);
    const cold = await this.makeCold(info, relations, warnings);
    const runs: RunReport[] = [];
    const anomalies = new Set<string>();
    // Each run's "after" residency is the next run's "before": nothing of ours runs in between, and
    // reading pg_buffercache costs a scan of every buffer header (≈ 2.5 ms at 128 MB).
    let residency = await readResidency(this.client, relations, withResidency);
    const predictor = await this.makePredictor(info, relations, residency, withResidency, warnings);
    const plans = [];
    for (this.run = 1; this.run <= this.options.runs; this.run++) {
      // A cancel between statements has nothing to stop on the server: it must stop the loop.
      if (this.options.signal?.aborted) throw new MeasureError(`cancelled before run ${this.run}`, 'cancelled');
      this.options.onProgress?.(`run ${this.run} of ${this.options.runs}`);
      const { run, plan, after } = await this.measureRun(info, relations, this.run === 1 && cold, residency, withResidency);
      if (predictor) applyPrediction(run, predictor.predictRun(plan.root));
      runs.push(run);
      plans.push(plan.root);
      residency = after;
      plan.anomalies.forEach((a) => anomalies.add(a));
    }
    const whatIf = predictor && this.options.whatIf !== false ? predictor.whatIf(plans, this.options.whatIfPoolBytes?.map((b) => Math.max(16, Math.round(b / info.blockSize)))) : undefined;
    warnings.push(...[...anomalies].map((a) => `EXPLAIN reported a parent below its children, shown as 0 self: ${a}`));
    if (this.options.timing) warnings.push('EXPLAIN ANALYZE times every plan node, which adds overhead to the elapsed times (--no-timing turns it off)');
    if (!info.canForceStatsFlush) warnings.push('this user cannot force a statistics flush (pg_stat_force_next_flush), so the pg_stat_* deltas in raw may lag by up to a second; EXPLAIN\'s numbers are exact');
    return {
      schemaVersion: 1,
      engine: { product: 'postgresql', version: info.version, pageSize: info.blockSize, settings: info.settings },
      statement: this.statement,
      createdAt: new Date().toISOString(),
      target: describeTarget(this.target),
      rolledBack: !this.options.commit,
      dataChanging,
      runs,
      warnings,
      ...(whatIf ? { whatIf } : {}),
    };
  }

  private async makePredictor(
    info: PostgresServerInfo,
    relations: TrackedRelation[],
    residency: ResidencySnapshot,
    withResidency: boolean,
    warnings: string[],
  ): Promise<PostgresPredictor | undefined> {
    const facts = await readRelationFacts(this.client, relations, residency);
    const updated = updatedColumns(this.statement) ?? undefined;
    let other = 0;
    if (withResidency) {
      const cachedTracked = [...residency.byOid.values()].reduce((a, r) => a + r.cached, 0);
      other = Math.max(0, (await buffersInUse(this.client, info.major)) - cachedTracked);
    } else {
      warnings.push('the prediction assumes none of the statement\'s pages were cached before run 1: residency was not read');
    }
    const st = info.settings;
    const num = (v: string | number | null | undefined, d: number) => (v === null || v === undefined || Number.isNaN(Number(v)) ? d : Number(v));
    return new PostgresPredictor(facts, {
      major: info.major,
      nbuffers: Number(st.shared_buffers_pages),
      blockSize: info.blockSize,
      effectiveIoConcurrency: num(st.effective_io_concurrency, info.major >= 18 ? 16 : 1),
      ioCombineLimit: parseBlocks(st.io_combine_limit, info.blockSize, 16),
      maxConnections: num(st.max_connections, 100),
      maxWorkerProcesses: num(st.max_worker_processes, 8),
      maxWalSenders: num(st.max_wal_senders, 10),
      autovacuumWorkerSlots: num(st.autovacuum_worker_slots, 16),
      otherBuffersUsed: other,
      ...(updated ? { updatedColumns: updated } : {}),
    });
  }

  private residencyWanted(info: PostgresServerInfo, warnings: string[]): boolean {
    if (info.buffercache === null || this.options.residency === 'never') return false;
    const nbuffers = Number(info.settings.shared_buffers_pages ?? 0);
    const limit = this.options.residencyLimitPages ?? DEFAULT_RESIDENCY_LIMIT_PAGES;
    if (this.options.residency !== 'always' && nbuffers > limit) {
      warnings.push(
        `residency not read: shared buffers hold ${nbuffers.toLocaleString('en-US')} pages, above the limit of ${limit.toLocaleString('en-US')}; each pg_buffercache read scans every buffer header (--residency=always reads it anyway)`,
      );
      return false;
    }
    return true;
  }

  private async ensureBuffercache(info: PostgresServerInfo, warnings: string[]): Promise<void> {
    if (info.buffercache) return;
    if (this.options.createExtension && info.buffercacheAvailable && info.canCreateExtension) {
      await this.query('CREATE EXTENSION IF NOT EXISTS pg_buffercache');
      Object.assign(info, await readServerInfo(this.client));
      warnings.push('created the pg_buffercache extension in this database (--create-extension)');
      return;
    }
    warnings.push(buffercacheAdvice(info));
  }

  private async makeCold(info: PostgresServerInfo, rels: TrackedRelation[], warnings: string[]): Promise<boolean> {
    if (this.options.cold === 'no') return false;
    let reason: string | undefined;
    if (!info.buffercache) reason = 'evicting needs the pg_buffercache extension';
    else if (!info.isSuperuser) reason = 'evicting buffers needs a superuser';
    else if (!info.evictRelation && !info.evictBuffer) {
      reason = `PostgreSQL ${info.major} cannot evict one relation's buffers (pg_buffercache_evict arrived in 17, pg_buffercache_evict_relation in 18); restart the server for a cold pool`;
    }
    if (reason) {
      if (this.options.cold === 'yes') throw new MeasureError(`--cold is not possible: ${reason} (--cold=try measures anyway)`, 'unsupported');
      warnings.push(`run 1 is not cold: ${reason}`);
      return false;
    }
    const oids = rels.map((r) => r.oid);
    if (info.evictRelation) {
      await this.query({ text: 'SELECT count(pg_buffercache_evict_relation(oid)) FROM unnest($1::oid[]) oid', values: [oids] });
    } else {
      await this.query({
        text: `SELECT count(pg_buffercache_evict(bufferid)) FROM pg_buffercache
                WHERE relfilenode = ANY(SELECT pg_relation_filenode(o) FROM unnest($1::oid[]) o)
                  AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        values: [oids],
      });
    }
    const left = await readResidency(this.client, rels, true);
    const still = [...left.byOid.values()].reduce((a, r) => a + r.cached, 0);
    if (still > 0) warnings.push(`${still} block(s) could not be evicted before run 1 (pinned by another session)`);
    return true;
  }

  private async measureRun(
    info: PostgresServerInfo,
    rels: TrackedRelation[],
    cold: boolean,
    resBefore: ResidencySnapshot,
    withCache: boolean,
  ): Promise<{ run: RunReport; plan: ParsedPlan; after: ResidencySnapshot }> {
    const oids = rels.map((r) => r.oid);
    const cBefore = await readCounters(this.client, oids, info.hasStatIo, info.major);
    const options = ['ANALYZE', 'BUFFERS', 'VERBOSE', 'FORMAT JSON', 'SETTINGS', 'WAL'];
    if (!this.options.timing) options.push('TIMING OFF');
    const started = performance.now();
    const plan = await this.withTransaction(async () => {
      const setup = [`SET LOCAL statement_timeout = ${Math.round(this.options.timeoutMs)}`];
      if (info.canSetTrackIoTiming) setup.push('SET LOCAL track_io_timing = on');
      if (info.canForceStatsFlush) setup.push('SELECT pg_stat_force_next_flush()');
      await this.query(setup.join('; '));
      return parseExplainJson((await this.statementQuery(`EXPLAIN (${options.join(', ')}) `)).rows[0]['QUERY PLAN']);
    }, this.options.commit);
    const wallMs = performance.now() - started;
    const cAfter = await readCounters(this.client, oids, info.hasStatIo, info.major);
    const resAfter = await readResidency(this.client, rels, withCache);
    const { measured, notes } = normalisePostgres(info.major, plan.root);
    const run: RunReport = {
      run: this.run,
      cold,
      elapsedMs: plan.executionTimeMs ?? wallMs,
      measured,
      predicted: { ...EMPTY_READS },
      notes,
      residency: residencyRows(rels, resBefore, resAfter, withCache),
      raw: { ...rawExplain(plan), ...counterDelta(cBefore, cAfter), wall_ms: Math.round(wallMs * 1000) / 1000 },
      plan: plan.root,
    };
    if (plan.planning) run.planning = plan.planning;
    return { run, plan, after: resAfter };
  }

  /** Runs the statement with a prefix, as one statement of the extended protocol (never two). */
  private async statementQuery(prefix: string) {
    try {
      // queryMode 'extended' sends Parse/Bind/Execute, which the server rejects for more than one statement.
      return await this.client.query({ text: prefix + this.statement, queryMode: 'extended' } as unknown as QueryConfig);
    } catch (err) {
      throw this.statementError(err, prefix.length);
    }
  }

  private async withTransaction<T>(body: () => Promise<T>, commit = false): Promise<T> {
    await this.query('BEGIN');
    this.inTransaction = true;
    try {
      const out = await body();
      await this.query(commit ? 'COMMIT' : 'ROLLBACK');
      this.inTransaction = false;
      return out;
    } catch (err) {
      await this.rollbackQuietly();
      throw err;
    }
  }

  private async rollbackQuietly(): Promise<void> {
    if (!this.inTransaction) return;
    try {
      await this.client.query('ROLLBACK');
    } catch {
      // the connection is gone: the server rolls back by itself
    }
    this.inTransaction = false;
  }

  private async query(q: string | { text: string; values: unknown[] }) {
    try {
      return await this.client.query(q as string);
    } catch (err) {
      throw this.statementError(err, 0);
    }
  }

  private statementError(err: unknown, prefixLength: number): Error {
    if (err instanceof MeasureError) return err;
    const e = err as PgError;
    const during = this.run > 0 ? ` during run ${this.run}` : '';
    if (e.code === '57014') {
      return this.cancelled
        ? new MeasureError(`cancelled${during}: the statement was stopped on the server and rolled back`, 'cancelled')
        : new MeasureError(`the statement ran longer than the ${this.options.timeoutMs / 1000} s limit${during} and was stopped (--timeout)`, 'timeout');
    }
    if (e.code?.startsWith('57P') || /Connection terminated|ECONNRESET|EPIPE|not queryable|Query read timeout/i.test(e.message)) {
      return new MeasureError(`lost the connection to the server${during}: ${e.message}`, 'connection');
    }
    if (e.position && prefixLength > 0) {
      const pos = Number(e.position) - prefixLength;
      if (pos > 0) {
        const { line, column } = lineColumn(this.statement, pos);
        return new MeasureError(`${e.message} (line ${line}, column ${column})`, 'statement');
      }
    }
    return new MeasureError(e.message, 'statement');
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    if (!this.pid) return;
    const second = await connectPostgres(this.target).catch(() => undefined);
    if (!second) return;
    try {
      await second.query('SELECT pg_cancel_backend($1)', [this.pid]);
    } finally {
      await second.end().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.options.signal?.removeEventListener('abort', this.onAbort);
    await this.rollbackQuietly();
    await this.client.end().catch(() => undefined);
  }
}

function applyPrediction(run: RunReport, p: RunPrediction): void {
  run.predicted = p.predicted;
  for (const row of run.residency) row.predictedAfter = p.predictedAfter.get(row.relation) ?? null;
  run.prediction = { assumptions: p.assumptions, unmodelled: p.unmodelled };
}

function residencyRows(rels: TrackedRelation[], before: ResidencySnapshot, after: ResidencySnapshot, known: boolean): RelationResidency[] {
  return rels.map((r) => {
    const b = before.byOid.get(r.oid);
    const a = after.byOid.get(r.oid);
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

function rawExplain(plan: ParsedPlan): Record<string, number | null> {
  const t = plan.root.total;
  const raw: Record<string, number | null> = {
    'explain.shared_hit': t.sharedHit,
    'explain.shared_read': t.sharedRead,
    'explain.shared_dirtied': t.sharedDirtied,
    'explain.shared_written': t.sharedWritten,
    'explain.local_hit': t.localHit,
    'explain.local_read': t.localRead,
    'explain.temp_read': t.tempRead,
    'explain.temp_written': t.tempWritten,
    'explain.read_time_ms': t.readTimeMs,
    'explain.workers_planned': plan.workersPlanned,
    'explain.workers_launched': plan.workersLaunched,
    'explain.planning_ms': plan.planningTimeMs,
    'explain.execution_ms': plan.executionTimeMs,
  };
  if (plan.planning) {
    raw['planning.shared_hit'] = plan.planning.sharedHit;
    raw['planning.shared_read'] = plan.planning.sharedRead;
  }
  if (plan.wal) for (const [k, v] of Object.entries(plan.wal)) raw[`explain.${k.toLowerCase().replace(/ /g, '_')}`] = v;
  return raw;
}
