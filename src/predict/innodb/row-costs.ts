// Page gets of InnoDB's row operations beyond the B-tree walks the traces replay page by page: a
// transaction's first write, a leaf split and the merge its rollback makes, a table's first open. Each
// walk over a real page of the model (siblings, the tablespace header) is an access, so a cold pool reads
// it; what stays in memory on a server (the data dictionary, the rollback segments) counts as hits.
// The remaining counts are calibration.ts's, measured on MariaDB 10.11, with their provenance there.
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import type { IndexPages } from './index-pages';
import { INNODB_CALIBRATION } from './calibration';

/** What a rollback reads before it undoes a record: the undo log's header and the segment's. */
export const ROLLBACK_GETS = INNODB_CALIBRATION.rollbackGets;
/**
 * A rollback stepping back onto the undo log's page before (the log header and the previous page's list
 * node): a 1,000-row UPDATE of a 120-byte column wrote 10 undo pages and took 1,070–1,079 gets, its
 * rollback 4,083, where 1 per row and 4 per row undone are walked (2,000 rows: 8,164). Growing the log is
 * in undo-log.ts.
 */
export const UNDO_PAGE_BACK_GETS = INNODB_CALIBRATION.undoPageBackGets;
/** Bytes of an undo page that hold records: less the file header and trailer, the page's and the log's headers. */
export function undoPageBytes(pageSize: number): number {
  return pageSize - 200;
}
/**
 * Gets of a split beyond the pages walked (a 1-row INSERT: 20 gets with one split, 9 without; 100
 * random-key inserts, 67–73 splits, measured to within 4 %). The new page's creation is one of them.
 */
const SPLIT_OTHER_GETS = INNODB_CALIBRATION.splitOtherGets;
/** Gets of a merge beyond the pages walked (the rollback of the same: 24–26 gets with one merge, 13 without), failed merge attempts included. */
const MERGE_OTHER_GETS = INNODB_CALIBRATION.mergeOtherGets;
/** Rolling back an inserted clustered record: searched for again and removed, beyond the walk (7.4 measured per row, 4 walked). */
export const INSERT_UNDO_CLUSTERED_GETS = INNODB_CALIBRATION.insertUndoClusteredGets;
/** Opening a table: its definition from the dictionary tables and its persistent statistics, beyond its clustered index's walk. */
const OPEN_DICTIONARY_GETS = INNODB_CALIBRATION.openDictionaryGets;

export function descend(pool: InnodbPool, l: IndexPages, leaf?: number): void {
  pool.access(l.root);
  for (const p of leaf === undefined ? l.internal : l.pathTo(leaf)) pool.access(p);
}

/** The tablespace's header and segment-inode pages (0 and 2), which allocating or freeing a page reads. */
function touchSpaceHeader(pool: InnodbPool, spaceBase: number): void {
  pool.access(spaceBase);
  pool.access(spaceBase + 2);
}

/**
 * A split's page taken from the file's free space, beyond one a rollback freed in the same place: a run
 * that splits a leaf the previous run's rollback merged back takes the freed page again, the first run
 * allocates one no page of the pool held (INNODB_METRICS buffer_pages_created +1 on run 1 only). Measured
 * on MariaDB 10.11 with the tablespace's header pages cached: a single-row INSERT 47 gets on run 1 against 44
 * on runs 2–3, and 49 against 46 in the corpus's warm 128 MiB pool. An UPDATE's split of a secondary leaf
 * measured the same on all three runs (44 gets, warm 128 MiB), so only an INSERT's splits count it. Where
 * an earlier rollback freed a page of the segment, run 1 may take that one instead (a server that had not
 * been restarted since the load measured 42–45 gets on every run): no view shows it, and the assumptions
 * say so.
 */
const FRESH_PAGE_GETS = INNODB_CALIBRATION.freshPageGets;
export const FRESH_PAGE_ASSUMPTION =
  `a split's new page comes from the file's free space the first time (${FRESH_PAGE_GETS} gets more); later runs ` +
  "take back the page the previous run's rollback freed. Where an earlier rollback freed a page of the index, the first run may take " +
  'that one instead, which no view shows';
/** The pages each simulated pool's splits have allocated: a later split of the same place reuses its page. */
const allocated = new WeakMap<InnodbPool, Set<number>>();

/**
 * btr_page_split_and_insert: the insert retried under the tree latch (a descent to the full leaf), the
 * leaf's neighbours, the space header for a new page, the new page created, the parent updated.
 */
export function splitLeaf(pool: InnodbPool, l: IndexPages, leaf: number, leafIndex: number, created: number, spaceBase: number, countFresh = false): void {
  descend(pool, l);
  pool.access(leaf);
  pool.access(l.leaves(leafIndex - 1));
  pool.access(l.leaves(leafIndex + 1));
  touchSpaceHeader(pool, spaceBase);
  pool.create(created);
  pool.access(l.root);
  pool.residentHits(SPLIT_OTHER_GETS);
  if (!countFresh) return;
  let pages = allocated.get(pool);
  if (!pages) allocated.set(pool, (pages = new Set()));
  if (!pages.has(created)) {
    pages.add(created);
    pool.residentHits(FRESH_PAGE_GETS);
  }
}

/** btr_compress after a rollback empties the split's half again: the same walk, the page freed. */
export function mergeLeaf(pool: InnodbPool, l: IndexPages, leaf: number, leafIndex: number, spaceBase: number): void {
  descend(pool, l);
  pool.access(leaf);
  pool.access(l.leaves(leafIndex - 1));
  pool.access(l.leaves(leafIndex + 1));
  touchSpaceHeader(pool, spaceBase);
  pool.access(l.root);
  pool.residentHits(MERGE_OTHER_GETS);
}

/**
 * A removal that leaves its page below the merge limit (btr_cur_optimistic_delete declines it): the delete
 * retried under the tree latch (a descent, the leaf and its neighbours), then btr_compress finds the page's
 * parent (a descent to it) and checks the neighbours, which hold too much to take the page's records. Measured
 * on MariaDB 10.11 (a secondary index of height 2 built by sorting, 550 random keys inserted and rolled back):
 * 466 failed attempts beside 82 merges took 3,321 gets beyond the rows' own walks, 7.1 each; 7 are walked here.
 */
export function failedMerge(pool: InnodbPool, l: IndexPages, leaf: number, leafIndex: number): void {
  descend(pool, l);
  pool.access(leaf);
  pool.access(l.leaves(leafIndex - 1));
  pool.access(l.leaves(leafIndex + 1));
  descend(pool, l);
  pool.access(l.leaves(leafIndex - 1));
  pool.access(l.leaves(leafIndex + 1));
}

/**
 * The first statement after a restart opens the table: its definition and statistics from the
 * dictionary (cached), its clustered index's root, and one get per index and per level of the clustered
 * tree (a table of 1, 2 and 4 indexes took 11, 12 and 14 gets at height 3, one of 1 index 10 at height 2).
 */
export function openTable(pool: InnodbPool, clustered: IndexPages, indexes: number): void {
  pool.access(clustered.root);
  pool.residentHits(openGets(clustered, indexes) - 1);
}

/** All page gets of opening a table, its root's included. */
export function openGets(clustered: IndexPages, indexes: number): number {
  return OPEN_DICTIONARY_GETS + indexes + clustered.internal.length + 2;
}
