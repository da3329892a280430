// Where a relation's blocks are in the PostgreSQL simulation, and the shape of a B-tree from its size.
import { PG_CALIBRATION } from './calibration';
import type { PgRelationFacts } from './facts';

/** Page id of block b of relation number r. Relations up to 2^24 blocks (128 GiB) are told apart. */
export const pageId = (relation: number, block: number): number => relation * 0x1000000 + Math.min(block, 0xffffff);
export const relationOf = (page: number): number => Math.floor(page / 0x1000000);

/** Where the key's width is not known (text, several columns): 256 entries per internal page, a fair average. */
const BTREE_FANOUT = 256;
/** Bytes of an 8 kB B-tree page for items and their line pointers. */
const PAGE_SPACE = 8192 - 24 - 16;

/**
 * Entries an internal page holds. One integer column: a pivot is its key in 16 bytes plus a line pointer,
 * 407 to a full page; another fixed-width key as its bytes give (a UUID: 24 bytes, 291). An ascending key
 * grows the tree at its right edge, and an internal page splits only when full; other trees (a sorted build
 * leaves them 70 % full, random inserts about as full once split) hold 285 (see rootHoldsUpTo).
 */
function internalFanout(f: PgRelationFacts): number {
  const full = fullFanout(f);
  if (full === undefined) return BTREE_FANOUT;
  return f.ascending ? full : Math.floor(0.7 * full);
}

/** Entries a full page of the index holds, where its key's width is known: a leaf's and a pivot's are alike. */
function fullFanout(f: PgRelationFacts): number | undefined {
  const bytes = f.keyBytes ?? f.pivotBytes;
  return bytes ? entriesPerPage(bytes) : undefined;
}

/**
 * An index grown by inserts in random key order (its leaves well below a sorted build's 90 %) splits a
 * page only when it is full: its root holds every leaf until then (60,000 UUID keys, 285 leaves: one root,
 * measured two levels), where a sorted build fills internal pages to 70 % and needs a level more.
 */
function rootHoldsUpTo(f: PgRelationFacts, leafPages: number): number {
  const full = fullFanout(f);
  if (full === undefined || f.ascending || f.tuples <= 0) return 0;
  // A leaf's entries carry every column (an INCLUDE one, a second key): its fill is of those, not of pivots.
  const leafFull = f.leafBytes ? entriesPerPage(f.leafBytes) : full;
  return f.tuples / leafPages < PG_CALIBRATION.randomInsertFill * leafFull ? full : 0;
}

/** Entries of `bytes` data bytes a full 8 kB B-tree page holds: each its header, MAXALIGNed, and a line pointer. */
const entriesPerPage = (bytes: number): number => Math.floor(PAGE_SPACE / (Math.ceil((8 + bytes) / 8) * 8 + 4));

export interface IndexGeometry {
  leafPages: number;
  /** Levels from the root down to the leaves, the leaves included. */
  height: number;
  /** Internal pages per level, the root's first. */
  levels: { pages: number }[];
}

/** Internal pages per level above `leaves` leaves, from the level just above them up to the root. */
function internalLevels(leaves: number, fanout: number, unsplitUpTo = 0): number[] {
  const out: number[] = [];
  for (let n = leaves; n > 1;) out.push((n = n <= unsplitUpTo ? 1 : Math.ceil(n / fanout)));
  return out;
}

/** The shape of a B-tree from its size: the size less the metapage and the internal levels its leaves need. */
export function indexGeometry(f: PgRelationFacts): IndexGeometry {
  const fanout = internalFanout(f);
  // Levels a descent counted after the runs, where read; else as the size and the key's width give them.
  const above = (leaves: number) =>
    f.height !== undefined && f.height >= 1 ? levelsOfHeight(leaves, f.height - 1, fanout) : internalLevels(leaves, fanout, rootHoldsUpTo(f, leaves));
  let leafPages = Math.max(1, f.pages - 1);
  for (let k = 0; k < 4; k++) leafPages = Math.max(1, f.pages - 1 - above(leafPages).reduce((a, b) => a + b, 0));
  const levels = above(leafPages)
    .reverse()
    .map((pages) => ({ pages }));
  return { leafPages, height: 1 + levels.length, levels };
}

/** `n` internal levels above `leaves` leaves, from the level just above them up to the root (one page); each below the root has two pages at least. */
function levelsOfHeight(leaves: number, n: number, fanout: number): number[] {
  const out: number[] = [];
  for (let k = 0, m = leaves; k < n; k++) out.push((m = k === n - 1 ? 1 : Math.max(2, Math.ceil(m / fanout))));
  return out;
}

/**
 * The block of leaf `k` (0-based); block 0 is the metapage. A two-level tree has its root at block 3
 * whichever way it was built (a sorted build begins the root after its first two leaves; inserts split the
 * first leaf into blocks 1 and 2 and put the new root at 3), as pg_buffercache shows. A deeper tree's
 * internal pages are taken to precede its leaves, level by level: where a sorted build interleaves them
 * (after the leaf that needed each), two warm runs of the recorded PostgreSQL 18 corpus, whose indexes were
 * not all built sorted, moved outside 5 %.
 */
export function leafBlock(g: IndexGeometry, k: number): number {
  if (g.height === 2) return k < 2 ? 1 + k : 2 + k;
  return 1 + g.levels.reduce((a, l) => a + l.pages, 0) + k;
}

/** The block of page `p` of the internal level `h` above the leaves (1: just above them). */
function internalBlock(g: IndexGeometry, h: number, p: number): number {
  if (g.height === 2) return TWO_LEVEL_ROOT;
  return 1 + g.levels.slice(0, g.levels.length - h).reduce((a, l) => a + l.pages, 0) + p;
}

const TWO_LEVEL_ROOT = 3;

/** The internal pages a descent from the root passes to reach leaf `leaf` (0-based among the leaves). */
export function descentPages(relation: number, g: IndexGeometry, leaf: number): number[] {
  const at = Math.min(1, Math.max(0, leaf / Math.max(1, g.leafPages)));
  return g.levels.map(({ pages }, i) => pageId(relation, internalBlock(g, g.levels.length - i, Math.min(pages - 1, Math.floor(at * pages)))));
}

/**
 * The share of an index's entries whose heap rows follow one another in block order, from the
 * correlation of its first column (pg_stats, over ANALYZE's sample): its square, except for a heap in key
 * order with a few rows moved elsewhere (updated off their pages), which samples at 0.975 or more: there
 * about (1 − correlation) / 2 of the rows are out of place (measured: 0.9925 after a table-wide update
 * and VACUUM, where a 5,000-row range took 35 requests more than its packed pages, about 18 rows elsewhere,
 * each a request away and one back).
 */
export function orderedShare(correlation: number | null | undefined): number {
  if (correlation === null || correlation === undefined) return 0;
  const sq = correlation * correlation;
  return sq >= 0.95 ? 1 - (1 - Math.abs(correlation)) / 2 : sq;
}
