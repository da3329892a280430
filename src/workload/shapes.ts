// What one execution of a statement requests, as a function of its parameters: the access shapes an
// engine's plan reduces to (a key lookup, a key range, a scan, an append, fixed pages), and the page ids
// each emits for one set of variable values. Engine-neutral: postgres-model.ts and innodb-model.ts build
// the shapes from a plan and the catalogs. The emitter keeps what writes change as the trace goes on: how
// far each append has filled, which full leaves have split, which full heap pages have had a version moved.
import type { Value } from './expression';
import { DIVE_PAGES_BETWEEN } from '../predict/innodb/lookup-trace';
import { keyFraction, scatter, type IndexPath, type TableLayout } from './layout';

/** A key: a variable's value (plus `offset`, as in `:r + 99`) or a constant. */
export type KeyRef = { variable: string; offset?: number } | { constant: number };

/** Where the rows an index entry points at are: heap pages, or a clustered index reached by its key. */
export type RowTarget =
  | {
      kind: 'heap';
      table: TableLayout;
      correlated: boolean;
      /** Share of heap visits an index-only scan skips (all-visible pages). */
      skip?: number;
      /** A page a rewrite of heap block k also requests (PostgreSQL's visibility-map page). */
      companion?: (block: number) => number;
      /** The first rewrite of each block finds no room for the new version there (a full page): it moves. */
      moves?: RowMoves;
    }
  | { kind: 'clustered'; index: IndexPath; correlated: boolean };

/**
 * Where a row version that does not fit its page goes (PostgreSQL's non-HOT UPDATE, RelationGetBufferForTuple):
 * onto the page the session last filled, new pages past the table's end one after another; when that page is
 * full, the free-space map is searched first (a freshly loaded table's has no room to offer). The new version
 * needs an entry in every index: the searched one at the row's key, the others where its key does not predict.
 */
export interface RowMoves {
  /** Page id of the m-th page the moved versions fill. */
  target(m: number): number;
  /** The page the m-th destination page also requests (PostgreSQL pins its visibility-map page). */
  targetCompanion?: (m: number) => number;
  perPage: number;
  /** The free-space map's pages a search for room requests (its root down to a leaf). */
  fsm: number[];
  /** A unique index's insertion also reads the row's old version, the entry with its key (_bt_check_unique). */
  indexes: Array<{ path: IndexPath; unique: boolean }>;
}

/**
 * Secondary indexes whose entries a written row changes, each descended `descents` times per row (InnoDB:
 * an UPDATE of an indexed column delete-marks the old entry and inserts the new one; a DELETE delete-marks
 * it). The entry's key is the row's value of the indexed column, which the statement does not name: a
 * stable pseudo-random place per row, as for rows a secondary key does not predict.
 */
export type SecondaryEntries = Array<{ index: IndexPath; descents: number; /** Purge removing the entry. */ removes?: boolean }>;

export interface KeyRange {
  index: IndexPath;
  keyMin: number;
  keyMax: number;
}

export type AccessShape =
  | (KeyRange & {
      kind: 'lookup';
      key: KeyRef;
      rowsPerKey: number;
      rows?: RowTarget;
      /** Each row's page requested again (an UPDATE rewriting it). */ rewrites?: number;
      limit?: number;
      entries?: SecondaryEntries;
    })
  | (KeyRange & {
      kind: 'range';
      from: KeyRef;
      to: KeyRef;
      rowsPerKeyUnit: number;
      rows?: RowTarget;
      rewrites?: number;
      limit?: number;
      entries?: SecondaryEntries;
      /**
       * InnoDB estimates a range over constants by an index dive while the statement is optimised, at
       * every execution (records_in_range): 'shared' where one descent serves both bounds (MariaDB).
       */
      dive?: 'shared' | 'separate';
    })
  | {
      kind: 'scan';
      table: TableLayout;
      limit?: number;
      /** The row's page requested again (a small table's UPDATE), then `companion` of it. */ rewrites?: number;
      companion?: (block: number) => number;
    }
  | AppendShape
  /** The page an append last wrote to (purge reading back a transaction's undo log). */
  | { kind: 'appended'; of: AppendShape }
  | { kind: 'pages'; pages: number[] }
  /** A writing transaction's start: it takes the next rollback segment, whose pages it requests. */
  | { kind: 'transaction'; segments: RollbackSegments };

/**
 * InnoDB's rollback segments, which writing transactions take in turn (trx_assign_rseg_low: round robin over
 * 128): each has its header page and the page of the undo log it keeps cached for the next transaction, so
 * consecutive transactions request different pages, each again only `count` transactions later.
 */
export interface RollbackSegments {
  count: number;
  /** The pages a transaction's first change and its commit request in segment r, in order. */
  pages: (r: number) => number[];
  /** The page segment r's undo log records go to. */
  undoPage: (r: number) => number;
}

export interface AppendShape {
  kind: 'append';
  table: TableLayout;
  rowsPerPage: number;
  indexes: Array<KeyRange & { key: KeyRef | 'ascending' }>;
  /** Records go to the undo page of the rollback segment the transaction took, not to the table's pages. */
  segments?: RollbackSegments;
}

export class ShapeError extends Error {}

/**
 * The pages an index dive requests, as the per-statement model replays it (predict/innodb/lookup-trace.ts):
 * the first bound's path, the second bound's (with a shared descent, only where it parts from the first),
 * and the leaves between up to the estimator's limit. Internal pages between the
 * bounds are left out: a workload's ranges part below the root's children.
 */
function emitDive(index: IndexPath, f0: number, f1: number, dive: 'shared' | 'separate', out: number[]): void {
  const start = out.length;
  index.path(f0, out);
  const first = index.leafNumber(f0);
  const last = index.leafNumber(f1);
  if (last <= first) return;
  const firstPath = out.slice(start);
  const secondPath: number[] = [];
  index.path(f1, secondPath);
  // The second path ends at the last leaf, which always parts from the first's.
  secondPath.forEach((p, j) => (dive === 'separate' || p !== firstPath[j]) && out.push(p));
  for (let j = 1; j <= Math.min(last - first - 1, DIVE_PAGES_BETWEEN); j++) out.push(index.leaf(first + j));
}

function keyValue(k: KeyRef, vars: Map<string, Value>): number {
  if ('constant' in k) return k.constant;
  const v = vars.get(k.variable);
  if (!v) throw new ShapeError(`variable :${k.variable} is not set`);
  return v.v + (k.offset ?? 0);
}

/** Emits one execution's page requests. Appends keep their position between calls (the table grows). */
export class ShapeEmitter {
  private readonly appended = new Map<AppendShape, number>();
  /** Per heap: which blocks a rewrite has already made room on (pruned), and versions moved per destination. */
  private readonly rewritten = new Map<TableLayout, Uint8Array>();
  private readonly moved = new Map<RowMoves['target'], number>();
  /** Per index with full leaves: which leaves have split. */
  private readonly split = new Map<IndexPath, Uint8Array>();
  /** The rollback segment the current writing transaction took (-1 before the first). */
  private readonly segment = new Map<RollbackSegments, number>();

  emit(shape: AccessShape, vars: Map<string, Value>, out: number[]): void {
    switch (shape.kind) {
      case 'pages':
        for (const p of shape.pages) out.push(p);
        return;
      case 'scan':
        return this.scan(shape, out);
      case 'lookup':
        return this.lookup(shape, vars, out);
      case 'range':
        return this.range(shape, vars, out);
      case 'append':
        return this.append(shape, vars, out);
      case 'appended': {
        if (shape.of.segments) {
          out.push(shape.of.segments.undoPage(this.segmentOf(shape.of.segments)));
          return;
        }
        const n = this.appended.get(shape.of) ?? 1;
        out.push(shape.of.table.page(shape.of.table.pages - 1 + Math.floor((n - 1) / shape.of.rowsPerPage)));
        return;
      }
      case 'transaction': {
        const r = (this.segmentOf(shape.segments) + 1) % shape.segments.count;
        this.segment.set(shape.segments, r);
        for (const p of shape.segments.pages(r)) out.push(p);
        return;
      }
    }
  }

  private scan(shape: Extract<AccessShape, { kind: 'scan' }>, out: number[]): void {
    const n =
      shape.limit === undefined
        ? shape.table.pages
        : Math.min(shape.table.pages, Math.ceil(shape.limit / Math.max(1, shape.table.rows / Math.max(1, shape.table.pages))));
    for (let k = 0; k < n; k++) out.push(shape.table.page(k));
    if (shape.rewrites && n > 0) {
      for (let r = 0; r < shape.rewrites; r++) out.push(shape.table.page(n - 1));
      if (shape.companion) out.push(shape.companion(n - 1));
    }
  }

  private lookup(shape: Extract<AccessShape, { kind: 'lookup' }>, vars: Map<string, Value>, out: number[]): void {
    const key = keyValue(shape.key, vars);
    const f = keyFraction(key, shape.keyMin, shape.keyMax);
    if (Number.isNaN(f)) {
      // A key outside the column's range: the descent to the first or last leaf finds nothing.
      shape.index.path(key < shape.keyMin ? 0 : 0.999999, out);
      return;
    }
    this.path(shape.index, f, false, out);
    const rows = Math.min(shape.rowsPerKey, shape.limit ?? Infinity);
    // Entries of one key past the first leaf's end continue on the next leaves.
    const leaf = shape.index.leafNumber(f);
    const extraLeaves = Math.floor(Math.max(0, rows - 1) / shape.index.perLeaf);
    for (let k = 1; k <= extraLeaves; k++) out.push(shape.index.leaf(leaf + k));
    if (!shape.rows && shape.rewrites) for (let r = 0; r < shape.rewrites; r++) out.push(out[out.length - 1]);
    this.rows(shape.rows, key, f, rows, shape.rewrites ?? 0, out);
    if (shape.entries) for (let j = 0; j < rows; j++) this.entries(shape.entries, key, j, out);
  }

  private range(shape: Extract<AccessShape, { kind: 'range' }>, vars: Map<string, Value>, out: number[]): void {
    let lo = keyValue(shape.from, vars);
    let hi = keyValue(shape.to, vars);
    if (hi < lo) return this.emptyRange(shape, lo, out);
    lo = Math.max(lo, shape.keyMin);
    hi = Math.min(hi, shape.keyMax);
    if (hi < lo) return this.emptyRange(shape, lo, out);
    let rows = Math.max(1, Math.round((hi - lo + 1) * shape.rowsPerKeyUnit));
    if (shape.limit !== undefined) {
      rows = Math.min(rows, shape.limit);
      hi = Math.min(hi, lo + Math.ceil(rows / shape.rowsPerKeyUnit) - 1);
    }
    const f0 = keyFraction(lo, shape.keyMin, shape.keyMax);
    const f1 = keyFraction(hi, shape.keyMin, shape.keyMax);
    if (shape.dive) emitDive(shape.index, f0, f1, shape.dive, out);
    this.path(shape.index, f0, false, out);
    const first = shape.index.leafNumber(f0);
    const last = shape.index.leafNumber(f1);
    const split = this.split.get(shape.index);
    for (let k = first + 1; k <= last; k++) {
      out.push(shape.index.leaf(k));
      if (split?.[k]) out.push(shape.index.splits!.newPage(k));
    }
    if (!shape.rows && shape.rewrites) for (let r = 0; r < shape.rewrites; r++) out.push(out[out.length - 1]);
    this.rangeRows(shape.rows, lo, f0, f1, rows, shape.rewrites ?? 0, out);
    if (shape.entries) for (let j = 0; j < rows; j++) this.entries(shape.entries, lo + j, 0, out);
  }

  private segmentOf(segments: RollbackSegments): number {
    return this.segment.get(segments) ?? -1;
  }

  private append(shape: AppendShape, vars: Map<string, Value>, out: number[]): void {
    const n = this.appended.get(shape) ?? 0;
    this.appended.set(shape, n + 1);
    if (shape.segments) out.push(shape.segments.undoPage(Math.max(0, this.segmentOf(shape.segments))));
    else out.push(shape.table.page(shape.table.pages - 1 + Math.floor(n / shape.rowsPerPage)));
    for (const ix of shape.indexes) {
      if (ix.key === 'ascending') ix.index.path(0.999999, out);
      else {
        const f = keyFraction(keyValue(ix.key, vars), ix.keyMin, ix.keyMax);
        this.path(ix.index, Number.isNaN(f) ? 0.999999 : f, true, out);
      }
    }
  }

  /** The first rewrite of a full heap block: the new version's page (the free-space map first when one fills) and its index entries. */
  private move(table: TableLayout, moves: RowMoves, block: number, key: number, f: number, out: number[]): void {
    let rewritten = this.rewritten.get(table);
    if (!rewritten) this.rewritten.set(table, (rewritten = new Uint8Array(table.pages)));
    if (rewritten[block]) return;
    rewritten[block] = 1;
    // Counted per destination: every statement that moves a table's versions fills the same pages.
    const m = this.moved.get(moves.target) ?? 0;
    this.moved.set(moves.target, m + 1);
    if (m % moves.perPage === 0) for (const p of moves.fsm) out.push(p);
    const destination = Math.floor(m / moves.perPage);
    out.push(moves.target(destination));
    if (moves.targetCompanion) out.push(moves.targetCompanion(destination));
    moves.indexes.forEach((index, i) => {
      index.path.path(i === 0 ? f : scatter(key, 31 + i), out);
      if (index.unique) out.push(table.page(block));
    });
  }

  /** The secondary entries of the row at `key` (its j-th of that key): their leaves do not follow the key. */
  private entries(entries: SecondaryEntries, key: number, j: number, out: number[]): void {
    entries.forEach((e, i) => {
      const where = scatter(key, j + 1009 * (i + 1));
      // The last descent of an UPDATE's two inserts the new entry.
      for (let d = 0; d < e.descents; d++) this.path(e.index, where, d === 1, out, e.removes);
    });
  }

  /**
   * The descent to the key at fraction f, on the half of a split leaf that holds it; an insert into a leaf
   * with no room splits it first (once: its halves have room for the rest of the workload's inserts); a
   * removal from a half leaf tries a merge.
   */
  private path(index: IndexPath, f: number, inserts: boolean, out: number[], removes = false): void {
    index.path(f, out);
    if (!index.splits) return;
    let split = this.split.get(index);
    if (!split) this.split.set(index, (split = new Uint8Array(index.leafPages)));
    const k = index.leafNumber(f);
    if (split[k]) {
      if (f * index.leafPages - k >= 0.5) out[out.length - 1] = index.splits.newPage(k);
      if (removes) index.splits.merge(k, out);
    } else if (inserts) {
      split[k] = 1;
      index.splits.requests(k, out);
    }
  }

  private emptyRange(shape: KeyRange, lo: number, out: number[]): void {
    const f = keyFraction(lo, shape.keyMin, shape.keyMax);
    shape.index.path(Number.isNaN(f) ? (lo < shape.keyMin ? 0 : 0.999999) : f, out);
  }

  private rows(target: RowTarget | undefined, key: number, f: number, rows: number, rewrites: number, out: number[]): void {
    if (!target) return;
    for (let j = 0; j < rows; j++) {
      const where = target.correlated ? f : scatter(key, j);
      if (target.kind === 'heap') {
        if (target.skip && scatter(key, j + 7919) < target.skip) continue;
        const block = Math.min(target.table.pages - 1, Math.floor(where * target.table.pages));
        const page = target.table.page(block);
        for (let r = 0; r <= rewrites; r++) out.push(page);
        if (rewrites && target.companion) out.push(target.companion(block));
        if (rewrites && target.moves) this.move(target.table, target.moves, block, key, f, out);
      } else {
        target.index.path(where, out);
        for (let r = 0; r < rewrites; r++) out.push(out[out.length - 1]);
      }
    }
  }

  private rangeRows(target: RowTarget | undefined, lo: number, f0: number, f1: number, rows: number, rewrites: number, out: number[]): void {
    if (!target) return;
    if (target.correlated) {
      if (target.kind === 'heap') {
        const pages = target.table.pages;
        const a = Math.min(pages - 1, Math.floor(f0 * pages));
        const b = Math.min(pages - 1, Math.floor(f1 * pages));
        for (let k = a; k <= b; k++) {
          if (target.skip && scatter(k, 104729) < target.skip) continue;
          for (let r = 0; r <= rewrites; r++) out.push(target.table.page(k));
          if (rewrites && target.companion) out.push(target.companion(k));
        }
      } else {
        target.index.path(f0, out);
        const a = target.index.leafNumber(f0);
        const b = target.index.leafNumber(f1);
        for (let k = a + 1; k <= b; k++) out.push(target.index.leaf(k));
      }
      return;
    }
    for (let j = 0; j < rows; j++) this.rows(target, lo + j, 0, 1, rewrites, out);
  }
}
