// Predicts each measured InnoDB run with the InnoDB pool model, from the plan as executed (MariaDB's
// ANALYZE FORMAT=JSON, or EXPLAIN FORMAT=JSON), index statistics and the tablespace sizes, plus the rows
// an INSERT wrote. The pool starts as INNODB_BUFFER_PAGE_LRU showed it; run k+1 starts from the
// simulated state after run k.
import type { WhatIf, WhatIfSeries } from '../../shared/report';
import { InnodbPool, type InnodbPoolOptions } from '../../sim/policies/innodb-lru';
import { replayInsert } from './insert-trace';
import { replayRowWrite } from './write-trace';
import { leafOfRow, recordRowLeaves } from './row-leaves';
import { readCleanerNote, writeSettingsNote } from './pool-notes';
import { readRunOf } from './read-context';
import { headFirstSeed, firstAccessAges, seededOrder } from './lru-seed';
import { openGets, openTable } from './row-costs';
import { UndoLogs } from './undo-log';
import { usableBytes } from './index-pages';
import { IndexLayouts, NEW_PAGES, SPACE } from './index-layout';
import { replayReads, type InnodbReadContext } from './read-replay';
import { offPagesByLeaf } from './long-values';
import { calibrationNote } from './calibration';
import type { InnodbIndexFacts, InnodbPredictionSettings, InnodbRunInput } from './facts';
import type { RunPrediction } from '../prediction';
import { mebibytes, poolSizes, replayTotals, simulatedSize, whatIfSeries } from '../what-if';
import { cachedStatementAssumption, PROBE_POOL_SCALE, recordRequests, seedSwaps } from '../cached-statement';

/** A change-buffer record: space, marker, page, counter/type/flags and 6 bytes of type per field (ibuf_entry_build), in the redundant format. */
const IBUF_RECORD_FIXED = 4 + 1 + 4 + 4 + 6; /* record header */
/** FSP_IBUF_BITMAP_OFFSET: the change-buffer bitmap is page 1 of a tablespace. */
const IBUF_BITMAP_PAGE = 1;
/** B-tree pages filled by inserts in random key order end about ln 2 full. */
const RANDOM_FILL = Math.LN2;

export class InnodbPredictor {
  private pool: InnodbPool;
  private readonly layouts: IndexLayouts;
  private readonly readContext: InnodbReadContext;
  /** Pages created by committed inserts count in their index's residency; rolled-back ones were freed. */
  private createdPagesLive = false;
  /** Tables the replayed runs have opened (see openTables). */
  private readonly opened = new Set<string>();
  /** Each simulated pool's undo logs: the segment each run takes, and their pages. */
  private readonly undoLogs = new WeakMap<InnodbPool, UndoLogs>();
  /** Whether this draw placed a range where its key puts it (see keyPlacement), rather than drawing its start. */
  placedByKey = false;
  /** Starting pages that stand for the statement's own (cached-statement.ts): victim → the page in its place. */
  private swaps = new Map<number, number>();
  /** Why run 1 finds the statement's pages cached, until run 1 is predicted. */
  private cachedNote: string | undefined;

  constructor(
    private readonly facts: InnodbIndexFacts[],
    private readonly settings: InnodbPredictionSettings,
    /** Which draw of what the model guesses (positions, orders, full leaves): 0 is the one shown. */
    private readonly draw = 0,
    /** The statement's text, for the constants a range starts from. */
    statement?: string,
    /** The indexes' page layout, which no draw changes: shared by a prediction's draws. */
    layouts = new IndexLayouts(facts, settings.pageSize, firstAccessAges(settings.lruSeed)),
  ) {
    this.layouts = layouts;
    this.readContext = {
      facts,
      settings,
      layouts: this.layouts,
      draw,
      statement,
      indexOf: (table, key) => this.indexOf(table, key),
      placedByKey: () => void (this.placedByKey = true),
    };
    this.pool = this.startingPool(settings.poolPages, {});
  }

  private options(overrides: Partial<InnodbPoolOptions>): InnodbPoolOptions {
    const s = this.settings;
    const buffered = this.facts.find((f) => !f.clustered && !f.unique);
    // Entry sizes decide how many entries one change-buffer page holds and how many one leaf admits.
    const fields = 2; // a one-column key and a one-column primary key: the common case
    const ibufRecord = IBUF_RECORD_FIXED + (4 + 6 * fields) + (buffered?.keyBytes ?? 8) + (fields + 4);
    // A compact record (5-byte header) and its share of a directory slot.
    const leafRecord = 5 + (buffered?.keyBytes ?? 8) + 1;
    return {
      product: s.product,
      changeBuffering: s.changeBuffering,
      changeBufferMaxPct: s.changeBufferMaxPct,
      entriesPerIbufPage: Math.max(1, Math.floor((usableBytes(s.pageSize) * RANDOM_FILL) / ibufRecord)),
      // The leaves' free space, at the fill their statistics give, caps what one leaf takes.
      ...(buffered
        ? { leafSpace: { freeBytes: usableBytes(s.pageSize) * (1 - this.layouts.leafFill(buffered)), entryBytes: leafRecord, pageSize: s.pageSize } }
        : {}),
      ...(s.lruScanDepth ? { pageCleaner: { lruScanDepth: s.lruScanDepth } } : {}),
      ...(s.msPerRequest ? { msPerAccess: s.msPerRequest } : {}),
      oldBlocksPct: s.oldBlocksPct,
      oldBlocksTime: s.oldBlocksTime,
      readAheadThreshold: s.readAheadThreshold,
      randomReadAhead: s.randomReadAhead,
      ...(s.product === 'mariadb' ? { ibufBitmapOf: (page: number) => this.ibufBitmapOf(page) } : {}),
      spaceOf: (page) => {
        const i = Math.floor(page / SPACE);
        return i < this.facts.length ? i : -1;
      },
      spaceEnd: (page) => {
        const f = this.facts[Math.floor(page / SPACE)];
        return f ? Math.floor(page / SPACE) * SPACE + f.spacePages : Number.MAX_SAFE_INTEGER;
      },
      ...overrides,
    };
  }

  private startingPool(pages: number, overrides: Partial<InnodbPoolOptions>): InnodbPool {
    const s = this.settings;
    // A pool of this size holds the share of its pages the server's own pool does (its descriptors take the rest).
    const frames = s.poolFrames ? Math.max(1, Math.round((pages * s.poolFrames) / s.poolPages)) : pages;
    const pool = new InnodbPool(frames, this.options(overrides));
    const undo = new UndoLogs(s.undo, (this.facts.length + 1) * SPACE, this.facts.length * SPACE + NEW_PAGES);
    this.undoLogs.set(pool, undo);
    const seed = this.settings.lruSeed && headFirstSeed(this.settings.lruSeed);
    if (seed) {
      const order = this.layouts.memo('seededOrder', () => seededOrder(seed, this.facts.length * SPACE, this.offPagesByLeaf()));
      const { length, other, history, old } = order;
      const headToTail = order.headToTail.slice();
      // The undo tablespace's cached pages take the place of other pages nearest the head: every write requests them.
      const undoPages = undo.cachedPages();
      for (let k = 0; k < length && undoPages.length; k++) if (headToTail[k] >= other) headToTail[k] = undoPages.shift()!;
      for (let k = 0; k < length; k++) headToTail[k] = this.swaps.get(headToTail[k]) ?? headToTail[k];
      pool.seed(headToTail, old, history);
      this.preloadSpaceHeaders(pool);
      return pool;
    }
    const other = this.facts.length * SPACE;
    // The undo tablespace's cached pages are among the other pages, the youngest of them: every write requests them.
    const undoPages = undo.cachedPages().slice(0, this.settings.otherPagesUsed);
    const put = (p: number) => pool.preload(this.swaps.get(p) ?? p);
    for (let k = undoPages.length; k < Math.min(this.settings.otherPagesUsed, frames); k++) put(other + k);
    for (const p of undoPages) put(p);
    const offPages = this.offPagesByLeaf();
    this.facts.forEach((f, i) => {
      for (const [s, e] of f.cachedBefore)
        for (let p = s; p <= e; p++) for (const q of [i * SPACE + p, ...(offPages.get(i * SPACE + p) ?? [])]) if (!pool.contains(q)) put(q);
    });
    this.preloadSpaceHeaders(pool);
    return pool;
  }

  /** Every clustered index's off-page pages by the leaf they follow (long-values.ts). */
  private offPagesByLeaf(): Map<number, number[]> {
    return this.layouts.memo('offPagesByLeaf', () => {
      const out = new Map<number, number[]>();
      this.facts.forEach((f, i) => {
        if (f.clustered && (f.offPagePages ?? 0) > 0) for (const [leaf, pages] of offPagesByLeaf(this.layouts.of(i), f.leafPages)) out.set(leaf, pages);
      });
      return out;
    });
  }

  /**
   * A table with pages cached has its tablespace's header, change-buffer bitmap and inode pages (0–2)
   * cached too: every page allocation, every open and every secondary leaf read reads them. Residency
   * counts index pages only, so they are assumed.
   */
  private preloadSpaceHeaders(pool: InnodbPool): void {
    this.facts.forEach((f, i) => {
      if (!f.clustered || !this.facts.some((g) => g.table === f.table && g.cachedBefore.length > 0)) return;
      pool.preload(i * SPACE);
      pool.preload(i * SPACE + IBUF_BITMAP_PAGE);
      pool.preload(i * SPACE + 2);
    });
  }

  /**
   * A secondary index's leaf page read from disk makes MariaDB fetch the change-buffer bitmap (page 1 of
   * the table's tablespace, simulated in the clustered index's range); its root and node pages do not.
   */
  private ibufBitmapOf(page: number): number {
    const i = Math.floor(page / SPACE);
    const f = this.facts[i];
    if (!f || f.clustered || page - i * SPACE >= NEW_PAGES) return -1;
    const l = this.layouts.of(i);
    if (page === l.root || l.nodes.includes(page)) return -1;
    const c = this.indexOf(f.table, undefined);
    return c < 0 ? -1 : c * SPACE + IBUF_BITMAP_PAGE;
  }

  /**
   * Run 1 finds every page it requests cached (an earlier measurement's last run read none, and nothing of
   * the relations left the pool since): a probe replay of run 1 in a larger pool (PROBE_POOL_SCALE)
   * finds the pages the model would read, and the starting pool is rebuilt with them in the places of
   * cached pages of the same index that run 1 does not request.
   */
  assumeStatementCached(run: InnodbRunInput, why: string): void {
    const probe = this.startingPool(this.settings.poolPages * PROBE_POOL_SCALE, {});
    // The tablespace headers are assumed cached with the table (preloadSpaceHeaders): never a victim.
    const start = probe.cachedPages().filter((p) => p % SPACE > 2 || Math.floor(p / SPACE) >= this.facts.length);
    const startSet = new Set(start);
    const log = recordRequests(probe, 'access');
    this.replay(probe, run, new Set(), new Set(), new Set());
    const relationOf = (p: number) => (Math.floor(p / SPACE) < this.facts.length ? Math.floor(p / SPACE) : -1);
    this.swaps = seedSwaps(start, log, relationOf, (p) => startSet.has(p));
    this.pool = this.startingPool(this.settings.poolPages, {});
    this.cachedNote = cachedStatementAssumption(why);
  }

  private undoOf(pool: InnodbPool): UndoLogs {
    const u = this.undoLogs.get(pool);
    if (!u) throw new Error('a pool not made by startingPool');
    return u;
  }

  private indexOf(table: string, key: string | undefined): number {
    return this.facts.findIndex((f) => f.table === table && (key === undefined || key === 'PRIMARY' ? f.clustered : f.index === key));
  }

  private replay(pool: InnodbPool, run: InnodbRunInput, assumptions: Set<string>, unmodelled: Set<string>, opened: Set<string>): void {
    if (!run.planMissing) this.openTables(pool, opened, assumptions);
    const writes = (run.insert?.rows ?? 0) > 0 || run.otherWrite !== undefined;
    if (writes) this.undoOf(pool).startRun(pool);
    // MariaDB 10.5+: a reading thread that takes a free page when fewer than half the scan depth are left
    // wakes the cleaner (see InnodbPool), in a single statement as in a steady stream. Waking it once a
    // second of the run's pace instead left a scan a little larger than the pool predicted to read 1,361
    // pages where 2,865 were read (schema corpus, seed 1, run 2).
    const s = this.settings;
    if (!writes && s.lruScanDepth) assumptions.add(readCleanerNote(s.lruScanDepth));
    const w = run.otherWrite;
    const c = w ? this.facts.findIndex((f) => f.table === w.table && f.clustered) : -1;
    const recording = w?.rolledBack && c >= 0 ? recordRowLeaves(pool, this.layouts.of(c), this.facts[c].leafPages) : undefined;
    replayReads(this.readContext, pool, run.accesses, assumptions, unmodelled, readRunOf(run));
    const rowLeaves = recording?.stop() ?? [];
    if (w && w.rows !== undefined && w.rows > 0) {
      const self = new Set((w.selfRelative ?? []).map((c) => c.toLowerCase()));
      const modelled = replayRowWrite(
        pool,
        this.facts,
        (i) => this.layouts.of(i),
        (i) => i * SPACE,
        this.undoOf(pool),
        { ...w, rows: w.rows },
        (c) => self.has(c.toLowerCase()),
        this.settings.pageSize,
        assumptions,
        this.draw,
        { keys: run.writtenKeys ?? {}, ranges: run.keyRanges ?? {} },
        leafOfRow(rowLeaves, w.rows),
      );
      if (!modelled) unmodelled.add(`the ${w.statement} on ${w.table}: no index statistics for it (mysql.innodb_index_stats), so its changes are left out`);
    } else if (w && w.rows === undefined) {
      unmodelled.add(
        `${w.statement} on ${w.table}: the changes it makes (undo records, secondary-index entries, their rollback) are left out; the reads of ` +
          `its scan are modelled`,
      );
    }
    if (run.insert && run.insert.rows > 0) {
      const modelled = replayInsert(pool, this.facts, (i) => this.layouts.of(i), this.undoOf(pool), run.insert, this.settings.pageSize, assumptions, this.draw);
      if (!modelled) unmodelled.add(`the INSERT into ${run.insert.table}: no index statistics for it (mysql.innodb_index_stats), so its writes are left out`);
      else assumptions.add(writeSettingsNote(this.settings));
    }
  }

  /**
   * The tables the first run opens (not in the server's table cache before it): their definitions and
   * statistics are read, with the clustered index's root. Once per replay from the starting state.
   */
  private openTables(pool: InnodbPool, opened: Set<string>, assumptions: Set<string>): void {
    for (const table of this.settings.tablesToOpen ?? []) {
      if (opened.has(table)) continue;
      opened.add(table);
      const c = this.indexOf(table, undefined);
      if (c < 0) continue;
      const indexes = this.facts.filter((f) => f.table === table).length;
      openTable(pool, this.layouts.of(c), indexes);
      assumptions.add(
        `${table} was not in the table cache before run 1 (SHOW OPEN TABLES): run 1 opens it, reading its definition and statistics ` +
          `(${openGets(this.layouts.of(c), indexes)} page gets, measured per index and tree level) and its clustered index's root`,
      );
    }
  }

  predictRun(run: InnodbRunInput): RunPrediction {
    const before = this.pool.counters();
    const spacesBefore = this.pool.spaceCounters();
    const assumptions = new Set<string>(this.cachedNote ? [this.cachedNote] : []);
    this.cachedNote = undefined;
    const unmodelled = new Set<string>();
    this.replay(this.pool, run, assumptions, unmodelled, this.opened);
    const calibrated = this.settings.release === undefined ? undefined : calibrationNote(this.settings.product, this.settings.release);
    if (calibrated && (run.otherWrite || run.insert || this.settings.tablesToOpen?.length)) assumptions.add(calibrated);
    // Freed pages stay in the pool until evicted but belong to no index any more.
    if (run.insert && run.insert.rows > 0) this.createdPagesLive = !run.insert.rolledBack;
    const after = this.pool.counters();
    const d = (k: string) => after[k] - before[k];
    if (run.planMissing) unmodelled.add(`the statement's plan: ${run.planMissing}, so its reads are not modelled`);
    return {
      predicted: run.planMissing
        ? { logicalReads: null, physicalReads: null, readAhead: null }
        : {
            logicalReads: d('Innodb_buffer_pool_read_requests'),
            physicalReads: d('sync_reads'),
            readAhead: d('Innodb_buffer_pool_read_ahead') + d('Innodb_buffer_pool_read_ahead_rnd'),
          },
      predictedAfter: this.cachedPerIndex(this.pool),
      assumptions: [...assumptions],
      unmodelled: [...unmodelled],
      ...(run.planMissing ? {} : { perTable: this.perTable(spacesBefore, this.pool.spaceCounters()) }),
    };
  }

  /** Per table (all its indexes), the pages the run requested and read, read-ahead included: what r_engine_stats counts. */
  private perTable(before: Array<[number, number, number]>, after: Array<[number, number, number]>): Map<string, { pages: number; read: number }> {
    const out = new Map<string, { pages: number; read: number }>();
    this.facts.forEach((f, i) => {
      const [g0, r0, a0] = before[i] ?? [0, 0, 0];
      const [g1, r1, a1] = after[i] ?? [0, 0, 0];
      const t = out.get(f.table) ?? { pages: 0, read: 0 };
      out.set(f.table, { pages: t.pages + g1 - g0, read: t.read + r1 - r0 + a1 - a0 });
    });
    return out;
  }

  /** Pages of each index cached: only the index's own pages count (see IndexLayouts.ownPages). */
  private cachedPerIndex(pool: InnodbPool): Map<string, number> {
    const counts = new Array<number>(this.facts.length).fill(0);
    const own = this.facts.map((_, i) => this.layouts.ownPages(i, this.createdPagesLive));
    for (const p of pool.cachedPages()) {
      const i = Math.floor(p / SPACE);
      if (own[i]?.(p)) counts[i]++;
    }
    return new Map(this.facts.map((f, i) => [f.reportName, counts[i]]));
  }

  /** All runs again from the starting state, once per value of each setting. */
  whatIf(runs: InnodbRunInput[], poolBytes?: number[]): WhatIf {
    const s = this.settings;
    const replayAll = (pages: number, overrides: Partial<InnodbPoolOptions>) => {
      const pool = this.startingPool(pages, overrides);
      const start = pool.counters();
      const opened = new Set<string>();
      runs.forEach((r) => this.replay(pool, r, new Set(), new Set(), opened));
      const c = pool.counters();
      // Pages read, synchronous and read ahead: both are disk reads a bigger pool would spare.
      const read = (k: Record<string, number>) => k.sync_reads + k.Innodb_buffer_pool_read_ahead + k.Innodb_buffer_pool_read_ahead_rnd;
      return replayTotals(c.Innodb_buffer_pool_read_requests - start.Innodb_buffer_pool_read_requests, read(c) - read(start), c.sync_reads - start.sync_reads);
    };
    // The smallest pool the server starts with: MariaDB refuses under 6 MiB with 16 KiB pages, MySQL 5 MiB.
    const minimum = Math.ceil(((s.product === 'mariadb' ? 6 : 5) * 1048576) / s.pageSize);
    const sizes = poolSizes(s.poolPages, s.pageSize, { factors: [0.25, 0.5, 1, 2, 4], floor: minimum, minimum: 64 }, poolBytes);
    // A pool size from which a larger one changes nothing: four times every page the runs can touch (the
    // indexes' pages, the other pages, and per inserted row a new page per index, an undo page and a
    // change-buffer page at most), so that the change buffer's cap (a quarter) and the page cleaner's
    // free-page target never bind, and at least 2,048 pages, where the read-ahead area is whole.
    const rows = runs.reduce((a, r) => a + (r.insert?.rows ?? 0), 0);
    const touched = Math.max(
      2048,
      4 * (this.facts.reduce((a, f) => a + f.sizePages, 0) + s.otherPagesUsed + rows * (this.facts.length + 2) + (s.lruScanDepth ?? 0) + 1024),
    );
    const series: WhatIfSeries[] = [
      whatIfSeries(
        'innodb_buffer_pool_size',
        'pages',
        sizes,
        (n) => ({ value: n, label: `${mebibytes(n, s.pageSize)} MiB`, current: n === s.poolPages }),
        (n) => replayAll(simulatedSize(n, touched), {}),
      ),
      whatIfSeries(
        'innodb_read_ahead_threshold',
        'pages',
        [0, 32, 56, 64],
        (v) => ({ value: v, label: String(v), current: v === s.readAheadThreshold }),
        (v) => replayAll(s.poolPages, { readAheadThreshold: v }),
      ),
      whatIfSeries(
        'innodb_old_blocks_time',
        'ms',
        [0, 1000],
        (v) => ({ value: v, label: `${v} ms`, current: v === s.oldBlocksTime }),
        (v) => replayAll(s.poolPages, { oldBlocksTime: v }),
      ),
    ];
    if (runs.some((r) => r.insert && r.insert.rows > 0)) {
      series.push(
        whatIfSeries(
          'innodb_change_buffering',
          '',
          ['none', 'all'] as const,
          (v, k) => ({ value: k, label: v, current: v === s.changeBuffering || (v === 'all' && s.changeBuffering !== 'none') }),
          (v) => replayAll(s.poolPages, { changeBuffering: v }),
        ),
      );
    }
    return { runs: runs.length, series };
  }
}
