// What one execution of a statement requests, as a function of its parameters: the access shapes an
// engine's plan reduces to (a key lookup, a key range, a scan, an append, fixed pages), and the page ids
// each emits for one set of variable values. Engine-neutral: postgres-model.ts and innodb-model.ts build
// the shapes from a plan and the catalogs.
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
    }
  | { kind: 'clustered'; index: IndexPath; correlated: boolean };

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
    })
  | (KeyRange & {
      kind: 'range';
      from: KeyRef;
      to: KeyRef;
      rowsPerKeyUnit: number;
      rows?: RowTarget;
      rewrites?: number;
      limit?: number;
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
  | { kind: 'append'; table: TableLayout; rowsPerPage: number; indexes: Array<KeyRange & { key: KeyRef | 'ascending' }> }
  | { kind: 'pages'; pages: number[] };

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
  private readonly appended = new Map<AccessShape, number>();

  emit(shape: AccessShape, vars: Map<string, Value>, out: number[]): void {
    switch (shape.kind) {
      case 'pages':
        for (const p of shape.pages) out.push(p);
        return;
      case 'scan': {
        const n =
          shape.limit === undefined
            ? shape.table.pages
            : Math.min(shape.table.pages, Math.ceil(shape.limit / Math.max(1, shape.table.rows / Math.max(1, shape.table.pages))));
        for (let k = 0; k < n; k++) out.push(shape.table.page(k));
        if (shape.rewrites && n > 0) {
          for (let r = 0; r < shape.rewrites; r++) out.push(shape.table.page(n - 1));
          if (shape.companion) out.push(shape.companion(n - 1));
        }
        return;
      }
      case 'lookup': {
        const key = keyValue(shape.key, vars);
        const f = keyFraction(key, shape.keyMin, shape.keyMax);
        if (Number.isNaN(f)) {
          // A key outside the column's range: the descent to the first or last leaf finds nothing.
          shape.index.path(key < shape.keyMin ? 0 : 0.999999, out);
          return;
        }
        shape.index.path(f, out);
        const rows = Math.min(shape.rowsPerKey, shape.limit ?? Infinity);
        // Entries of one key past the first leaf's end continue on the next leaves.
        const leaf = shape.index.leafNumber(f);
        const extraLeaves = Math.floor(Math.max(0, rows - 1) / shape.index.perLeaf);
        for (let k = 1; k <= extraLeaves; k++) out.push(shape.index.leaf(leaf + k));
        if (!shape.rows && shape.rewrites) for (let r = 0; r < shape.rewrites; r++) out.push(out[out.length - 1]);
        this.rows(shape.rows, key, f, rows, shape.rewrites ?? 0, out);
        return;
      }
      case 'range': {
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
        shape.index.path(f0, out);
        const first = shape.index.leafNumber(f0);
        const last = shape.index.leafNumber(f1);
        for (let k = first + 1; k <= last; k++) out.push(shape.index.leaf(k));
        if (!shape.rows && shape.rewrites) for (let r = 0; r < shape.rewrites; r++) out.push(out[out.length - 1]);
        this.rangeRows(shape.rows, lo, f0, f1, rows, shape.rewrites ?? 0, out);
        return;
      }
      case 'append': {
        const n = this.appended.get(shape) ?? 0;
        this.appended.set(shape, n + 1);
        out.push(shape.table.page(shape.table.pages - 1 + Math.floor(n / shape.rowsPerPage)));
        for (const ix of shape.indexes) {
          if (ix.key === 'ascending') ix.index.path(0.999999, out);
          else {
            const f = keyFraction(keyValue(ix.key, vars), ix.keyMin, ix.keyMax);
            ix.index.path(Number.isNaN(f) ? 0.999999 : f, out);
          }
        }
        return;
      }
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
