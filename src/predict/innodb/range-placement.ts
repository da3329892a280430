// Where a range or a point search lies in its index, from the constants the statement compares the index's
// first column with: on an AUTO_INCREMENT clustered key filled in ascending order, where the key puts it;
// on a secondary index, on the column's lowest and highest value (read after the runs), taking the values
// as spread evenly. Undefined where neither holds: the lookup then draws its start. Pure.
import { INNODB_CALIBRATION } from './calibration';
import { constantBounds } from './key-bounds';
import { ascendingKeyLayout, withKnownRows } from './key-position';
import { keyRangeName, type InnodbIndexFacts } from './facts';
import type { IndexLookup } from './lookup-trace';
import type { TableAccess } from './plan';

export interface PlacementContext {
  statement: string;
  pageSize: number;
  keyRanges: Record<string, [number, number]>;
}

export interface Placement {
  at: NonNullable<IndexLookup['at']>;
  assumption?: string;
}

const n = (x: number) => x.toLocaleString('en-US');
const descending = (sql: string) => /\border\s+by\b[^;]*\bdesc\b/i.test(sql);

/** `f` is the index the access uses, `clustered` its table's clustered index; `dived`: the optimizer dives the range. */
export function placeRange(
  ctx: PlacementContext,
  f: InnodbIndexFacts,
  clustered: InnodbIndexFacts | undefined,
  a: TableAccess,
  rows: number,
  dived: boolean,
): Placement | undefined {
  if (a.loops > 1 || descending(ctx.statement)) return undefined;
  return f.clustered ? byKey(ctx, f, a, rows, dived) : clustered && a.accessType === 'range' && rows >= 1 ? byValue(ctx, f, a, rows, dived) : undefined;
}

/**
 * An ascending AUTO_INCREMENT key: the leaves of the range's first and last rows read, and of its upper
 * bound (where the dive goes: an open end is the last leaf, whatever it estimated); for a point search,
 * its slot in the leaf.
 */
function byKey(ctx: PlacementContext, f: InnodbIndexFacts, a: TableAccess, rows: number, dived: boolean): Placement | undefined {
  const point = (a.accessType === 'const' || a.accessType === 'eq_ref') && rows <= 1;
  if (a.accessType !== 'range' && !point) return undefined;
  const column = f.keyColumns?.[0];
  const known = column ? ctx.keyRanges[keyRangeName(a.table, column)] : undefined;
  const layout = layoutOf(f, ctx.pageSize, known);
  const bounds = layout && column ? constantBounds(ctx.statement, a.table, column) : undefined;
  if (!layout || !column || bounds?.from === undefined) return undefined;
  // Ids counted from the lowest one there is (read after the runs), else from 1.
  const shift = 1 - (known?.[0] ?? 1);
  const from = Math.max(1, bounds.from + shift);
  const to = bounds.to === undefined ? undefined : bounds.to + shift;
  if (point) {
    const leaf = layout.leafOf(from);
    return { at: { first: leaf, last: leaf, diveLast: leaf, slot: layout.slotOf(from) } };
  }
  if (rows < 1) return undefined;
  const lastKey = Math.min(to ?? Infinity, from + rows - 1);
  const first = layout.leafOf(from);
  return {
    at: { first, last: layout.leafOf(lastKey), diveLast: layout.leafOf(dived ? (to ?? Infinity) : lastKey) },
    assumption:
      `${f.reportName}: the range starts at ${column} = ${n(bounds.from)}, in leaf ${n(first + 1)} of ${n(f.leafPages)}: a key filled in ascending order ` +
      `holds ${layout.first} rows in its first leaf and ${layout.perLeaf} in each other (1/16 of a page kept free), taking its ids as running without ` +
      `gaps from ${n(known?.[0] ?? 1)}${known ? ' (its lowest, read after the runs)' : ''}; half the draws take the start as unknown`,
  };
}

/** A secondary index: its first and last entries' leaves and its upper bound's, on the column's spread. */
function byValue(ctx: PlacementContext, f: InnodbIndexFacts, a: TableAccess, rows: number, dived: boolean): Placement | undefined {
  const column = f.keyColumns?.[0];
  const span = column ? ctx.keyRanges[keyRangeName(f.table, column)] : undefined;
  const bounds = span && column ? constantBounds(ctx.statement, a.table, column) : undefined;
  if (!span || !bounds || bounds.from === undefined || span[1] <= span[0]) return undefined;
  const [lo, hi] = span;
  const leaves = Math.max(1, f.leafPages);
  const position = (v: number) => ((Math.min(Math.max(v, lo), hi + 1) - lo) / (hi - lo + 1)) * leaves;
  const leaf = (x: number) => Math.min(leaves - 1, Math.max(0, Math.floor(x)));
  const start = position(bounds.from);
  const last = leaf(start + (rows - 1) / Math.max(1, f.rows / leaves));
  return {
    at: { first: leaf(start), last, diveLast: dived ? (bounds.to === undefined ? leaves - 1 : leaf(position(bounds.to))) : last },
    assumption:
      `${f.reportName}: the range starts at ${column} = ${n(bounds.from)}, in leaf ${n(leaf(start) + 1)} of ${n(leaves)}, taking the column's values as ` +
      `spread evenly between its lowest and highest (${n(lo)} and ${n(hi)}, read after the runs); half the draws take the start as unknown`,
  };
}

/**
 * The leaves of a range's two bounds (an open end: the index's first or last leaf), where an AUTO_INCREMENT
 * clustered key's layout or a secondary column's spread (read after the runs) places them; else undefined.
 */
export function placeBounds(
  ctx: PlacementContext,
  f: InnodbIndexFacts,
  from: number | undefined,
  to: number | undefined,
): { first: number; last: number } | undefined {
  const leaves = Math.max(1, f.leafPages);
  const clamp = (x: number) => Math.min(leaves - 1, Math.max(0, Math.floor(x)));
  const column = f.keyColumns?.[0];
  const known = column ? ctx.keyRanges[keyRangeName(f.table, column)] : undefined;
  const layout = f.clustered ? layoutOf(f, ctx.pageSize, known) : undefined;
  if (layout) {
    const shift = 1 - (known?.[0] ?? 1);
    const leafOf = (key: number) => clamp(layout.leafOf(Math.max(1, key + shift)));
    return { first: from === undefined ? 0 : leafOf(from), last: to === undefined ? leaves - 1 : leafOf(to) };
  }
  // A clustered key that is not one AUTO_INCREMENT column (a composite key's prefix) is placed as a
  // secondary index's: by its leading column's spread.
  if (!known || known[1] <= known[0]) return undefined;
  const [lo, hi] = known;
  const position = (v: number) => clamp(((Math.min(Math.max(v, lo), hi) - lo) / (hi - lo + 1)) * leaves);
  return { first: from === undefined ? 0 : position(from), last: to === undefined ? leaves - 1 : position(to) };
}

/**
 * Each IN-list value's leaf, in ascending order (the order the ranges are searched in): by the layout of an
 * AUTO_INCREMENT clustered key, or on a secondary index by the column's spread between its lowest and
 * highest value (read after the runs). Undefined where neither places them, or a value is not a number.
 */
export function placeValues(ctx: PlacementContext, f: InnodbIndexFacts, values: Array<number | string>): Array<{ leaf: number }> | undefined {
  if (!values.every((v): v is number => typeof v === 'number')) return undefined;
  if (f.clustered) return placeKeys(f, ctx.pageSize, values, ctx.keyRanges);
  const column = f.keyColumns?.[0];
  const span = column ? ctx.keyRanges[keyRangeName(f.table, column)] : undefined;
  if (!span || span[1] <= span[0]) return undefined;
  const [lo, hi] = span;
  const leaves = Math.max(1, f.leafPages);
  return values.map((v) => ({ leaf: Math.min(leaves - 1, Math.floor(((Math.min(Math.max(v, lo), hi) - lo) / (hi - lo + 1)) * leaves)) }));
}

/**
 * The layout of an AUTO_INCREMENT key. Its check against the leaves counted needs the rows, which the
 * statistics sample (a few per cent off); where the key's lowest and highest value were read, ids without
 * gaps give the rows exactly, and a table with gaps then fails the check, as it should.
 */
function layoutOf(f: InnodbIndexFacts, pageSize: number, known: [number, number] | undefined): ReturnType<typeof ascendingKeyLayout> {
  return ascendingKeyLayout(withKnownRows(f, known, pageSize), pageSize);
}

/**
 * Each key's leaf and its slot there, where the clustered index's layout places keys (an AUTO_INCREMENT
 * key); else undefined. keyRanges gives the key's ends where they were read, for the exact rows.
 */
export function placeKeys(
  clustered: InnodbIndexFacts,
  pageSize: number,
  keys: number[] | undefined,
  keyRanges: Record<string, [number, number]>,
  /** Lookups of rows (not listed values): where no place follows from a value, rows of one value share a drawn leaf (groupedPlaces). */
  grouped?: { draw: number },
): Array<{ leaf: number; slot: { slot: number; of: number } }> | undefined {
  if (!keys || keys.length === 0) return undefined;
  const column = clustered.keyColumns?.[0];
  const known = column ? keyRanges[keyRangeName(clustered.table, column)] : undefined;
  if ((clustered.keyColumns?.length ?? 0) > 1) {
    if (!known) return undefined;
    return leadingColumnPlaces(clustered, keys, known) ?? (grouped ? groupedPlaces(clustered, keys, known, grouped.draw) : undefined);
  }
  const layout = layoutOf(clustered, pageSize, known);
  // Ids counted from the lowest one there is, as a range's are.
  const shift = 1 - (known?.[0] ?? 1);
  if (layout) return keys.map((k) => ({ leaf: layout.leafOf(k + shift), slot: layout.slotOf(k + shift) }));
  return known ? proportionalPlaces(clustered, keys, known) : undefined;
}

/**
 * Keys that run densely between their ends (read after the runs) on leaves not filled as ascending
 * inserts fill them (a table reloaded, rows grown or deleted): each as far along the leaves as along the
 * keys. Measured (schema corpus, seed 2, a date range of 2,100 rows inserted in date order, 1,188 leaves at
 * 100 rows a leaf where an ascending fill puts 111): 30 pages read; drawn at random, 1,875 were predicted.
 */
function proportionalPlaces(
  clustered: InnodbIndexFacts,
  keys: number[],
  [min, max]: [number, number],
): Array<{ leaf: number; slot: { slot: number; of: number } }> | undefined {
  const span = max - min + 1;
  if (span <= 0 || clustered.leafPages < 2 || Math.abs(span - clustered.rows) > INNODB_CALIBRATION.denseIds * span) return undefined;
  const perLeaf = Math.max(1, Math.round(span / clustered.leafPages));
  return keys.map((k) => {
    const along = Math.min(span - 1, Math.max(0, k - min));
    return { leaf: Math.min(clustered.leafPages - 1, Math.floor((along * clustered.leafPages) / span)), slot: { slot: along % perLeaf, of: perLeaf } };
  });
}

/**
 * A composite clustered key's rows by its first column (the keys read are that column's values): each as
 * far along the leaves as its value along the column's span, where the values read spread evenly over the
 * span (a Kolmogorov-Smirnov distance from even under INNODB_CALIBRATION.evenKeys, or the 5 % test's bound
 * for as many keys); else undefined, and the lookups are drawn. Rows of one value lie together, and values
 * close together on nearby leaves, which a draw over the leaves does not give. Measured (MariaDB, key
 * (cust_id, seq), 500 rows of a date range over 30 blocks of customers): 40 pages read cold, 407 drawn.
 */
function leadingColumnPlaces(
  clustered: InnodbIndexFacts,
  keys: number[],
  [lo, hi]: [number, number],
): Array<{ leaf: number; slot: { slot: number; of: number } }> | undefined {
  const span = hi - lo + 1;
  if (span <= 1 || clustered.leafPages < 2 || !spreadEvenly(keys, lo, span)) return undefined;
  const perLeaf = Math.max(1, Math.round(clustered.rows / clustered.leafPages));
  return keys.map((k) => {
    const along = (Math.min(span - 1, Math.max(0, k - lo)) / span) * clustered.leafPages;
    const leaf = Math.min(clustered.leafPages - 1, Math.floor(along));
    return { leaf, slot: { slot: Math.min(perLeaf - 1, Math.floor((along - leaf) * perLeaf)), of: perLeaf } };
  });
}

/**
 * A composite clustered key's rows by its first column where the values read do not spread evenly (so no
 * place along the leaves follows from a value): rows of one value lie together, so lookups of the same
 * value share its leaf, each value's leaf drawn. Only where a value's rows fill at most half a leaf, the
 * table's rows over the column's span (read after the runs): a value with more may spread over leaves.
 * Measured (schema corpus, seed 104: the latest day's 216 rows on 110 customers, two or three rows each):
 * 117 pages read cold, 219 predicted with every row its own leaf.
 */
function groupedPlaces(
  clustered: InnodbIndexFacts,
  keys: number[],
  [lo, hi]: [number, number],
  draw: number,
): Array<{ leaf: number; slot: { slot: number; of: number } }> | undefined {
  const perLeaf = Math.max(1, Math.round(clustered.rows / Math.max(1, clustered.leafPages)));
  const perValue = clustered.rows / Math.max(1, hi - lo + 1);
  if (clustered.leafPages < 2 || perValue > perLeaf / 2) return undefined;
  const taken = new Map<number, number>();
  return keys.map((k) => {
    const slot = taken.get(k) ?? 0;
    taken.set(k, slot + 1);
    // A value's leaf, the same for its every row and different per draw (golden-ratio steps over the leaves).
    const leaf = Math.floor((((k - lo + draw * DRAW_STEP) * GOLDEN) % 1) * clustered.leafPages);
    return { leaf: Math.min(clustered.leafPages - 1, leaf), slot: { slot: Math.min(perLeaf - 1, slot), of: perLeaf } };
  });
}

const GOLDEN = 0.6180339887498949;
/** Values a draw moves every value along before its golden-ratio step: each draw places the values anew. */
const DRAW_STEP = 7919;

/** The values' largest distance from an even spread over [lo, lo + span), against the bound it may reach. */
export function spreadEvenly(values: number[], lo: number, span: number): boolean {
  const sorted = [...values].sort((a, b) => a - b);
  let distance = 0;
  sorted.forEach((v, i) => {
    const even = Math.min(1, Math.max(0, (v - lo + 1) / span));
    distance = Math.max(distance, Math.abs((i + 1) / sorted.length - even), Math.abs(i / sorted.length - even));
  });
  return distance <= Math.max(INNODB_CALIBRATION.evenKeys, 1.36 / Math.sqrt(sorted.length));
}

/** The assumption a composite key's lookups placed by their first column carry. */
export function leadingColumnNote(clustered: InnodbIndexFacts, keys: number[], keyRanges: Record<string, [number, number]>): string {
  const [first, ...rest] = clustered.keyColumns ?? [];
  const [lo, hi] = keyRanges[keyRangeName(clustered.table, first)] ?? [0, 0];
  if (!spreadEvenly(keys, lo, hi - lo + 1)) {
    return (
      `${clustered.reportName}: the ${n(keys.length)} looked-up rows grouped by ${first}, the first column of its key (${[first, ...rest].join(', ')}; ` +
      `read after the last run): rows of one ${first} lie together, on one leaf, and the ${n(new Set(keys).size)} values, which do not spread ` +
      "evenly over the column's lowest to highest, each on a drawn leaf"
    );
  }
  return (
    `${clustered.reportName}: the ${n(keys.length)} looked-up rows placed by ${first}, the first column of its key (${[first, ...rest].join(', ')}; ` +
    "read after the last run), each as far along the leaves as its value along the column's lowest to highest, the values read spreading " +
    `evenly over them; rows of one ${first} lie together`
  );
}
