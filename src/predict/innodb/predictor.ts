// Predicts each measured InnoDB run with the InnoDB pool model, from the plan as executed (MariaDB's
// ANALYZE FORMAT=JSON, or EXPLAIN FORMAT=JSON), index statistics and the tablespace sizes. The pool
// starts as INNODB_BUFFER_PAGE_LRU showed it; run k+1 starts from the simulated state after run k.
import type { Reads, WhatIf } from '../../shared/report';
import { InnodbPool, type InnodbPoolOptions } from '../../sim/policies/innodb-lru';

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
}

const SPACE = 0x1000000;
/** Fragment pages a segment takes from extent 0 before it gets whole extents. */
const FRAGMENT_PAGES = 32;
/** Node pointers per non-leaf page (a short key): how many levels the tree has. */
const FANOUT = 1200;

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
}

function accesses(plan: unknown): TableAccess[] {
  const out: TableAccess[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (typeof o.table_name === 'string' && typeof o.access_type === 'string') {
      out.push({
        table: o.table_name,
        accessType: o.access_type,
        key: typeof o.key === 'string' ? o.key : undefined,
        rows: Number(o.r_rows ?? o.rows_examined_per_scan ?? o.rows ?? 0),
        loops: Number(o.r_loops ?? 1),
      });
    }
    Object.values(o).forEach(walk);
  };
  walk(plan);
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
    return {
      product: s.product,
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

  /**
   * Where an index's pages are, as InnoDB allocates a file-per-table B-tree: the root at page 3, the first
   * 32 leaf pages (and the non-leaf pages) as fragment pages of extent 0, the other leaves in whole extents
   * from page 64 in key order. Secondary indexes are placed after the clustered one.
   */
  private layout(i: number): { root: number; internal: number[]; leaves: (k: number) => number } {
    const f = this.facts[i];
    const base = i * SPACE;
    const nonLeaf = Math.max(1, f.sizePages - f.leafPages);
    const height = f.leafPages <= 1 ? 1 : 1 + Math.ceil(Math.log(f.leafPages) / Math.log(FANOUT));
    const internal = Array.from({ length: Math.max(0, Math.min(height - 2, nonLeaf - 1)) }, (_, k) => base + 4 + k);
    const fragmentStart = 4 + internal.length;
    const offset = f.clustered ? 0 : this.facts.filter((g, j) => j < i && g.table === f.table).reduce((a, g) => a + Math.ceil(g.sizePages / 64) * 64, 0);
    return {
      root: base + 3,
      internal,
      leaves: (k) => base + (k < FRAGMENT_PAGES ? fragmentStart + k : 64 + offset + (k - FRAGMENT_PAGES)),
    };
  }

  private indexOf(table: string, key: string | undefined): number {
    return this.facts.findIndex((f) => f.table === table && (key === undefined || key === 'PRIMARY' ? f.clustered : f.index === key));
  }

  private replay(pool: InnodbPool, plan: unknown, assumptions: Set<string>, unmodelled: Set<string>): void {
    for (const a of accesses(plan)) {
      const full = a.accessType === 'ALL' || a.accessType === 'index';
      if (!full) {
        unmodelled.add(`${a.accessType} access to ${a.table}${a.key ? ` via ${a.key}` : ''}: its page requests are left out`);
        continue;
      }
      const i = this.indexOf(a.table, a.accessType === 'ALL' ? undefined : a.key);
      if (i < 0) {
        unmodelled.add(`${a.table}: no index statistics (mysql.innodb_index_stats), so its scan is left out`);
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

  predictRun(plan: unknown): InnodbRunPrediction {
    const before = this.pool.counters();
    const assumptions = new Set<string>();
    const unmodelled = new Set<string>();
    this.replay(this.pool, plan, assumptions, unmodelled);
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
    const used = this.facts.map((f, i) => {
      const l = this.layout(i);
      return { first: l.root, fragmentEnd: l.leaves(Math.min(FRAGMENT_PAGES, f.leafPages) - 1), extentStart: l.leaves(FRAGMENT_PAGES), last: l.leaves(f.leafPages - 1) };
    });
    for (const p of pool.cachedPages()) {
      const i = Math.floor(p / SPACE);
      const u = used[i];
      if (u && ((p >= u.first && p <= u.fragmentEnd) || (p >= u.extentStart && p <= u.last))) counts[i]++;
    }
    return new Map(this.facts.map((f, i) => [f.reportName, counts[i]]));
  }

  whatIf(plans: unknown[], poolValues?: number[]): WhatIf {
    const s = this.settings;
    const replayAll = (pages: number, overrides: Partial<InnodbPoolOptions>) => {
      const pool = this.startingPool(pages, overrides);
      const start = pool.counters();
      for (const p of plans) this.replay(pool, p, new Set(), new Set());
      const c = pool.counters();
      const logical = c.Innodb_buffer_pool_read_requests - start.Innodb_buffer_pool_read_requests;
      const physical = c.sync_reads - start.sync_reads;
      return { logicalReads: logical, physicalReads: physical, missRatio: logical ? physical / logical : 0 };
    };
    const sizes = poolValues ?? [0.25, 0.5, 1, 2, 4].map((f) => Math.max(64, Math.round(s.poolPages * f)));
    if (!sizes.includes(s.poolPages)) sizes.push(s.poolPages);
    sizes.sort((a, b) => a - b);
    return {
      runs: plans.length,
      series: [
        { setting: 'innodb_buffer_pool_size', unit: 'pages', points: sizes.map((n) => ({ value: n, label: `${((n * s.pageSize) / 1048576).toLocaleString('en-US')} MiB`, current: n === s.poolPages, ...replayAll(n, {}) })) },
        { setting: 'innodb_read_ahead_threshold', unit: 'pages', points: [0, 32, 56, 64].map((v) => ({ value: v, label: String(v), current: v === s.readAheadThreshold, ...replayAll(s.poolPages, { readAheadThreshold: v }) })) },
        { setting: 'innodb_old_blocks_time', unit: 'ms', points: [0, 1000].map((v) => ({ value: v, label: `${v} ms`, current: v === s.oldBlocksTime, ...replayAll(s.poolPages, { oldBlocksTime: v }) })) },
      ],
    };
  }
}
