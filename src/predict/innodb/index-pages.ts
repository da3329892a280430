// Where an InnoDB index's pages are in the simulation, shared by the scan, lookup and insert traces.
import { INNODB_CALIBRATION } from './calibration';

export interface IndexPages {
  root: number;
  /** One node page per level between the root and the leaves: the path where no leaf is known. */
  internal: number[];
  /** The node pages from the root's child down to leaf k's parent: a level holds leaves / fanout^level pages. */
  pathTo: (k: number) => number[];
  /** The node pages strictly between leaf a's and leaf b's ancestors, per level top first (a ≤ b). */
  nodesBetween: (a: number, b: number) => number[][];
  /** Every node page between the root and the leaves. */
  nodes: number[];
  /** Leaf k in key order (cached pages first take the places the modelled layout leaves uncached). */
  leaves: (k: number) => number;
  /** The pages of long values stored off the rows' pages that the leaf segment holds after leaf k (key order). */
  offPage: (k: number) => number[];
  /** The right-most leaf, where ascending keys are appended. */
  lastLeaf: number;
  /** Where pages the statement creates are numbered (past the end of the file). */
  newPages: number;
  /** The leaves in key order lie anywhere in the file (a tree grown by inserts in random key order). */
  scattered?: boolean;
}

/** Bytes of an index page that hold records: less the file and page headers, infimum, supremum, trailer and two directory slots. */
export function usableBytes(pageSize: number): number {
  return pageSize - 132;
}

/**
 * How full an index's leaves are: rows × bytes per record over leaf bytes (15/16 when unknown); a record's
 * share of the page directory is a third of a 2-byte slot (4–8 records per slot).
 */
export function leafFill(f: { rows: number; leafPages: number; entryBytes: number }, pageSize: number): number {
  const usable = usableBytes(pageSize);
  return f.rows > 0 && f.leafPages > 0 ? Math.min(1, Math.max(0.5, (f.rows * (f.entryBytes + 0.33)) / (f.leafPages * usable))) : 15 / 16;
}

/** Records a full leaf holds. */
export function leafCapacity(f: { entryBytes: number }, pageSize: number): number {
  return Math.max(2, Math.floor(usableBytes(pageSize) / (f.entryBytes + 0.33)));
}

/** A seed from what identifies a plan node or a write, so that every run of a statement visits the same pages. */
export function seedOf(parts: Array<string | number>, draw = 0): number {
  let h = 2166136261;
  // Draw 0 is the prediction shown; the others give the band of what the model guesses.
  for (const ch of (draw > 0 ? [...parts, 'draw', draw] : parts).join('\u0000')) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** An average leaf fill this high comes from a sorted build, not from inserts (random keys fill to ln 2, ascending to 15/16). */
const SORTED_BUILD_FILL = 0.96;
/**
 * The same against the clustered index of an AUTO_INCREMENT key (filled ascending, 15/16), computed from
 * the same sampled row count, whose error then cancels: a sorted build measured 6 % fuller (0.971 against
 * 0.914 with the true count; 0.946 against 0.891 where the statistics counted 144,228 of 148,032 rows, which
 * the fill alone took for inserts), a secondary index filled ascending as full as its table. Either test
 * suffices: each rests on an estimate (the row count, the record sizes) the other does not.
 */
const SORTED_BUILD_OVER_ASCENDING = 1.03;

/** The index's cached pages counted by fill, where enough were cached to stand for its leaves. */
export function cachedFillsOf(f: { cachedFills?: number[] }): number[] | undefined {
  const n = f.cachedFills?.reduce((a, b) => a + b, 0) ?? 0;
  return n >= INNODB_CALIBRATION.fillSamplePages ? f.cachedFills : undefined;
}

/** Where the index's cached pages gave each page's fill: how many, and how many of them were full. */
export function fillsNote(f: { cachedFills?: number[] }): string {
  const fills = cachedFillsOf(f);
  if (!fills) return '';
  const n = fills.reduce((a, b) => a + b, 0);
  return ` (each page as full as one of its ${n.toLocaleString('en-US')} cached pages, ${fills[fills.length - 1].toLocaleString('en-US')} of them full, read ` +
    `before run 1)`;
}

/**
 * A secondary index whose leaves average more than random inserts leave (randomFillTo) and less than a sorted
 * build: its pages are the build's full ones and the half-full pairs splits made since (earlier rolled-back
 * inserts whose merges failed, committed writes), so a share 2 × fill − 1 is full, the rest half full. Its
 * key is a secondary one, so no insertion in key order can have filled it. Undefined outside that span.
 * Measured on the schema corpus's seed 1 (a customer index of 307 leaves built by sorting, 359 after earlier
 * measurements, 85 % full): 577 random entries cost 46.5 gets a row, 53 into the 307 full leaves.
 */
function splitSinceBuild(fill: number): number | undefined {
  if (fill < INNODB_CALIBRATION.randomFillTo || fill >= SORTED_BUILD_FILL) return undefined;
  return 2 * fill - 1;
}

type FillFacts = { rows: number; leafPages: number; entryBytes: number };

export function isSortedBuild(f: FillFacts, pageSize: number, clustered?: FillFacts & { autoIncrementKey: boolean }): boolean {
  if (leafFill(f, pageSize) >= SORTED_BUILD_FILL) return true;
  return (
    clustered?.autoIncrementKey === true &&
    clustered.leafPages > 0 &&
    clustered.rows > 0 &&
    leafFill(f, pageSize) / leafFill(clustered, pageSize) >= SORTED_BUILD_OVER_ASCENDING
  );
}

/**
 * The share of a secondary index's leaves that are full, for the inserts that will split them. An index
 * built by sorting (CREATE INDEX; MariaDB fills secondary leaves completely at innodb_fill_factor=100) has
 * every leaf full, less one per page it has grown by since its statistics were taken (each split leaves
 * two half-full pages): more pages of it cached than the statistics count shows that growth. An index
 * fuller than random inserts leave yet short of a sorted build: see splitSinceBuild. Others (random
 * inserts' fill): undefined, their fill is drawn.
 */
export function fullLeafShare(
  f: FillFacts & { sizePages: number; cachedBefore: Array<[number, number]> },
  pageSize: number,
  draw = 0,
  clustered?: FillFacts & { autoIncrementKey: boolean },
): number | undefined {
  if (f.leafPages <= 0) return undefined;
  if (!isSortedBuild(f, pageSize, clustered)) return splitSinceBuild(leafFill(f, pageSize));
  const cached = f.cachedBefore.reduce((a, [s, e]) => a + e - s + 1, 0);
  const grown = Math.max(0, cached - Math.max(0, f.sizePages - f.leafPages) - f.leafPages);
  const share = Math.max(0, Math.min(1, (f.leafPages - grown) / f.leafPages));
  // With fewer of its pages cached than it has leaves, an index's growth cannot show: half the draws take
  // half its leaves as split since (measured after a mixed workload's committed updates: about half).
  return cached < f.leafPages && draw % 2 === 1 ? share / 2 : share;
}
