// Where a relation's blocks are in the PostgreSQL simulation, and the shape of a B-tree from its size.
import type { PgRelationFacts } from './facts';

/** Page id of block b of relation number r. Relations up to 2^24 blocks (128 GiB) are told apart. */
export const pageId = (relation: number, block: number): number => relation * 0x1000000 + Math.min(block, 0xffffff);
export const relationOf = (page: number): number => Math.floor(page / 0x1000000);

/** An int or text B-tree entry is small; 256 entries per internal page is a fair average. */
const BTREE_FANOUT = 256;

/** Block 0 is the metapage, then the root and internal pages, then the leaves (as a fresh build lays them out). */
export function indexGeometry(f: PgRelationFacts): { leafPages: number; height: number; firstLeaf: number } {
  const internal = Math.max(0, Math.ceil(f.pages / BTREE_FANOUT) - 1);
  const leafPages = Math.max(1, f.pages - 1 - internal);
  const height = leafPages <= 1 ? 1 : 1 + Math.ceil(Math.log(leafPages) / Math.log(BTREE_FANOUT));
  return { leafPages, height, firstLeaf: 1 + internal + (leafPages > 1 ? 1 : 0) };
}

/** The pages a descent from the root passes before the leaf level. */
export function descentPages(relation: number, height: number): number[] {
  if (height <= 1) return [];
  const out = [pageId(relation, 1)];
  for (let level = 2; level < height; level++) out.push(pageId(relation, 1 + level));
  return out;
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
