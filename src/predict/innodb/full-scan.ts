// A full scan of an index's leaves (ALL: the clustered index; index: a secondary one), whole or stopped by a
// LIMIT, and, where a secondary index does not cover the query (ORDER BY … LIMIT through it), each row's
// lookup in the clustered index: placed by its key where the keys were read after the runs and the
// clustered index's layout places them, else drawn. Pure.
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import { FRAGMENT_PAGES } from './index-layout';
import type { InnodbIndexFacts } from './facts';
import type { TableAccess } from './plan';
import { SeededRandom } from '../../sim/random';
import { seedOf } from './index-pages';
import { descend } from './row-costs';
import { placeKeys } from './range-placement';
import { LongValueLookups, longValuesAssumption, offPagePerRow, prefetchReader, readsLongValues, scanLongValues } from './long-values';
import { prefetchFill, prefetchedRows, type InnodbReadContext, type ReadRun } from './read-context';

const n = (x: number) => x.toLocaleString('en-US');
const descending = (sql: string | undefined) => sql !== undefined && /\border\s+by\b[^;]*\bdesc\b/i.test(sql);

export function replayFullScan(
  ctx: InnodbReadContext,
  pool: InnodbPool,
  a: TableAccess,
  assumptions: Set<string>,
  unmodelled: Set<string>,
  run: ReadRun,
): void {
  const i = ctx.indexOf(a.table, a.accessType === 'ALL' ? undefined : a.key);
  if (i < 0) {
    unmodelled.add(`${a.table}: no InnoDB index statistics (mysql.innodb_index_stats; not an InnoDB table, or never analysed), so its scan is left out`);
    return;
  }
  const f = ctx.facts[i];
  const l = ctx.layouts.of(i);
  assumptions.add(
    l.scattered
      ? `${f.reportName}: full scan of ${n(f.leafPages)} leaf pages in key order (statistics); grown by inserts in random key order (its leaves ` +
          `${Math.round(ctx.layouts.leafFill(f) * 100)} % full), its leaves in key order lie anywhere in the file, so no area is read in order and ` +
          `linear read-ahead never fires`
      : `${f.reportName}: full scan of ${n(f.leafPages)} leaf pages in key order (statistics), the first ${FRAGMENT_PAGES} as fragment pages of extent 0, ` +
          `the rest in whole extents; tablespace ${n(f.spacePages)} pages`,
  );
  const leaves = mayStopEarly(ctx.statement, run.limited) ? scannedLeaves(f, a, assumptions) : f.leafPages;
  // A scan stopped early by an ORDER BY … DESC reads the index from its end.
  const leafAt = leaves < f.leafPages && descending(ctx.statement) ? (k: number) => f.leafPages - 1 - k : (k: number) => k;
  const c = ctx.indexOf(a.table, undefined);
  // A secondary index read in key order for rows it does not cover (ORDER BY … LIMIT through the index):
  // each row is then looked up in the clustered index.
  const lookups = a.accessType === 'index' && !f.clustered && !a.usingIndex && c >= 0 && c !== i;
  const long = c >= 0 && (f.clustered || lookups) ? readsLongValues(ctx.statement, ctx.facts[c], ctx.settings.pageSize) : [];
  if (long.length > 0) assumptions.add(longValuesAssumption(ctx.facts[c], long, f.clustered, ctx.settings.lruSeed, c));
  const access = (p: number) => pool.access(p);
  const rowLookups = lookups ? clusteredLookups(ctx, a, f.index, c, run, assumptions) : undefined;
  for (let loop = 0; loop < Math.max(1, a.loops); loop++) {
    pool.access(l.root);
    for (const p of l.internal) pool.access(p);
    for (let k = 0; k < leaves; k++) {
      pool.access(l.leaves(leafAt(k)));
      if (f.clustered && long.length > 0) scanLongValues(access, l, leafAt(k));
    }
    if (!rowLookups) continue;
    const cl = ctx.layouts.of(c);
    const values = long.length > 0 ? new LongValueLookups(cl, offPagePerRow(ctx.facts[c])) : undefined;
    for (let r = 0; r < rowLookups.rows; r++) {
      const leaf = rowLookups.leafOf(r);
      descend(pool, cl, leaf);
      pool.access(cl.leaves(leaf));
      values?.ofRows(access, leaf);
    }
  }
  const updated = a.positionsFirst && run.updated?.table === a.table && c >= 0 ? run.updated.rows : 0;
  if (updated > 0) {
    const scanned = f.clustered ? (r: number) => leafAt(Math.floor((r * leaves) / updated)) : rowLookups?.leafOf;
    readAgainByPosition(ctx, pool, { c, rows: updated, scanned }, assumptions);
  }
}

/**
 * An UPDATE whose plan collects the rows' positions first ("Using buffer": it changes the key it scans by,
 * or orders its rows) reads each row again by position after the scan: a descent of the clustered index
 * to the row's leaf. Which rows of a clustered scan it changes no fact tells: taken spread over the leaves
 * scanned, in order; rows a covering scan found, on drawn leaves.
 */
function readAgainByPosition(
  ctx: InnodbReadContext,
  pool: InnodbPool,
  o: { c: number; rows: number; scanned: ((r: number) => number) | undefined },
  assumptions: Set<string>,
): void {
  const cf = ctx.facts[o.c];
  const cl = ctx.layouts.of(o.c);
  const random = new SeededRandom(seedOf([cf.table, 'read again by position', o.rows], ctx.draw));
  for (let r = 0; r < o.rows; r++) {
    const leaf = Math.max(0, Math.min(cf.leafPages - 1, o.scanned?.(r) ?? random.int(Math.max(1, cf.leafPages))));
    descend(pool, cl, leaf);
    pool.access(cl.leaves(leaf));
  }
  assumptions.add(
    `${cf.table}: the UPDATE collects the rows' positions first ("Using buffer") and reads each of the ${n(o.rows)} rows again ` +
      `from the root of ${cf.reportName}${o.scanned ? ', the rows spread over the leaves scanned' : ', on drawn leaves'}`,
  );
}

/**
 * The clustered leaf of each row a non-covering index scan fetches: the rows the LIMIT left it fetching
 * (its prefetch included), each placed by its key where the keys were read after the runs (on a key filled
 * in ascending order, the latest rows by an insertion-ordered date lie in the last few leaves), the rest
 * drawn.
 */
function clusteredLookups(ctx: InnodbReadContext, a: TableAccess, index: string, c: number, run: ReadRun, assumptions: Set<string>) {
  const cf = ctx.facts[c];
  const rows = run.limited ? prefetchedRows(a, prefetchReader(ctx.statement, cf, ctx.settings.pageSize)) : a.rows;
  const placed = placeKeys(cf, ctx.settings.pageSize, run.lookupKeys[a.table], run.keyRanges);
  const random = new SeededRandom(seedOf([a.table, index, 'index scan lookups', a.rows], ctx.draw));
  const prefetch = rows > a.rows ? ` (${n(rows - a.rows)} past the LIMIT: InnoDB's prefetch, ${prefetchFill(a)} rows a fill)` : '';
  assumptions.add(
    placed
      ? `${a.table} via ${a.key}: not covering: each of the ${n(rows)} rows read${prefetch} is looked up in ${cf.reportName}, ` +
          `its leaf placed by its key (${n(placed.length)} keys read after the last run, in the scan's order)`
      : `${a.table} via ${a.key}: not covering: each of the ${n(rows)} rows read${prefetch} is looked up in ${cf.reportName}, in random order (a ` +
          `descent and its leaf)`,
  );
  return { rows, leafOf: (r: number) => placed?.[r]?.leaf ?? random.int(Math.max(1, cf.leafPages)) };
}

/**
 * Whether anything in the statement can stop a scan before its index's end: a LIMIT, or an EXISTS (a
 * semi-join's first match). Without one, a scan that read fewer rows than the statistics count still read
 * every leaf: the statistics sample the rows (a 60,000-row table's full scan read all of its 3,720 leaves
 * where they said 68,262 rows).
 */
function mayStopEarly(statement: string | undefined, limited: boolean): boolean {
  return limited || statement === undefined || /\bexists\b/i.test(statement);
}

/**
 * Leaves a scan that may stop early reads: all of them, unless the executed plan shows it stopped early:
 * then as many as hold the rows it read, at the index's rows per leaf.
 */
function scannedLeaves(f: InnodbIndexFacts, a: TableAccess, assumptions: Set<string>): number {
  if (!a.executed || f.rows <= 0 || f.leafPages <= 0) return f.leafPages;
  const perLeaf = f.rows / f.leafPages;
  const leaves = Math.min(f.leafPages, Math.max(1, Math.ceil(a.rows / perLeaf)));
  if (leaves < f.leafPages) {
    assumptions.add(
      `${f.reportName}: the scan stopped after ${a.rows.toLocaleString('en-US')} rows (as executed), about ${leaves.toLocaleString('en-US')} of ` +
        `${f.leafPages.toLocaleString('en-US')} leaves at ${Math.round(perLeaf).toLocaleString('en-US')} rows per leaf`,
    );
  }
  return leaves;
}
