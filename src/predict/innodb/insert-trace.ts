// The page requests of an INSERT on InnoDB, row by row, and of its rollback (row_ins_clust_index_entry,
// row_ins_sec_index_entry, trx_undo_report_row_operation; row_undo_ins in reverse order):
// - the clustered index: a descent, then the right-most leaf for an AUTO_INCREMENT key or keys all above the
//   index's last (a new page is created, not read, each time one fills), a random leaf otherwise, split when full;
// - each secondary index: a descent, then the leaf the key falls on (a random one, or the edge leaf where every
//   new key lies beyond that edge), which the change buffer may take instead (non-unique index, page not
//   cached); a leaf written into splits when full;
// - the undo log: one page per so many records, created as the log grows;
// - a rollback reads every touched page again, newest row first, merging buffered entries on the way; a split
//   merges back when its pair fits one page again, and each removal before that which leaves a page under
//   half full is a merge tried and given up.
// The keys are drawn with a seed from the table and the row count, so every run inserts the same ones.
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import { SeededRandom } from '../../sim/random';
import type { InnodbIndexFacts, InsertRun } from './facts';
import { cachedFillsOf, fillsNote, fullLeafShare, leafCapacity, leafFill, seedOf, usableBytes, type IndexPages } from './index-pages';
import { LeafSplits, mergeLimit } from './leaf-splits';
import { FRESH_PAGE_ASSUMPTION, INSERT_UNDO_CLUSTERED_GETS, ROLLBACK_GETS, descend as descendIndex, failedMerge, mergeLeaf, splitLeaf } from './row-costs';
import { SPACE } from './index-layout';
import type { UndoLogs } from './undo-log';

/** InnoDB fills pages that are appended to in key order to 15/16 (btr_page_get_split_rec_to_right). */
const APPEND_FILL = 15 / 16;
/** An undo record for an insert: type, undo number, table id, the key's lengths (trx_undo_page_report_insert). */
const UNDO_RECORD_OVERHEAD = 10;

/** One replayed INSERT: its indexes, where each row went, and what the rollback must undo. */
interface InsertTrace {
  pool: InnodbPool;
  layout: (i: number) => IndexPages;
  run: InsertRun;
  c: InnodbIndexFacts;
  cl: IndexPages;
  secondary: Array<{ f: InnodbIndexFacts; i: number }>;
  /** Each secondary index's entries, in the order of `secondary`. */
  entries: IndexEntries[];
  /** The clustered index's records where its key is not AUTO_INCREMENT (each into a random leaf). */
  records: IndexEntries | undefined;
  perNewPage: number;
  perUndoPage: number;
  random: SeededRandom;
  log: ReturnType<UndoLogs['begin']>;
  spaceBase: number;
  clusteredLeaf: Int32Array;
  assumptions: Set<string>;
}

/** Where each row's entry of one index went: its leaf in key order, the page, and the page a split added (-1: none). */
interface IndexEntries {
  l: IndexPages;
  splits: LeafSplits;
  /** Where the keys all fall beyond one edge of the index (read after the runs): the edge leaf, in key order. */
  edge?: number;
  key: Int32Array;
  page: Int32Array;
  added: Int32Array;
}

/** A leaf split model of the index, its pages filled as its fill and build say. */
function splitsArgs(
  f: InnodbIndexFacts,
  l: IndexPages,
  run: InsertRun,
  pageSize: number,
  draw: number,
  full?: number,
): ConstructorParameters<typeof LeafSplits> {
  return [
    leafCapacity(f, pageSize),
    leafFill(f, pageSize),
    l.newPages,
    l.leaves,
    seedOf([f.reportName, run.rows], draw),
    full,
    mergeLimit(f.entryBytes, pageSize),
    cachedFillsOf(f),
  ];
}

/** A secondary index's entries: at a random leaf each, or at the edge all the new keys lie beyond (read after the runs). */
function secondaryEntries(f: InnodbIndexFacts, l: IndexPages, run: InsertRun, pageSize: number, draw: number, c: InnodbIndexFacts): IndexEntries {
  const e = indexEntries(l, new LeafSplits(...splitsArgs(f, l, run, pageSize, draw, fullLeafShare(f, pageSize, draw, c))), run.rows);
  const edge = run.edges?.[f.index];
  if (edge === 'above' || edge === 'below') e.edge = edge === 'above' ? Math.max(0, f.leafPages - 1) : 0;
  return e;
}

function indexEntries(l: IndexPages, splits: LeafSplits, rows: number): IndexEntries {
  return { l, splits, key: new Int32Array(rows), page: new Int32Array(rows), added: new Int32Array(rows).fill(-1) };
}

export function replayInsert(
  pool: InnodbPool,
  facts: InnodbIndexFacts[],
  layout: (i: number) => IndexPages,
  undo: UndoLogs,
  run: InsertRun,
  pageSize: number,
  assumptions: Set<string>,
  draw = 0,
): boolean {
  const indexes = facts.map((f, i) => ({ f, i })).filter(({ f }) => f.table === run.table);
  const clustered = indexes.find(({ f }) => f.clustered);
  if (!clustered) return false;
  const secondary = indexes.filter(({ f }) => !f.clustered);
  const c = clustered.f;
  const cl = layout(clustered.i);
  // New pages fill like the table's existing ones (measured: rows per leaf), or by the row's size at the
  // append fill when the table has no statistics yet.
  const perNewPage =
    c.autoIncrementKey && c.rows > 0 && c.leafPages > 1
      ? Math.max(1, Math.round(c.rows / c.leafPages))
      : Math.max(1, Math.floor((usableBytes(pageSize) * APPEND_FILL) / Math.max(1, c.entryBytes)));
  const perUndoPage = Math.max(1, Math.floor(usableBytes(pageSize) / (UNDO_RECORD_OVERHEAD + c.keyBytes)));
  // The same rows each run (a statement inserts the same keys when it is run again).
  const random = new SeededRandom(seedOf([run.table, run.rows], draw));
  // Keys all above the clustered index's last (read after the runs) are appended as AUTO_INCREMENT ones are.
  const appends = c.autoIncrementKey || run.edges?.[c.index] === 'above';
  const where = appends
    ? `appended at the right-most leaf, a new page created every ${perNewPage.toLocaleString('en-US')} rows`
    : 'each into a random leaf (the key is not AUTO_INCREMENT), split when full; the rollback tries to merge a page it leaves under half full';
  assumptions.add(
    `${c.reportName}: ${run.rows.toLocaleString('en-US')} rows inserted (${run.rowsFrom}); ${where}; an undo page per ` +
      `${perUndoPage.toLocaleString('en-US')} rows`,
  );
  for (const { f } of secondary) assumptions.add(secondaryAssumption(f, run, pageSize));
  const entries = secondary.map(({ f, i }) => secondaryEntries(f, layout(i), run, pageSize, draw, c));
  // Rows filled the clustered leaves in random key order: each is drawn between half full and full around their average.
  const records = appends ? undefined : indexEntries(cl, new LeafSplits(...splitsArgs(c, cl, run, pageSize, draw)), run.rows);
  const log = undo.begin(pool, draw);
  assumptions.add(undo.assumption());
  const trace: InsertTrace = {
    pool,
    layout,
    run,
    c,
    cl,
    secondary,
    entries,
    records,
    perNewPage,
    perUndoPage,
    random,
    log,
    spaceBase: clustered.i * SPACE,
    clusteredLeaf: new Int32Array(run.rows),
    assumptions,
  };
  for (let r = 0; r < run.rows; r++) insertRow(trace, r);
  if (run.rolledBack) rollBack(trace);
  return true;
}

function insertRow(t: InsertTrace, r: number): void {
  const { pool, cl, c, log, perNewPage, perUndoPage } = t;
  descendIndex(pool, cl);
  if (!t.records && r === 0) {
    // The first row goes to the existing right-most leaf; the rows after it fill new pages.
    t.clusteredLeaf[r] = cl.lastLeaf;
    pool.modify(t.clusteredLeaf[r]);
  } else if (!t.records) {
    const page = cl.newPages + Math.floor((r - 1) / perNewPage);
    if ((r - 1) % perNewPage === 0) pool.create(page);
    else pool.modify(page);
    t.clusteredLeaf[r] = page;
  } else {
    const e = t.records!;
    const key = t.random.int(Math.max(1, c.leafPages));
    t.clusteredLeaf[r] = e.page[r] = e.splits.pageFor(key);
    e.key[r] = key;
    pool.modify(e.page[r]);
    write(t, e, r);
  }
  const undoPage = log.page(Math.floor(r / perUndoPage));
  // A created first page is in the pool already; a reused one is requested (read where not cached).
  if (r === 0 && log.paged) {
    if (log.reused) pool.modify(undoPage);
  } else if (r % perUndoPage === 0) pool.create(undoPage);
  else pool.modify(undoPage);
  t.secondary.forEach(({ f }, k) => {
    const e = t.entries[k];
    descendIndex(pool, e.l);
    const key = e.edge ?? t.random.int(Math.max(1, f.leafPages));
    e.key[r] = key;
    e.page[r] = e.splits.pageFor(key);
    pool.modifySecondaryLeaf(e.page[r], !f.unique);
    // Written into the page (it was cached, or read): it may have to split. A buffered entry waits.
    if (pool.contains(e.page[r])) write(t, e, r);
  });
}

function secondaryAssumption(f: InnodbIndexFacts, run: InsertRun, pageSize: number): string {
  const edge = run.edges?.[f.index];
  const buffered = f.unique ? '; UNIQUE, so never change-buffered' : '';
  if (edge === 'above' || edge === 'below')
    return (
      `${f.reportName}: every new key ${edge === 'above' ? 'above its last' : 'below its first'} (read after the runs), so the entries go to ` +
      `the leaf at that edge ` +
      `and the pages its splits add, in no order among themselves (each split in the middle); the rollback tries to merge a page it leaves ` +
      `under half full${buffered}`
    );
  return (
    `${f.reportName}: each entry lands on a random one of ${f.leafPages.toLocaleString('en-US')} leaf pages (keys uncorrelated with the index order), ` +
    `${Math.round(leafFill(f, pageSize) * 100)} % full on average${fillsNote(f)}, split when full; the rollback tries to merge a page it leaves ` +
    `under half full${buffered}`
  );
}

/** An entry written into its page, which splits when full. */
function write(t: InsertTrace, e: IndexEntries, r: number): void {
  const added = e.splits.apply(e.key[r], e.page[r]);
  if (added < 0) return;
  splitLeaf(t.pool, e.l, e.page[r], e.key[r], added, t.spaceBase, true);
  t.assumptions.add(FRESH_PAGE_ASSUMPTION);
  e.added[r] = added;
}

/**
 * An entry removed again: the split it made merged back (its page's data fits one page again), or, where the
 * removal leaves the page below the merge limit, a merge tried and given up.
 */
function unwrite(t: InsertTrace, e: IndexEntries, r: number): void {
  if (e.added[r] >= 0) {
    mergeLeaf(t.pool, e.l, e.page[r], e.key[r], t.spaceBase);
    e.splits.merged(e.page[r], e.added[r]);
  } else if (e.splits.removeBelowLimit(e.page[r])) failedMerge(t.pool, e.l, e.page[r], e.key[r]);
}

function rollBack(t: InsertTrace): void {
  const { pool } = t;
  t.assumptions.add(
    'the rollback removes each row again, newest first: every page the rows touched is requested again (buffered changes are merged when their page is ' +
    'read); ' +
      'the pages the inserts created are freed',
  );
  pool.residentHits(ROLLBACK_GETS);
  for (let r = t.run.rows - 1; r >= 0; r--) {
    pool.modify(t.log.page(Math.floor(r / t.perUndoPage)));
    for (const e of t.entries) {
      descendIndex(pool, e.l);
      pool.removeSecondaryEntry(e.page[r]);
      unwrite(t, e, r);
    }
    descendIndex(pool, t.cl);
    pool.modify(t.clusteredLeaf[r]);
    pool.residentHits(INSERT_UNDO_CLUSTERED_GETS);
    if (t.records) unwrite(t, t.records, r);
  }
}
