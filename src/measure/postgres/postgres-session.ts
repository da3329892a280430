// The PostgreSQL session: every run is EXPLAIN (ANALYZE, BUFFERS) inside a transaction that is rolled
// back, with counter snapshots around it; residency from pg_buffercache. Driver work only: the run loop
// and the report are run-measurement.ts's.
import type { Client, QueryConfig } from 'pg';
import { connectPostgres } from '../../db/postgres';
import type { ConnectionTarget } from '../../db/connection-url';
import type { PlanNode, Report } from '../../shared/report';
import { afterRunsFailures } from './after-runs';
import { readAfterRuns } from './after-runs-reads';
import { parseBlocks, type PgPostRunObservations, type PgPredictionInput } from '../../predict/postgres/facts';
import type { EngineSession, ResidencySnapshot, RunOutcome } from '../engine-session';
import type { MeasureOptions } from '../options';
import type { CheckedStatement } from '../../sql/classify/statement-check';
import { buffercacheAdvice, readServerInfo, type PostgresServerInfo } from './server-info';
import { parseExplainJson, rawExplain } from './plan';
import { readBufferSeed, readResidency, resolveRelations, type PgRelation } from './residency';
import { counterDelta, readCounters } from './counters';
import { normalisePostgres } from './normalise';
import { buffersInUse, readRelationFacts } from './catalog';
import { updatedColumns } from '../../sql/classify/postgres-update-columns';
import { postgresError } from './errors';
import { findSideEffects, sequencePositions } from './side-effects';
import { relationNames, statementTables, writtenNames } from './statement-relations';
import { footprintWarning, readFootprint, type Footprint } from './leftovers';
import { decide, mustRun, NOTHING_REACHED, type RunVerdict } from '../gate';
import { maskSql } from '../../sql/mask';
import { attachHotUpdates, readHotCounts } from './hot-updates';

export type PgFacts = Omit<PgPredictionInput, 'runs'>;

/** The share of the timeout a wait for another session's lock may take. */
const LOCK_SHARE_OF_TIMEOUT = 0.9;

export async function openPostgresSession(target: ConnectionTarget, statement: CheckedStatement, options: MeasureOptions): Promise<PostgresSession> {
  // Every query BufferLens sends is bounded by the timeout, its own catalog and residency reads too; a lock
  // wait ends a little before it, so that it is named as one (the client's own limit is a last resort).
  const limit = Math.max(1, Math.round(options.timeoutMs));
  const lockLimit = Math.max(1, Math.round(limit * LOCK_SHARE_OF_TIMEOUT));
  const client = await connectPostgres(target, { query_timeout: options.timeoutMs + 15_000, statement_timeout: limit, lock_timeout: lockLimit });
  return new PostgresSession(client, target, statement.statement, statement.dataChanging, options);
}

export class PostgresSession implements EngineSession<PgFacts, PlanNode, PgPostRunObservations> {
  private pid = 0;
  private inTransaction = false;
  private currentRun = 0;
  private cancelled = false;
  private info!: PostgresServerInfo;
  relations: PgRelation[] = [];
  private readonly anomalies = new Set<string>();

  constructor(
    private readonly client: Client,
    private readonly target: ConnectionTarget,
    private readonly statement: string,
    private readonly dataChanging: boolean,
    private readonly options: MeasureOptions,
  ) {}

  get engine(): Report['engine'] {
    return { product: 'postgresql', version: this.info.version, pageSize: this.info.blockSize, settings: this.info.settings };
  }

  get poolPages(): number {
    return Number(this.info.settings.shared_buffers_pages ?? 0);
  }

  get residencyAvailable(): boolean {
    return this.info.buffercache !== null;
  }

  async prepare(warnings: string[]): Promise<void> {
    this.pid = (await this.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    this.info = await readServerInfo(this.client);
    await this.ensureBuffercache(warnings);
    // The relations come from the text and the catalogs, not from a plan: planning reads index metapages
    // and probes index ends, which would touch the statement's pages before run 1.
    const tables = await statementTables(this.client, relationNames(this.statement));
    this.relations = await resolveRelations(this.client, tables);
    const writtenOids = this.dataChanging ? (await statementTables(this.client, writtenNames(this.statement))).map((t) => t.oid) : [];
    await this.checkSideEffects(writtenOids, warnings);
    if (this.info.isSuperuser) {
      warnings.push(
        "measured as a superuser: nothing but BufferLens's own checks stands between the statement and the server; a measuring role needs only " +
        "pg_read_all_stats, EXECUTE on the pg_buffercache functions and SELECT on the tables (Test Connection prints the GRANTs)",
      );
    }
  }

  /** Refuses what a rollback cannot undo, names user functions, and notes the sequences that will advance. */
  private async checkSideEffects(writtenOids: number[], warnings: string[]): Promise<void> {
    const inserts = /\b(INSERT|MERGE)\b/i.test(maskSql(this.statement, 'postgresql'));
    const fx = await findSideEffects(this.client, this.statement, writtenOids, inserts).catch((err) => {
      throw this.error(err, 0);
    });
    this.verdict = mustRun(
      decide(
        this.dataChanging ? 'write' : 'read',
        { ...NOTHING_REACHED, outside: fx.outside, sequences: fx.sequences, routines: fx.volatile },
        { commit: this.options.commit, allowSideEffects: this.options.allowSideEffects ?? false },
      ),
    );
    warnings.push(...this.verdict.warnings);
    if (this.dataChanging && !this.options.commit) {
      warnings.push(
        'each rolled-back run leaves the row versions it wrote as dead tuples until VACUUM (and pages the table grew by stay): later runs read past ' +
        'them, and the report says what was left',
      );
      const indexes = writtenOids.length ? this.relations.filter((r) => r.kind === 'index').map((r) => r.oid) : [];
      this.footprintOids = [...new Set([...writtenOids, ...indexes])];
      this.footprintBefore = await readFootprint(this.client, this.footprintOids, this.info.canForceStatsFlush);
    }
    if (fx.sequences.length && this.dataChanging) this.sequencesBefore = await sequencePositions(this.client, fx.sequences);
  }

  /** The gate's verdict, which decides too whether the statement's own text may be re-asked after the runs. */
  private verdict: RunVerdict | undefined;
  private reaskNote: string | undefined;
  private sequencesBefore = new Map<string, number>();
  private footprintOids: number[] = [];
  private footprintBefore: Footprint | undefined;
  private runsDone = 0;

  residencySkipped(limit: number): string {
    return `residency not read: shared buffers hold ${this.poolPages.toLocaleString('en-US')} pages, above the limit of ${limit.toLocaleString('en-US')}; ` +
      `each pg_buffercache read scans every buffer header (--residency=always reads it anyway)`;
  }

  private async ensureBuffercache(warnings: string[]): Promise<void> {
    await this.ensureVisibility(warnings);
    const info = this.info;
    if (info.buffercache) return;
    if (this.options.createExtension && info.buffercacheAvailable && info.canCreateExtension) {
      await this.query('CREATE EXTENSION IF NOT EXISTS pg_buffercache');
      this.info = await readServerInfo(this.client);
      warnings.push('created the pg_buffercache extension in this database (--create-extension)');
      return;
    }
    warnings.push(buffercacheAdvice(info));
  }

  /** pg_visibility tells which pages an index-only scan fetches from (fetched-blocks.ts): created where asked to, as pg_buffercache. */
  private async ensureVisibility(warnings: string[]): Promise<void> {
    const info = this.info;
    if (info.visibility || !this.options.createExtension || !info.visibilityAvailable || !info.canCreateExtension) return;
    await this.query('CREATE EXTENSION IF NOT EXISTS pg_visibility');
    this.info = await readServerInfo(this.client);
    warnings.push('created the pg_visibility extension in this database (--create-extension)');
  }

  async evict(warnings: string[]): Promise<string | undefined> {
    const info = this.info;
    if (!info.buffercache) return 'evicting needs the pg_buffercache extension';
    if (!info.isSuperuser) return 'evicting buffers needs a superuser';
    if (!info.evictRelation && !info.evictBuffer) {
      return (
        `PostgreSQL ${info.major} cannot evict one relation's buffers (pg_buffercache_evict arrived in 17, pg_buffercache_evict_relation in 18); ` +
        'restart the server for a cold pool'
      );
    }
    const oids = this.relations.map((r) => r.oid);
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
    const left = await readResidency(this.client, this.relations, true);
    const still = [...left.values()].reduce((a, r) => a + r.cached, 0);
    if (still > 0) warnings.push(`${still} block(s) could not be evicted before run 1 (pinned by another session)`);
    return undefined;
  }

  async beforeRuns(): Promise<void> {}

  /** The facts read before run 1: what the queries after the runs ask about. */
  private facts: PgFacts | undefined;
  private lastPlan: PlanNode | undefined;

  /** What the queries after the last run observe (after-runs-reads.ts). */
  async finishRuns(): Promise<PgPostRunObservations> {
    if (!this.facts || !this.lastPlan) return {};
    const { observed, reaskNote } = await readAfterRuns({
      client: this.client,
      statement: this.statement,
      plan: this.lastPlan,
      relations: this.relations,
      facts: this.facts,
      timeoutMs: this.options.timeoutMs,
      dataChanging: this.dataChanging,
      visibility: this.info.visibility,
      commit: this.options.commit === true,
      verdict: this.verdict,
    });
    if (reaskNote) this.reaskNote = reaskNote;
    return observed;
  }

  readResidency(withCache: boolean): Promise<ResidencySnapshot> {
    return readResidency(this.client, this.relations, withCache).catch((err) => {
      throw this.error(err, 0);
    });
  }

  async predictionFacts(before: ResidencySnapshot, withCache: boolean, warnings: string[]): Promise<PgFacts> {
    const info = this.info;
    const relations = await readRelationFacts(this.client, this.relations, before);
    const updated = updatedColumns(this.statement) ?? undefined;
    let other = 0;
    let bufferSeed: PgFacts['settings']['bufferSeed'];
    if (withCache) {
      const cachedTracked = [...before.values()].reduce((a, r) => a + r.cached, 0);
      other = Math.max(0, (await buffersInUse(this.client, info.major)) - cachedTracked);
      bufferSeed = await readBufferSeed(this.client, this.relations);
    } else {
      warnings.push("the prediction assumes none of the statement's pages were cached before run 1: residency was not read");
    }
    const st = info.settings;
    const num = (v: string | number | null | undefined, d: number) => (v === null || v === undefined || Number.isNaN(Number(v)) ? d : Number(v));
    return (this.facts = {
      relations,
      settings: {
        major: info.major,
        nbuffers: Number(st.shared_buffers_pages),
        blockSize: info.blockSize,
        effectiveIoConcurrency: num(st.effective_io_concurrency, info.major >= 18 ? 16 : 1),
        ioCombineLimit: parseBlocks(st.io_combine_limit, info.blockSize, 16),
        maxConnections: num(st.max_connections, 100),
        maxWorkerProcesses: num(st.max_worker_processes, 8),
        maxWalSenders: num(st.max_wal_senders, 10),
        autovacuumWorkerSlots: num(st.autovacuum_worker_slots, 16),
        hintsWalLogged: st.data_checksums === 'on' || st.wal_log_hints === 'on',
        otherBuffersUsed: other,
        ...(bufferSeed ? { bufferSeed } : {}),
        ...(updated ? { updatedColumns: updated } : {}),
      },
    });
  }

  async run(run: number): Promise<RunOutcome<PlanNode, PgPostRunObservations>> {
    this.currentRun = run;
    this.runsDone = run;
    try {
      return await this.measureRun();
    } catch (err) {
      // The counters' queries fail too when the server goes away between runs.
      throw this.error(err, 0);
    }
  }

  private async measureRun(): Promise<RunOutcome<PlanNode, PgPostRunObservations>> {
    const info = this.info;
    const oids = this.relations.map((r) => r.oid);
    const cBefore = await readCounters(this.client, oids, info.hasStatIo, info.major);
    const options = ['ANALYZE', 'BUFFERS', 'VERBOSE', 'FORMAT JSON', 'SETTINGS', 'WAL'];
    if (!this.options.timing) options.push('TIMING OFF');
    const started = performance.now();
    const plan = await this.withTransaction(
      async () => {
        const setup = [`SET LOCAL statement_timeout = ${Math.round(this.options.timeoutMs)}`];
        if (info.canSetTrackIoTiming) setup.push('SET LOCAL track_io_timing = on');
        if (info.canForceStatsFlush) setup.push('SELECT pg_stat_force_next_flush()');
        await this.query(setup.join('; '));
        const tables = this.dataChanging ? this.relations.filter((r) => r.kind === 'table').map((r) => r.oid) : [];
        // Built-in statistics reads of this backend's own memory: a failure here is the connection's.
        const hotBefore = await readHotCounts(this.client, tables);
        const explained = parseExplainJson((await this.statementQuery(`EXPLAIN (${options.join(', ')}) `)).rows[0]['QUERY PLAN']);
        attachHotUpdates(explained.root, hotBefore, await readHotCounts(this.client, tables));
        return explained;
      },
      { commit: this.options.commit, readOnly: !this.dataChanging },
    );
    const wallMs = performance.now() - started;
    const cAfter = await readCounters(this.client, oids, info.hasStatIo, info.major);
    this.lastPlan = plan.root;
    const { measured, notes } = normalisePostgres(info.major, plan.statementTotal);
    plan.anomalies.forEach((a) => this.anomalies.add(a));
    return {
      elapsedMs: plan.executionTimeMs ?? wallMs,
      measured,
      notes,
      raw: { ...rawExplain(plan), ...counterDelta(cBefore, cAfter), wall_ms: Math.round(wallMs * 1000) / 1000 },
      plan: plan.root,
      ...(plan.planning ? { planning: plan.planning } : {}),
      predictInput: () => plan.root,
      warnings: [],
    };
  }

  async closingWarnings(): Promise<string[]> {
    const left = this.footprintBefore
      ? footprintWarning(
          this.footprintBefore,
          await readFootprint(this.client, this.footprintOids, this.info.canForceStatsFlush),
          this.runsDone,
          this.info.canForceStatsFlush,
        )
      : undefined;
    const after = await sequencePositions(this.client, [...this.sequencesBefore.keys()]);
    const advanced = [...after].map(([name, v]) => [name, v - (this.sequencesBefore.get(name) ?? v)] as const).filter(([, d]) => d > 0);
    const out = advanced.map(([name, d]) => `sequence ${name} advanced by ${d.toLocaleString('en-US')} over the runs, and stays advanced after the rollback`);
    out.push(...afterRunsFailures(this.client));
    if (this.reaskNote) out.push(this.reaskNote);
    if (left) out.push(left);
    out.push(...[...this.anomalies].map((a) => `EXPLAIN reported a parent below its children, shown as 0 self: ${a}`));
    if (this.options.timing) out.push('EXPLAIN ANALYZE times every plan node, which adds overhead to the elapsed times (--no-timing turns it off)');
    if (!this.info.canForceStatsFlush)
      out.push(
        "this user cannot force a statistics flush (pg_stat_force_next_flush), so the pg_stat_* deltas in raw may lag by up to a second; EXPLAIN's " +
        "numbers are exact",
      );
    return out;
  }

  /** Runs the statement with a prefix, as one statement of the extended protocol (never two). */
  private async statementQuery(prefix: string) {
    try {
      // queryMode 'extended' sends Parse/Bind/Execute, which the server rejects for more than one statement.
      return await this.client.query({ text: prefix + this.statement, queryMode: 'extended' } as unknown as QueryConfig);
    } catch (err) {
      throw this.error(err, prefix.length);
    }
  }

  /** Reading statements run read-only: a write hidden in a function fails instead of happening. */
  private async withTransaction<T>(body: () => Promise<T>, how: { commit?: boolean; readOnly: boolean }): Promise<T> {
    const commit = how.commit ?? false;
    await this.query(how.readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
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
      throw this.error(err, 0);
    }
  }

  private error(err: unknown, prefixLength: number): Error {
    return postgresError(err, { run: this.currentRun, cancelled: this.cancelled, timeoutMs: this.options.timeoutMs, statement: this.statement, prefixLength });
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
    await this.rollbackQuietly();
    await this.client.end().catch(() => undefined);
  }
}
