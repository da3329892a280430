// Predicts each measured InnoDB run with the InnoDB pool model, from the plan as executed (MariaDB's
// ANALYZE FORMAT=JSON, or EXPLAIN FORMAT=JSON), index statistics and the tablespace sizes, plus the rows
// an INSERT wrote. The pool starts as INNODB_BUFFER_PAGE_LRU showed it; run k+1 starts from the
// simulated state after run k.
import type { Reads, WhatIf, WhatIfSeries } from '../../shared/report';
import { InnodbPool, type InnodbPoolOptions } from '../../sim/policies/innodb-lru';
import { replayInsert, type InsertRun } from './insert-trace';
import { leafFill, usableBytes, type IndexPages } from './index-pages';
import { LOOKUP_ACCESS, replayLookup } from './lookup-trace';

export interface InnodbIndexFacts {
  /** db.table for the clustered index, db.table.index otherwise (the report's residency name). */
  reportName: string;
  table: string;
  index: string;
  clustered: boolean;
  leafPages: number;
  /** All pages of the index, leaf and non-leaf. */
  sizePages: number;
  /** Pages of the table's tablespace file. */
  spacePages: number;
  /** Page numbers cached before run 1, as ranges. */
  cachedBefore: Array<[number, number]>;
  unique: boolean;
  /** Rows of the table (the clustered index's statistics). */
  rows: number;
  /** Bytes of the index's key columns plus, for a secondary index, the primary key's. */
  keyBytes: number;
  /** Bytes of one index record's data: the whole row for the clustered index. */
  entryBytes: number;
  /** The clustered index's key is an AUTO_INCREMENT column, so inserts append at its right end. */
  autoIncrementKey: boolean;
}

export interface InnodbPredictionSettings {
  product: 'mysql' | 'mariadb';
  poolPages: number;
  pageSize: number;
  oldBlocksPct: number;
  oldBlocksTime: number;
  readAheadThreshold: number;
  randomReadAhead: boolean;
  /** Pages of other tables and the system in the pool before run 1. */
  otherPagesUsed: number;
  changeBuffering: NonNullable<InnodbPoolOptions['changeBuffering']>;
  changeBufferMaxPct: number;
  /** innodb_lru_scan_depth where the page cleaner keeps that many pages free (MariaDB 10.5+). */
  lruScanDepth?: number;
}

/** One measured run as the predictor replays it. */
export interface InnodbRunInput {
  plan: unknown;
  insert?: InsertRun;
  /** An UPDATE or DELETE on this table: its scan is modelled, its changes are named as left out. */
  otherWrite?: { statement: 'UPDATE' | 'DELETE'; table: string };
}

const SPACE = 0x1000000;
/** Fragment pages a segment takes from extent 0 before it gets whole extents. */
const FRAGMENT_PAGES = 32;
/** A node pointer's bytes beyond the key: the child page number and the record header. */
const NODE_POINTER_OVERHEAD = 4 + 5;
/** Where pages a statement creates are numbered within their space: past any file this models. */
const NEW_PAGES = 0x800000;
/** A change-buffer record: space, marker, page, counter/type/flags and 6 bytes of type per field (ibuf_entry_build), in the redundant format. */
const IBUF_RECORD_FIXED = 4 + 1 + 4 + 4 + 6 /* record header */;
/** B-tree pages filled by inserts in random key order end about ln 2 full. */
const RANDOM_FILL = Math.LN2;

export interface InnodbRunPrediction {
  predicted: Reads;
  predictedAfter: Map<string, number>;
  assumptions: string[];
  unmodelled: string[];
}

interface TableAccess {
  table: string;
  accessType: string;
  key?: string;
  rows: number;
  loops: number;
  /** The index covers the query: no clustered-index lookups. */
  usingIndex: boolean;
}

/**
 * The table accesses of a plan in execution order. MariaDB's ANALYZE reports each table's loops
 * (r_loops); MySQL's EXPLAIN FORMAT=JSON, not executed, does not: there an inner table of a nested loop
 * runs once per row the tables before it produced (rows_produced_per_join of the previous one).
 */
function accesses(plan: unknown): TableAccess[] {
  const out: TableAccess[] = [];
  const walk = (node: unknown, loops: number | undefined): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, loops));
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (typeof o.table_name === 'string' && typeof o.access_type === 'string') {
      out.push({
        table: o.table_name,
        accessType: o.access_type,
        key: typeof o.key === 'string' ? o.key : undefined,
        rows: Number(o.r_rows ?? o.rows_examined_per_scan ?? o.rows ?? 0),
        loops: Number(o.r_loops ?? loops ?? 1),
        usingIndex: o.using_index === true,
      });
    }
    for (const [k, v] of Object.entries(o)) {
      if (k === 'nested_loop' && Array.isArray(v)) {
        let before: number | undefined;
        for (const item of v) {
          walk(item, before);
          const t = (item as { table?: Record<string, unknown> })?.table;
          const produced = t ? Number(t.rows_produced_per_join) : NaN;
          before = Number.isFinite(produced) ? Math.max(1, produced) : undefined;
        }
      } else walk(v, loops);
    }
  };
  walk(plan, undefined);
  return out;
}

export class InnodbPredictor {
  private readonly pool: InnodbPool;

  constructor(
    private readonly facts: InnodbIndexFacts[],
    private readonly settings: InnodbPredictionSettings,
  ) {
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
      ...(buffered ? { leafSpace: { freeBytes: usableBytes(s.pageSize) * (1 - this.leafFill(buffered)), entryBytes: leafRecord, pageSize: s.pageSize } } : {}),
      ...(s.lruScanDepth ? { pageCleaner: { lruScanDepth: s.lruScanDepth } } : {}),
      oldBlocksPct: s.oldBlocksPct,
      oldBlocksTime: s.oldBlocksTime,
      readAheadThreshold: s.readAheadThreshold,
      randomReadAhead: s.randomReadAhead,
      spaceEnd: (page) => {
        const f = this.facts[Math.floor(page / SPACE)];
        return f ? Math.floor(page / SPACE) * SPACE + f.spacePages : Number.MAX_SAFE_INTEGER;
      },
      ...overrides,
    };
  }

  private startingPool(pages: number, overrides: Partial<InnodbPoolOptions>): InnodbPool {
    const pool = new InnodbPool(pages, this.options(overrides));
    const other = this.facts.length * SPACE;
    for (let k = 0; k < Math.min(this.settings.otherPagesUsed, pages); k++) pool.preload(other + k);
    this.facts.forEach((f, i) => {
      for (const [s, e] of f.cachedBefore) for (let p = s; p <= e; p++) pool.preload(i * SPACE + p);
    });
    return pool;
  }

  private readonly layouts = new Map<number, IndexPages>();

  /** An index's page numbers; computed once, since traces ask for it per row. */
  private layout(i: number): IndexPages {
    let l = this.layouts.get(i);
    if (!l) {
      l = this.computeLayout(i);
      this.layouts.set(i, l);
    }
    return l;
  }

  /**
   * Where an index's pages are, as InnoDB allocates a file-per-table B-tree: the root at page 3, the first
   * 32 leaf pages (and the non-leaf pages) as fragment pages of extent 0, the other leaves in whole extents
   * from page 64 in key order. Secondary indexes are placed after the clustered one.
   */
  private computeLayout(i: number): IndexPages {
    const f = this.facts[i];
    const base = i * SPACE;
    const nonLeaf = Math.max(1, f.sizePages - f.leafPages);
    const height = f.leafPages <= 1 ? 1 : 1 + Math.ceil(Math.log(f.leafPages) / Math.log(this.fanout(f)));
    const levels = Math.max(0, Math.min(height - 2, nonLeaf - 1));
    const modelled = Array.from({ length: levels }, (_, k) => base + 4 + k);
    const fragmentStart = 4 + levels;
    const offset = this.secondaryOffset(i);
    const layoutLeaf = (k: number) => base + (k < FRAGMENT_PAGES ? fragmentStart + k : 64 + offset + (k - FRAGMENT_PAGES));
    // A cached index has its root and node pages cached (every access passes them), and a B-tree's
    // first pages are those: the lowest cached page numbers stand for them.
    const all = this.cachedPages(i);
    const root = all.length > 0 ? all[0] : base + 3;
    const internal = all.length > levels ? all.slice(1, 1 + levels) : modelled;
    const map = this.leafMap(f, layoutLeaf, all.slice(1 + internal.length));
    return {
      root,
      internal,
      leaves: (k) => map[Math.min(Math.max(0, k), map.length - 1)],
      lastLeaf: map[map.length - 1],
      newPages: base + NEW_PAGES,
    };
  }

  /** The index's pages cached before run 1, as simulated page ids in ascending order. */
  private cachedPages(i: number): number[] {
    const out: number[] = [];
    for (const [s, e] of this.facts[i].cachedBefore) for (let p = s; p <= e; p++) out.push(i * SPACE + p);
    return out.sort((a, b) => a - b);
  }

  /**
   * Leaf k in key order → page. The modelled layout, except that cached pages it does not place (an index
   * grown in random key order has its leaves anywhere in the file) take the places of uncached layout
   * leaves, so that as many leaves are cached as the residency snapshot showed.
   */
  private leafMap(f: InnodbIndexFacts, layoutLeaf: (k: number) => number, cachedLeaves: number[]): Int32Array {
    const n = Math.max(1, f.leafPages);
    const map = new Int32Array(n);
    const cached = new Set(cachedLeaves);
    const placed = new Set<number>();
    for (let k = 0; k < n; k++) if (cached.has(layoutLeaf(k))) placed.add(layoutLeaf(k));
    const foreign = cachedLeaves.filter((p) => !placed.has(p));
    let next = 0;
    for (let k = 0; k < n; k++) {
      const p = layoutLeaf(k);
      map[k] = !placed.has(p) && next < foreign.length ? foreign[next++] : p;
    }
    return map;
  }

  private leafFill(f: InnodbIndexFacts): number {
    return leafFill(f, this.settings.pageSize);
  }

  /**
   * Node pointers per non-leaf page: the key (with the primary key for a secondary index) plus a child
   * pointer, at the fill the leaves have, which decides the height.
   */
  private fanout(f: InnodbIndexFacts): number {
    const usable = usableBytes(this.settings.pageSize);
    return Math.max(2, Math.floor((usable * this.leafFill(f)) / (Math.max(1, f.keyBytes) + NODE_POINTER_OVERHEAD)));
  }

  private indexOf(table: string, key: string | undefined): number {
    return this.facts.findIndex((f) => f.table === table && (key === undefined || key === 'PRIMARY' ? f.clustered : f.index === key));
  }

  private replay(pool: InnodbPool, run: InnodbRunInput, assumptions: Set<string>, unmodelled: Set<string>): void {
    this.replayReads(pool, run.plan, assumptions, unmodelled);
    if (run.otherWrite) {
      unmodelled.add(`${run.otherWrite.statement} on ${run.otherWrite.table}: the changes it makes (undo records, secondary-index entries, their rollback) are left out; the reads of its scan are modelled`);
    }
    if (run.insert && run.insert.rows > 0) {
      const undoBase = this.facts.length * SPACE + NEW_PAGES;
      const modelled = replayInsert(pool, this.facts, (i) => this.layout(i), undoBase, run.insert, this.settings.pageSize, assumptions);
      if (!modelled) unmodelled.add(`the INSERT into ${run.insert.table}: no index statistics for it (mysql.innodb_index_stats), so its writes are left out`);
      else assumptions.add(this.writeSettings());
    }
  }

  private writeSettings(): string {
    const s = this.settings;
    const cleaner = s.lruScanDepth
      ? `; the page cleaner evicts from the LRU tail once fewer than ${Math.floor(s.lruScanDepth / 2).toLocaleString('en-US')} pages are free, until ${s.lruScanDepth.toLocaleString('en-US')} are (innodb_lru_scan_depth) or the LRU is down to 5 % of the pool`
      : '';
    return `innodb_change_buffering=${s.changeBuffering}, change buffer up to ${s.changeBufferMaxPct} % of the pool${cleaner}`;
  }

  private replayReads(pool: InnodbPool, plan: unknown, assumptions: Set<string>, unmodelled: Set<string>): void {
    for (const a of accesses(plan)) {
      const full = a.accessType === 'ALL' || a.accessType === 'index';
      if (!full && LOOKUP_ACCESS.has(a.accessType)) {
        const i = this.indexOf(a.table, a.key);
        if (i < 0) {
          unmodelled.add(`${a.accessType} access to ${a.table}${a.key ? ` via ${a.key}` : ''}: no index statistics (mysql.innodb_index_stats), so its page requests are left out`);
          continue;
        }
        const c = this.indexOf(a.table, undefined);
        replayLookup(pool, { table: a.table, accessType: a.accessType, rowsPerLoop: a.rows, loops: a.loops, usingIndex: a.usingIndex }, { f: this.facts[i], l: this.layout(i) }, c >= 0 ? { f: this.facts[c], l: this.layout(c) } : undefined, assumptions);
        continue;
      }
      if (!full) {
        unmodelled.add(`${a.accessType} access to ${a.table}${a.key ? ` via ${a.key}` : ''}: its page requests are left out`);
        continue;
      }
      const i = this.indexOf(a.table, a.accessType === 'ALL' ? undefined : a.key);
      if (i < 0) {
        unmodelled.add(`${a.table}: no InnoDB index statistics (mysql.innodb_index_stats; not an InnoDB table, or never analysed), so its scan is left out`);
        continue;
      }
      const f = this.facts[i];
      const l = this.layout(i);
      assumptions.add(
        `${f.reportName}: full scan of ${f.leafPages.toLocaleString('en-US')} leaf pages in key order (statistics), the first ${FRAGMENT_PAGES} as fragment pages of extent 0, the rest in whole extents; tablespace ${f.spacePages.toLocaleString('en-US')} pages`,
      );
      for (let loop = 0; loop < Math.max(1, a.loops); loop++) {
        pool.access(l.root);
        for (const p of l.internal) pool.access(p);
        for (let k = 0; k < f.leafPages; k++) pool.access(l.leaves(k));
      }
    }
  }

  /** Pages created by committed inserts count in their index's residency; rolled-back ones were freed. */
  private createdPagesLive = false;

  predictRun(run: InnodbRunInput): InnodbRunPrediction {
    const before = this.pool.counters();
    const assumptions = new Set<string>();
    const unmodelled = new Set<string>();
    this.replay(this.pool, run, assumptions, unmodelled);
    // Freed pages stay in the pool until evicted but belong to no index any more.
    if (run.insert && run.insert.rows > 0) this.createdPagesLive = !run.insert.rolledBack;
    const after = this.pool.counters();
    const d = (k: string) => after[k] - before[k];
    return {
      predicted: { logicalReads: d('Innodb_buffer_pool_read_requests'), physicalReads: d('sync_reads'), readAhead: d('Innodb_buffer_pool_read_ahead') + d('Innodb_buffer_pool_read_ahead_rnd') },
      predictedAfter: this.cachedPerIndex(this.pool),
      assumptions: [...assumptions],
      unmodelled: [...unmodelled],
    };
  }

  /** Pages of each index cached; read-ahead also brings in free pages of the file, which belong to no index. */
  private cachedPerIndex(pool: InnodbPool): Map<string, number> {
    const counts = new Array<number>(this.facts.length).fill(0);
    // Read-ahead also brings in free pages of the file, which belong to no index: only the index's own
    // pages count (its modelled layout and the pages it had cached), and the pages its inserts created
    // while they live.
    const own = this.facts.map((f, i) => this.ownPages(i, f));
    for (const p of pool.cachedPages()) {
      const i = Math.floor(p / SPACE);
      if (own[i]?.(p)) counts[i]++;
    }
    return new Map(this.facts.map((f, i) => [f.reportName, counts[i]]));
  }

  private readonly cachedSets = new Map<number, Set<number>>();

  /** Secondary indexes are placed after the clustered one (and the table's earlier ones), in whole extents. */
  private secondaryOffset(i: number): number {
    const f = this.facts[i];
    return f.clustered ? 0 : this.facts.filter((g, j) => j < i && g.table === f.table).reduce((a, g) => a + Math.ceil(g.sizePages / 64) * 64, 0);
  }

  private ownPages(i: number, f: InnodbIndexFacts): (p: number) => boolean {
    const l = this.layout(i);
    let cached = this.cachedSets.get(i);
    if (!cached) {
      cached = new Set(this.cachedPages(i));
      this.cachedSets.set(i, cached);
    }
    const set = cached;
    const base = i * SPACE;
    const fragmentEnd = base + 4 + l.internal.length + Math.min(FRAGMENT_PAGES, f.leafPages) - 1;
    const extentStart = base + 64 + this.secondaryOffset(i);
    const last = extentStart + Math.max(0, f.leafPages - FRAGMENT_PAGES) - 1;
    // A clustered index's appended pages are freed by a rollback; a secondary index's split pages stay.
    const created = !f.clustered || this.createdPagesLive ? l.newPages : -1;
    return (p) => set.has(p) || (p >= base + 3 && p <= fragmentEnd) || (p >= extentStart && p <= last) || (created >= 0 && p >= created);
  }



  whatIf(runs: InnodbRunInput[], poolValues?: number[]): WhatIf {
    const s = this.settings;
    const replayAll = (pages: number, overrides: Partial<InnodbPoolOptions>) => {
      const pool = this.startingPool(pages, overrides);
      const start = pool.counters();
      runs.forEach((r) => this.replay(pool, r, new Set(), new Set()));
      const c = pool.counters();
      const logical = c.Innodb_buffer_pool_read_requests - start.Innodb_buffer_pool_read_requests;
      const physical = c.sync_reads - start.sync_reads;
      return { logicalReads: logical, physicalReads: physical, missRatio: logical ? physical / logical : 0 };
    };
    // The smallest pool the server starts with: MariaDB refuses under 6 MiB with 16 KiB pages, MySQL 5 MiB.
    const minimum = Math.ceil(((s.product === 'mariadb' ? 6 : 5) * 1048576) / s.pageSize);
    const sizes = poolValues ?? [...new Set([0.25, 0.5, 1, 2, 4].map((f) => Math.max(minimum, Math.round(s.poolPages * f))))];
    if (!sizes.includes(s.poolPages)) sizes.push(s.poolPages);
    sizes.sort((a, b) => a - b);
    const writes = runs.some((r) => r.insert && r.insert.rows > 0);
    const changeBuffering: WhatIfSeries[] = writes
      ? [{ setting: 'innodb_change_buffering', unit: '', points: (['none', 'all'] as const).map((v, k) => ({ value: k, label: v, current: v === s.changeBuffering || (v === 'all' && s.changeBuffering !== 'none'), ...replayAll(s.poolPages, { changeBuffering: v }) })) }]
      : [];
    return {
      runs: runs.length,
      series: [
        { setting: 'innodb_buffer_pool_size', unit: 'pages', points: sizes.map((n) => ({ value: n, label: `${((n * s.pageSize) / 1048576).toLocaleString('en-US')} MiB`, current: n === s.poolPages, ...replayAll(n, {}) })) },
        { setting: 'innodb_read_ahead_threshold', unit: 'pages', points: [0, 32, 56, 64].map((v) => ({ value: v, label: String(v), current: v === s.readAheadThreshold, ...replayAll(s.poolPages, { readAheadThreshold: v }) })) },
        { setting: 'innodb_old_blocks_time', unit: 'ms', points: [0, 1000].map((v) => ({ value: v, label: `${v} ms`, current: v === s.oldBlocksTime, ...replayAll(s.poolPages, { oldBlocksTime: v }) })) },
        ...changeBuffering,
      ],
    };
  }
}
