// The reads of a statement's table accesses as executed: index lookups and ranges (lookup-trace.ts), placed
// by their constants or the keys read after the runs, and full scans of an index's leaves (full-scan.ts).
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import { LOOKUP_ACCESS, replayLookup, type IndexLookup } from './lookup-trace';
import { leadingColumnNote, placeKeys, placeRange, placeValues } from './range-placement';
import { inListValues } from './key-bounds';
import type { InnodbIndexFacts } from './facts';
import type { TableAccess } from './plan';
import { replayRejectedDives } from './rejected-dives';
import { longValuesAssumption, offPagePerRow, prefetchReader, readsLongValues } from './long-values';
import { prefetchedRows, type InnodbReadContext, type ReadRun } from './read-context';
import { replayFullScan } from './full-scan';
import { replayNested } from './nested-loop';

export type { InnodbReadContext } from './read-context';

/**
 * Whether a lookup's keys arrive in ascending order: its one ref is the clustered key's first column of
 * the table before it, which is read in that key's order (a range or a full scan of its clustered index).
 */
function followsOuterOrder(ctx: InnodbReadContext, a: TableAccess, outer: TableAccess | undefined): boolean {
  if (!outer || (a.accessType !== 'eq_ref' && a.accessType !== 'ref') || a.ref?.length !== 1) return false;
  const m = /^[^.]+\.([^.]+)\.([^.]+)$/.exec(a.ref[0]);
  if (!m || m[1] !== outer.table) return false;
  if (!['range', 'ALL', 'index'].includes(outer.accessType) || (outer.key !== undefined && outer.key !== 'PRIMARY')) return false;
  const c = ctx.indexOf(outer.table, undefined);
  return c >= 0 && ctx.facts[c].keyColumns?.[0] === m[2];
}

export function replayReads(
  ctx: InnodbReadContext,
  pool: InnodbPool,
  accesses: TableAccess[],
  assumptions: Set<string>,
  unmodelled: Set<string>,
  run: ReadRun,
): void {
  // The optimizer estimates every possible range before any access runs.
  for (const a of accesses) replayRejectedDives(ctx, pool, a, run.keyRanges, assumptions, unmodelled);
  const full = (a: TableAccess) => a.accessType === 'ALL' || a.accessType === 'index';
  // A nested loop's inner lookups run between the rows of the tables before them (nested-loop.ts).
  replayNested(
    pool,
    accesses,
    (a) => !full(a) && LOOKUP_ACCESS.has(a.accessType),
    (p, a, position) => {
      if (!full(a) && LOOKUP_ACCESS.has(a.accessType)) replayLookupAccess(ctx, p, a, accesses[position - 1], assumptions, unmodelled, run);
      else if (!full(a)) unmodelled.add(`${a.accessType} access to ${a.table}${a.key ? ` via ${a.key}` : ''}: its page requests are left out`);
      else replayFullScan(ctx, p, a, assumptions, unmodelled, run);
    },
  );
}

function replayLookupAccess(
  ctx: InnodbReadContext,
  pool: InnodbPool,
  a: TableAccess,
  outer: TableAccess | undefined,
  assumptions: Set<string>,
  unmodelled: Set<string>,
  run: ReadRun,
): void {
  const { limited, keyRanges, lookupKeys } = run;
  const i = ctx.indexOf(a.table, a.key);
  if (i < 0) {
    unmodelled.add(
      `${a.accessType} access to ${a.table}${a.key ? ` via ${a.key}` : ''}: no index statistics (mysql.innodb_index_stats), so its page requests are left out`,
    );
    return;
  }
  const c = ctx.indexOf(a.table, undefined);
  const ordered = followsOuterOrder(ctx, a, outer);
  const list = listedRanges(ctx, a, ctx.facts[i]);
  const loops = list ? listLoops(a, list.values.length, limited) : undefined;
  const rows = loops ? loops.fetched : limited ? prefetchedRows(a, prefetchReader(ctx.statement, ctx.facts[c], ctx.settings.pageSize)) : a.rows;
  if (list) assumptions.add(list.assumption);
  const dive = list ? list.dive(diveOf(ctx, a, limited)) : diveOf(ctx, a, limited);
  // Half the draws place a range by its constants; the other half draw its start (ids with gaps, skewed values).
  const placed =
    !list && ctx.draw % 2 === 0 && ctx.statement
      ? placeRange(
          { statement: ctx.statement, pageSize: ctx.settings.pageSize, keyRanges },
          ctx.facts[i],
          c >= 0 ? ctx.facts[c] : undefined,
          a,
          rows,
          dive !== undefined,
        )
      : undefined;
  if (placed) {
    ctx.placedByKey();
    if (placed.assumption) assumptions.add(placed.assumption);
  }
  const at = placed?.at;
  // Keys read after the runs place a secondary index's lookups, or an eq_ref join's loops, in the clustered index.
  const looked = keptLookups(a, lookupKeys[a.table], assumptions);
  const placesKeys = c >= 0 && (c !== i || a.accessType === 'eq_ref');
  const placedKeys = placesKeys ? placeKeys(ctx.facts[c], ctx.settings.pageSize, looked.keys, keyRanges, { draw: ctx.draw }) : undefined;
  const lookupLeaves = c !== i ? placedKeys?.map((p) => p.leaf) : undefined;
  if (placedKeys && (ctx.facts[c].keyColumns?.length ?? 0) > 1) assumptions.add(leadingColumnNote(ctx.facts[c], looked.keys ?? [], keyRanges));
  // An IN list's values placed where the index holds them, on the draws that place by constants.
  const listed =
    list && ctx.draw % 2 === 0
      ? placeValues({ statement: ctx.statement ?? '', pageSize: ctx.settings.pageSize, keyRanges }, ctx.facts[i], list.values)
      : undefined;
  if (listed) ctx.placedByKey();
  const loopLeaves = listed ?? (c === i ? placedKeys : undefined);
  const longValuesPerRow = lookupLongValues(ctx, a, c === i, c, assumptions);
  const searchedAgain = rowsSearchedAgain(a, c !== i, run);
  const readAgain = rowsReadAgain(a, run);
  replayLookup(
    pool,
    {
      table: a.table,
      accessType: a.accessType,
      rowsPerLoop: loops ? rows / loops.count : rows,
      loops: loops ? loops.count : looked.loops,
      ...(loops ? { listed: true } : {}),
      usingIndex: a.usingIndex,
      ordered,
      draw: ctx.draw,
      ...(dive ? { dive } : {}),
      ...(at ? { at } : {}),
      ...(lookupLeaves ? { lookupLeaves } : {}),
      ...(loopLeaves ? { loopLeaves } : {}),
      ...(longValuesPerRow ? { longValuesPerRow } : {}),
      ...againOf(searchedAgain, readAgain),
    },
    { f: ctx.facts[i], l: ctx.layouts.of(i) },
    c >= 0 ? { f: ctx.facts[c], l: ctx.layouts.of(c) } : undefined,
    assumptions,
  );
}

/** The rows a DELETE found through a secondary index and looked up, each searched for again before it is delete-marked. */
function rowsSearchedAgain(a: TableAccess, secondary: boolean, run: ReadRun): number {
  return run.deleted?.table === a.table && secondary && !a.usingIndex ? run.deleted.rows : 0;
}

const againOf = (searchedAgain: number, readAgain: number) => ({ ...(searchedAgain > 0 ? { searchedAgain } : {}), ...(readAgain > 0 ? { readAgain } : {}) });

/** The rows an UPDATE that collects their positions first ("Using buffer") reads again by position. */
function rowsReadAgain(a: TableAccess, run: ReadRun): number {
  return a.positionsFirst && run.updated?.table === a.table ? run.updated.rows : 0;
}

/** Off-page pages per row a lookup access reads with the rows it fetches from the clustered index c, if any. */
function lookupLongValues(ctx: InnodbReadContext, a: TableAccess, clustered: boolean, c: number, assumptions: Set<string>): number | undefined {
  if (c < 0 || (!clustered && a.usingIndex)) return undefined;
  const long = readsLongValues(ctx.statement, ctx.facts[c], ctx.settings.pageSize);
  if (long.length === 0) return undefined;
  assumptions.add(longValuesAssumption(ctx.facts[c], long, false, ctx.settings.lruSeed, c));
  return offPagePerRow(ctx.facts[c]);
}

/**
 * An eq_ref loop whose key equals the previous loop's is not looked up again: the join keeps the row it
 * found (MariaDB join_read_key, MySQL's EQRefIterator compare the key with the last one). Where the keys
 * were read after the runs, in the join's order, the repeats are left out of the loops; elsewhere every
 * loop looks up.
 */
function keptLookups(a: TableAccess, keys: number[] | undefined, assumptions: Set<string>): { keys: number[] | undefined; loops: number } {
  if (a.accessType !== 'eq_ref' || !keys || keys.length < 2) return { keys, loops: a.loops };
  const kept = keys.filter((k, j) => j === 0 || k !== keys[j - 1]);
  if (kept.length === keys.length) return { keys, loops: a.loops };
  const loops = Math.max(1, Math.round((a.loops * kept.length) / keys.length));
  assumptions.add(
    `${a.table}: ${(keys.length - kept.length).toLocaleString('en-US')} of the join's ${keys.length.toLocaleString('en-US')} eq_ref loops repeat the ` +
    `previous loop's key (read after the last run) and reuse its row without a lookup`,
  );
  return { keys: kept, loops };
}

/**
 * The ranges an IN list's values searched and the rows fetched: all of them, or, where a LIMIT stopped the
 * scan, as many ranges as its rows reached at the rows per value the optimizer estimated (the one it
 * stopped in included). The prefetch starts anew in each range: only a range read past 4 rows fills it
 * (measured: LIMIT 5 over three values of about 4 rows each fetched 5 rows, not 12).
 */
function listLoops(a: TableAccess, values: number, limited: boolean): { count: number; fetched: number } {
  const perValue = a.estimatedRows !== undefined ? Math.max(1, a.estimatedRows / values) : undefined;
  if (!limited || perValue === undefined) return { count: values, fetched: a.rows };
  const count = Math.min(values, Math.floor(a.rows / perValue) + 1);
  const inLast = a.rows - (count - 1) * perValue;
  const fetched = inLast > 4 ? a.rows - inLast + Math.min(perValue, 4 + 8 * Math.ceil((inLast - 4) / 8)) : a.rows;
  return { count, fetched };
}

/**
 * A range over an IN list on the index's first column is one range per value: each searched from the root
 * (measured on MariaDB 10.11: 20 values of a primary key, 60 pages for a 3-level index) and, unless it is
 * one value of a unique key, estimated by a dive of its own (20 values of a 2-level secondary index: 80
 * pages, 2 for each dive and 2 for each search), at eq_range_index_dive_limit values and beyond from
 * statistics instead. Its values are placed in the index where its layout or its column's spread tells.
 */
function listedRanges(ctx: InnodbReadContext, a: TableAccess, f: InnodbIndexFacts) {
  const column = f.keyColumns?.[0];
  if (a.accessType !== 'range' || a.loops > 1 || !ctx.statement || !column) return undefined;
  const listed = inListValues(ctx.statement, a.table, column);
  if (listed === undefined || listed.length < 2) return undefined;
  const values = listed.length;
  const unique = f.unique && f.keyColumns!.length === 1;
  // eq_range_index_dive_limit: this many ranges or more are estimated from the index's statistics instead.
  const limit = ctx.settings.eqRangeIndexDiveLimit ?? 200;
  const dived = !unique && (limit === 0 || values < limit);
  return {
    values: listed,
    assumption:
      `${f.reportName}: IN list of ${values} values on ${column}: ${values} ranges, each a descent from the root` +
      (unique
        ? ' (one row of a unique key each: no dive)'
        : dived
          ? ' and a dive of its own'
          : ` (${values} ≥ eq_range_index_dive_limit ${limit}: estimated from statistics, no dive)`) +
      ', ' +
      "their places in the index read from the values where the index's layout or the column's spread gives them (half the draws), else drawn",
    dive: (one: IndexLookup['dive']): IndexLookup['dive'] =>
      one && dived ? { ...one, estimatedRows: one.estimatedRows / values, times: one.times * values, stoppedEarly: false } : undefined,
  };
}

/**
 * A range over constants is estimated by an index dive while the statement is optimised: a range access,
 * or a ref whose every key part is a constant. A unique key's single value is not dived (one row).
 */
function diveOf(ctx: InnodbReadContext, a: TableAccess, limited: boolean): IndexLookup['dive'] {
  const constantRef = a.accessType === 'ref' && (a.ref?.length ?? 0) > 0 && a.ref!.every((r) => r === 'const');
  if (a.accessType !== 'range' && !constantRef) return undefined;
  const estimatedRows = a.estimatedRows ?? (a.executed ? undefined : a.rows);
  if (estimatedRows === undefined) return undefined;
  // One value of a unique key (an UPDATE … WHERE id = 5 shows as a range of 1 row): at most one row, no dive.
  const i = ctx.indexOf(a.table, a.key);
  if (estimatedRows <= 1 && i >= 0 && ctx.facts[i].unique) return undefined;
  // MariaDB 10.6 searches both bounds in one descent (measured: a range within one leaf costs one path).
  // With a LIMIT, estimated twice (measured: 24 gets where one dive took 12, with and without ORDER BY).
  return {
    estimatedRows,
    shared: ctx.settings.product === 'mariadb',
    times: limited ? 2 : 1,
    stoppedEarly: limited && a.executed === true && a.rows < estimatedRows,
  };
}
