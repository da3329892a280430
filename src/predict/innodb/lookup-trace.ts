// The page requests of InnoDB's index lookups, per plan node (range, ref, eq_ref, ref_or_null, const): each
// loop descends the index and walks as many leaves as its rows fill, from where the key falls; a secondary
// index that does not cover the query then looks each row up in the clustered index (a descent and the
// row's leaf). InnoDB keeps no statistic of how a secondary key's order follows the primary key's, so the
// lookups are taken in random order, which is exact for uncorrelated keys and an upper bound otherwise.
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import { SeededRandom } from '../../sim/random';
import { seedOf, type IndexPages } from './index-pages';
import type { InnodbIndexFacts } from './facts';
import { descend as descendIndex } from './row-costs';
import { LongValueLookups } from './long-values';

export interface IndexLookup {
  table: string;
  accessType: string;
  rowsPerLoop: number;
  loops: number;
  usingIndex: boolean;
  /**
   * The loops' keys arrive in ascending order (an eq_ref/ref on the driving table's clustered key, which
   * that table is scanned in): each loop's leaves follow the last loop's, from one drawn start.
   */
  ordered?: boolean;
  /**
   * A range the optimizer estimated with an index dive before running it (records_in_range): the rows it
   * estimated between the bounds, whether both bounds are searched in one descent (MariaDB 10.6+) or in two
   * (MySQL), and whether a LIMIT stopped the scan before the range's end (whose position only the estimate
   * then tells).
   */
  dive?: { estimatedRows: number; shared: boolean; times: number; stoppedEarly: boolean };
  /** The loops are an IN list's values, each dived where its loop then searches it. */
  listed?: boolean;
  /** Which draw of the positions and orders this is (0: the one shown). */
  draw?: number;
  /**
   * Where the key puts a one-loop range (see range-placement.ts): the leaves of its first and
   * last rows read, and of its upper bound, which the dive searches. Without it, the start is drawn.
   */
  at?: { first: number; last: number; diveLast: number; slot?: { slot: number; of: number } };
  /**
   * The clustered leaf of each looked-up row in turn, where the rows' keys were read and the clustered
   * index's layout places them (lookupKeys, key-position.ts); rows beyond them are drawn.
   */
  lookupLeaves?: number[];
  /**
   * Each loop's leaf and the key's slot in it, where the loops' keys were read (an eq_ref join's outer
   * column, lookupKeys) and the index's layout places them; loops beyond them are drawn.
   */
  loopLeaves?: Array<{ leaf: number; slot?: { slot: number; of: number } }>;
  /** Off-page pages each row fetched from the clustered index reads (long-values.ts); absent: none read. */
  longValuesPerRow?: number;
  /**
   * Of the rows looked up, how many the statement then deletes: a DELETE through a secondary index searches
   * each such row's clustered record again from the root before delete-marking it. Measured on MariaDB 10.11
   * (rows deleted by a secondary key, LIMIT 1 to 16): 3 gets a row more than the same rows updated where the
   * clustered index is 3 levels high, 2 where it is 2, whichever secondary index found them; a DELETE by the
   * primary key or by a full scan none.
   */
  searchedAgain?: number;
  /**
   * Of the rows found, how many an UPDATE reads again by position after the scan (MariaDB's "Using buffer":
   * the UPDATE changes the key it scans by, so it collects the rows' positions first): each a descent of
   * the clustered index to the row's leaf, in the scan's order. Measured on MariaDB 10.11, the same UPDATE
   * of 50 to 400 rows scanning an index whose key it changes or one whose key it does not: 3 gets a row
   * more on a 3-level table.
   */
  readAgain?: number;
}

/** btr_estimate_n_rows_in_range_on_level reads at most this many pages between the bounds' leaves. */
export const DIVE_PAGES_BETWEEN = 9;

export const LOOKUP_ACCESS = new Set(['range', 'ref', 'eq_ref', 'ref_or_null', 'const', 'system', 'unique_subquery', 'index_subquery']);

/** One replayed lookup access: its index, the rows per loop, and how each loop's start is found. */
interface LookupTrace {
  pool: InnodbPool;
  a: IndexLookup;
  f: InnodbIndexFacts;
  l: IndexPages;
  clustered: { f: InnodbIndexFacts; l: IndexPages } | undefined;
  perLeaf: number;
  rows: number;
  leavesPerLoop: number;
  /** Leaves loop j reads, where the loops spread the leaf ends they cross (spreadCrossings); else leavesPerLoop. */
  leavesOf: (loop: number) => number;
  /** The leaves a loop reads on average, where the loops spread their crossings. */
  meanLeaves?: number;
  lookups: boolean;
  pointSearch: boolean;
  random: SeededRandom;
  startOf: (loop: number) => number;
  firstStart: number;
  /** Rows looked up in the clustered index so far: rows per loop are an average, spread so that fractions add up. */
  rowsDone: number;
  /** The long values the rows fetched from the clustered index read. */
  longValues: LongValueLookups | undefined;
  /** Each found row's clustered leaf, in the scan's order, where the rows are read again by position. */
  rowLeaves?: number[];
}

// One formatter for every note: toLocaleString with options builds a new one per call (50 times slower).
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const count = (x: number) => ONE_DECIMAL.format(x);

export function replayLookup(
  pool: InnodbPool,
  a: IndexLookup,
  index: { f: InnodbIndexFacts; l: IndexPages },
  clustered: { f: InnodbIndexFacts; l: IndexPages } | undefined,
  assumptions: Set<string>,
): void {
  const { f, l } = index;
  const perLeaf = Math.max(1, f.rows / Math.max(1, f.leafPages));
  const loops = Math.max(1, Math.round(a.loops));
  const rows = Math.max(0, a.rowsPerLoop);
  // From a random position within its first leaf, a run of rows spans 1 + (rows − 1) / perLeaf leaves on
  // average (measured: 100, 1,000 and 5,000 rows of 72 a leaf crossed 2, 15 and 70).
  const leavesPerLoop = a.at ? a.at.last - a.at.first + 1 : Math.min(f.leafPages, Math.max(1, Math.round(1 + (rows - 1) / perLeaf)));
  const lookups = !f.clustered && !a.usingIndex && clustered !== undefined;
  // A unique search through the handler (const, eq_ref) looks for the first record ≥ its key. Node pointers
  // hold each child's first key and the descent takes the last one below the key, so a leaf's first key is
  // searched from the leaf before, one step to the right; on a leaf's last key the search steps on to the
  // next leaf. Measured on MariaDB 10.11: 4 gets for either, 3 for a key between (2 of every 73 keys).
  const pointSearch = f.clustered && f.unique && (a.accessType === 'eq_ref' || a.accessType === 'const') && rows <= 1;
  const random = new SeededRandom(seedOf([a.table, f.index, a.accessType, rows, loops], a.draw));
  const spanned = Math.min(f.leafPages, Math.ceil((rows * loops) / perLeaf));
  const orderedStart = a.ordered ? random.int(Math.max(1, f.leafPages - spanned + 1)) : 0;
  const startOf = (loop: number) => (a.ordered ? orderedStart + Math.floor((rows * loop) / perLeaf) : random.int(Math.max(1, f.leafPages - leavesPerLoop + 1)));
  // The dive follows the real bounds: the rows read, or, where a LIMIT stopped the scan, the rows the
  // estimate puts in the range, which lies wholly in the index however few of them were read.
  const rangeSpan = a.at
    ? a.at.diveLast - a.at.first + 1
    : a.dive
      ? Math.min(f.leafPages, Math.max(1, Math.ceil((a.dive.stoppedEarly ? a.dive.estimatedRows : rows) / perLeaf)))
      : 0;
  const firstStart = a.at ? a.at.first : a.dive && !a.ordered && rangeSpan > leavesPerLoop ? random.int(Math.max(1, f.leafPages - rangeSpan + 1)) : startOf(0);
  const rowsAt = f.clustered ? l : clustered?.l;
  const longValues = a.longValuesPerRow && rowsAt ? new LongValueLookups(rowsAt, a.longValuesPerRow) : undefined;
  const meanLeaves = a.at || a.ordered || pointSearch || loops < 2 ? undefined : Math.min(f.leafPages, 1 + (rows + 1) / perLeaf);
  const leavesOf = meanLeaves ? spreadCrossings(meanLeaves, f.leafPages, a.draw) : () => leavesPerLoop;
  // prettier-ignore
  const t: LookupTrace = {
    pool, a, f, l, clustered, perLeaf, rows, leavesPerLoop, leavesOf, meanLeaves,
    lookups, pointSearch, random, startOf, firstStart, rowsDone: 0, longValues,
  };
  if (a.readAgain) t.rowLeaves = [];
  if (a.dive) replayDive(t, a.dive, rangeSpan, assumptions);
  for (let loop = 0; loop < loops; loop++) replayLoop(t, loop);
  readAgainByPosition(t);
  assumptions.add(lookupAssumption(t, loops, spanned));
}

/** The rows an UPDATE collected by position, each read again from the clustered index's root. */
function readAgainByPosition(t: LookupTrace): void {
  const rowsAt = t.f.clustered ? { f: t.f, l: t.l } : t.clustered;
  if (!t.rowLeaves || !rowsAt || !t.a.readAgain) return;
  // Rows the scan found without a lookup here (a covering read) lie on leaves no key told: drawn.
  for (let r = 0; r < t.a.readAgain; r++) {
    const leaf = t.rowLeaves[r] ?? t.random.int(Math.max(1, rowsAt.f.leafPages));
    descendIndex(t.pool, rowsAt.l, leaf);
    t.pool.access(rowsAt.l.leaves(leaf));
  }
}

/** Both bounds' paths from the root, and the leaves between them up to the estimator's limit. */
function replayDive(t: LookupTrace, dive: NonNullable<IndexLookup['dive']>, rangeSpan: number, assumptions: Set<string>): void {
  const { pool, f, l, firstStart } = t;
  const span = Math.min(f.leafPages - firstStart, rangeSpan);
  const end = firstStart + span - 1;
  // Each value's bounds lie on the leaves of the record before its first row (searched from the leaf before
  // where it starts one) and of its last row: its rows' steps cross leaf ends as its loop's do (spreadCrossings).
  const valueSpan = t.a.listed && span <= 1 ? spreadCrossings(1 + t.rows / t.perLeaf, f.leafPages, t.a.draw) : undefined;
  for (let k = 0; k < dive.times; k++) {
    // An IN list dives each value where its loop then searches it.
    const placed = t.a.listed ? t.a.loopLeaves?.[k % t.a.loopLeaves.length] : undefined;
    const at = placed && span <= 1 ? Math.min(placed.leaf, f.leafPages - 1) : firstStart;
    if (valueSpan) diveBetween(pool, l, at, Math.min(f.leafPages - 1, at + valueSpan(k) - 1), dive.shared);
    else if (span <= 1) diveBetween(pool, l, at, at, dive.shared);
    else diveBetween(pool, l, firstStart, end, dive.shared);
  }
  const times =
    dive.times <= 1 ? '' : t.a.listed ? `, once for each of the ${dive.times} values` : `, ${dive.times} times (ORDER BY … LIMIT reconsiders the index)`;
  const rowsFor = dive.stoppedEarly
    ? `the ${count(dive.estimatedRows)} rows it estimated (the LIMIT stopped the scan first)`
    : `the ${count(t.rows)} rows read`;
  assumptions.add(
    `${f.reportName}: the optimizer's index dive (records_in_range) before the range ran${times}: both bounds' paths, ` +
      `${count(span)} leaf page${span === 1 ? '' : 's'} apart for ${rowsFor}, and at most ${DIVE_PAGES_BETWEEN} leaves between them`,
  );
}

/**
 * One records_in_range estimate between two leaves: the first bound's path and leaf; then, where the bounds
 * lie apart, the second's (one descent serves both down to where their paths part, MariaDB 10.6+; two
 * descents on MySQL), on each level under the parting the pages between them, and the leaves between, at
 * most DIVE_PAGES_BETWEEN of each.
 */
export function diveBetween(pool: InnodbPool, l: IndexPages, first: number, last: number, shared: boolean): void {
  descendIndex(pool, l, first);
  pool.access(l.leaves(first));
  if (last <= first) return;
  if (!shared) descendIndex(pool, l, last);
  else {
    const [p1, p2] = [l.pathTo(first), l.pathTo(last)];
    p2.forEach((p, j) => p !== p1[j] && pool.access(p));
  }
  for (const level of l.nodesBetween(first, last)) for (const p of level.slice(0, DIVE_PAGES_BETWEEN)) pool.access(p);
  pool.access(l.leaves(last));
  for (let j = 1; j <= Math.min(last - first - 1, DIVE_PAGES_BETWEEN); j++) pool.access(l.leaves(first + j));
}

/**
 * Leaves per loop where many loops each read a few rows from where their key falls. A loop reads its rows and
 * the record after them (to see the key change), and a key that starts a leaf is searched from the leaf before
 * (node pointers hold each child's first key; the descent takes the last one below the key): of its rows + 1
 * steps from record to record, each crosses a leaf's end with chance 1 / perLeaf. Rounded per loop, 10 rows
 * of 21 a leaf never crossed one; measured on MariaDB 10.11 (composite key, an IN list of 6 values, 10 rows
 * each, 21.5 rows a leaf), 4 leaf ends crossed by the reads and 4 by the dives. The loops share out the
 * expected crossings; the draw shifts which loops take them.
 */
export function spreadCrossings(expected: number, leafPages: number, draw = 0): (loop: number) => number {
  const base = Math.floor(expected);
  const fraction = expected - base;
  const phase = (draw * 0.618034) % 1;
  return (loop) => Math.min(Math.max(1, leafPages), base + Math.floor((loop + 1) * fraction + phase) - Math.floor(loop * fraction + phase));
}

/** A clustered range's rows, spread evenly over the `leaves` it crosses: how many lie on its k-th leaf. */
function rowsOnLeaf(t: LookupTrace, k: number, leaves: number): number {
  const upTo = (j: number) => Math.round((t.rows * j) / leaves);
  return Math.max(0, upTo(k + 1) - upTo(k));
}

function replayLoop(t: LookupTrace, loop: number): void {
  const { pool, a, f, l, random, perLeaf } = t;
  const leavesPerLoop = t.leavesOf(loop);
  const placedLoop = a.loopLeaves?.[loop];
  const start = placedLoop ? Math.min(placedLoop.leaf, Math.max(0, f.leafPages - leavesPerLoop)) : loop === 0 ? t.firstStart : t.startOf(loop);
  descendIndex(pool, l, start);
  const access = (p: number) => pool.access(p);
  for (let k = 0; k < leavesPerLoop; k++) {
    pool.access(l.leaves(start + k));
    if (f.clustered) t.rowLeaves?.push(...new Array<number>(rowsOnLeaf(t, k, leavesPerLoop)).fill(start + k));
    if (f.clustered) t.longValues?.ofRows(access, start + k, Math.min(perLeaf, t.rows / leavesPerLoop));
  }
  // Loops in key order share leaves: the loop whose rows, and the next key's first record (read to see the
  // key change), run past a leaf's end reads the next leaf too. Measured on MariaDB 10.11: 25 ref loops of
  // 10 rows, about 50 a leaf, took 3.2 gets a loop in a three-level index (5 leaf ends crossed).
  if (a.ordered && !placedLoop && !a.at && !t.pointSearch) {
    const next = t.startOf(loop + 1);
    for (let j = start + leavesPerLoop; j <= next && j < f.leafPages; j++) pool.access(l.leaves(j));
  }
  if (t.pointSearch) {
    // Which of its leaf's keys this one is: consecutive in ascending order, otherwise any.
    const known = placedLoop?.slot ?? a.at?.slot;
    const slot = known ? known.slot : a.ordered ? loop % Math.max(1, Math.round(perLeaf)) : Math.floor(random.next() * perLeaf);
    const last = known ? known.of - 1 : perLeaf - 1;
    if (slot === 0 && start > 0) pool.access(l.leaves(start - 1));
    else if (slot >= last && start < f.leafPages - 1) pool.access(l.leaves(start + 1));
  }
  if (!t.lookups || !t.clustered) return;
  const target = Math.round(t.rows * (loop + 1));
  for (; t.rowsDone < target; t.rowsDone++) {
    const leaf = a.lookupLeaves?.[t.rowsDone] ?? random.int(Math.max(1, t.clustered.f.leafPages));
    descendIndex(pool, t.clustered.l, leaf);
    pool.access(t.clustered.l.leaves(leaf));
    t.rowLeaves?.push(leaf);
    t.longValues?.ofRows(access, leaf);
    if (t.rowsDone < (a.searchedAgain ?? 0)) {
      descendIndex(pool, t.clustered.l, leaf);
      pool.access(t.clustered.l.leaves(leaf));
    }
  }
}

function lookupAssumption(t: LookupTrace, loops: number, spanned: number): string {
  const { a, f, rows, leavesPerLoop, clustered } = t;
  const placed = a.loopLeaves
    ? `each loop's leaf placed by its key (${count(a.loopLeaves.length)} keys read after the last run)`
    : a.ordered
      ? `keys in ascending order: ${count(spanned)} consecutive leaves from a drawn start`
      : 'from a random position';
  const looked = Math.round(rows * loops);
  const after =
    t.lookups && clustered
      ? a.lookupLeaves
        ? `, then ${count(looked)} lookups in ${clustered.f.reportName}, each row's leaf placed by its key (the keys read after the last run, in the ` +
          `index's order)`
        : `, then ${count(looked)} lookups in ${clustered.f.reportName} in random order ` +
          '(InnoDB keeps no correlation statistic: an upper bound for a key that follows the primary key)'
      : a.usingIndex
        ? ', covering: no clustered lookups'
        : '';
  const again =
    t.lookups && clustered && a.searchedAgain
      ? `; the DELETE searches each of the ${count(Math.min(a.searchedAgain, looked))} rows it deletes in ${clustered.f.reportName} ` +
        'again from the root before delete-marking it (as measured on MariaDB 10.11)'
      : '';
  const byPosition = a.readAgain
    ? `; the UPDATE changes the key it scans by, so it collects the rows' positions first ("Using buffer") and reads each of the ` +
      `${count(a.readAgain)} rows again from the root of ${(clustered ?? t).f.reportName}`
    : '';
  const leaves = t.meanLeaves
    ? `${count(t.meanLeaves)} leaf pages on average (its rows and the record after them cross a leaf's end once in ${count(t.perLeaf)} steps)`
    : `${count(leavesPerLoop)} leaf page${leavesPerLoop === 1 ? '' : 's'}`;
  return `${f.reportName}: ${a.accessType} access, ${count(loops)} × (a descent and ${leaves} for ${count(rows)} rows, ${placed})${after}${again}${byPosition}`;
}
