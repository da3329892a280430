// The page requests of an INSERT on InnoDB, row by row, and of its rollback (row_ins_clust_index_entry,
// row_ins_sec_index_entry, trx_undo_report_row_operation; row_undo_ins in reverse order):
// - the clustered index: a descent, then the right-most leaf for an AUTO_INCREMENT key (a new page is
//   created, not read, each time one fills) or a random leaf otherwise;
// - each secondary index: a descent, then the leaf the key falls on, which the change buffer may take
//   instead (non-unique index, page not cached); keys are taken as uncorrelated with the index order;
// - the undo log: one page per so many records, created as the log grows;
// - a rollback reads every touched page again, newest row first, merging buffered entries on the way.
// The keys are drawn with a seed from the table and the row count, so every run inserts the same ones.
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import { SeededRandom } from '../../sim/random';
import type { InnodbIndexFacts, InsertRun } from './facts';
import { fullLeafShare, leafCapacity, leafFill, seedOf, usableBytes, type IndexPages } from './index-pages';
import { LeafSplits } from './leaf-splits';
import { FRESH_PAGE_ASSUMPTION, INSERT_UNDO_CLUSTERED_GETS, ROLLBACK_GETS, descend as descendIndex, mergeLeaf, splitLeaf } from './row-costs';
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
  splits: LeafSplits[];
  perNewPage: number;
  perUndoPage: number;
  random: SeededRandom;
  log: ReturnType<UndoLogs['begin']>;
  spaceBase: number;
  clusteredLeaf: Int32Array;
  secondaryLeaf: Int32Array[];
  /** Per row and secondary index: the leaf's key order position when the entry split it, else -1. */
  splitAt: Int32Array[];
  assumptions: Set<string>;
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
  const where = c.autoIncrementKey
    ? `appended at the right-most leaf, a new page created every ${perNewPage.toLocaleString('en-US')} rows`
    : 'each into a random leaf (the key is not AUTO_INCREMENT)';
  assumptions.add(
    `${c.reportName}: ${run.rows.toLocaleString('en-US')} rows inserted (${run.rowsFrom}); ${where}; an undo page per ${perUndoPage.toLocaleString('en-US')} rows`,
  );
  for (const { f } of secondary) {
    assumptions.add(
      `${f.reportName}: each entry lands on a random one of ${f.leafPages.toLocaleString('en-US')} leaf pages (keys uncorrelated with the index order), ` +
        `${Math.round(leafFill(f, pageSize) * 100)} % full on average, split when full${f.unique ? '; UNIQUE, so never change-buffered' : ''}`,
    );
  }
  const splits = secondary.map(
    ({ f, i }) =>
      new LeafSplits(
        leafCapacity(f, pageSize),
        leafFill(f, pageSize),
        layout(i).newPages,
        layout(i).leaves,
        seedOf([f.reportName, run.rows], draw),
        fullLeafShare(f, pageSize, draw, c),
      ),
  );
  const log = undo.begin(pool, draw);
  assumptions.add(undo.assumption());
  const trace: InsertTrace = {
    pool,
    layout,
    run,
    c,
    cl,
    secondary,
    splits,
    perNewPage,
    perUndoPage,
    random,
    log,
    spaceBase: clustered.i * SPACE,
    clusteredLeaf: new Int32Array(run.rows),
    secondaryLeaf: secondary.map(() => new Int32Array(run.rows)),
    splitAt: secondary.map(() => new Int32Array(run.rows).fill(-1)),
    assumptions,
  };
  for (let r = 0; r < run.rows; r++) insertRow(trace, r);
  if (run.rolledBack) rollBack(trace);
  return true;
}

function insertRow(t: InsertTrace, r: number): void {
  const { pool, cl, c, log, perNewPage, perUndoPage } = t;
  descendIndex(pool, cl);
  if (c.autoIncrementKey && r === 0) {
    // The first row goes to the existing right-most leaf; the rows after it fill new pages.
    t.clusteredLeaf[r] = cl.lastLeaf;
    pool.modify(t.clusteredLeaf[r]);
  } else if (c.autoIncrementKey) {
    const page = cl.newPages + Math.floor((r - 1) / perNewPage);
    if ((r - 1) % perNewPage === 0) pool.create(page);
    else pool.modify(page);
    t.clusteredLeaf[r] = page;
  } else {
    t.clusteredLeaf[r] = cl.leaves(t.random.int(Math.max(1, c.leafPages)));
    pool.modify(t.clusteredLeaf[r]);
  }
  const undoPage = log.page(Math.floor(r / perUndoPage));
  // A created first page is in the pool already; a reused one is requested (read where not cached).
  if (r === 0 && log.paged) {
    if (log.reused) pool.modify(undoPage);
  } else if (r % perUndoPage === 0) pool.create(undoPage);
  else pool.modify(undoPage);
  t.secondary.forEach(({ f, i }, k) => {
    const l = t.layout(i);
    descendIndex(pool, l);
    const key = t.random.int(Math.max(1, f.leafPages));
    const leaf = t.splits[k].pageFor(key);
    t.secondaryLeaf[k][r] = leaf;
    pool.modifySecondaryLeaf(leaf, !f.unique);
    // Written into the page (it was cached, or read): it may have to split. A buffered entry waits.
    if (pool.contains(leaf)) {
      const added = t.splits[k].apply(key, leaf);
      if (added >= 0) {
        splitLeaf(pool, l, leaf, key, added, t.spaceBase, true);
        t.assumptions.add(FRESH_PAGE_ASSUMPTION);
        t.splitAt[k][r] = key;
      }
    }
  });
}

function rollBack(t: InsertTrace): void {
  const { pool } = t;
  t.assumptions.add(
    'the rollback removes each row again, newest first: every page the rows touched is requested again (buffered changes are merged when their page is read); ' +
      'the pages the inserts created are freed',
  );
  pool.residentHits(ROLLBACK_GETS);
  for (let r = t.run.rows - 1; r >= 0; r--) {
    pool.modify(t.log.page(Math.floor(r / t.perUndoPage)));
    t.secondary.forEach(({ i }, k) => {
      descendIndex(pool, t.layout(i));
      pool.removeSecondaryEntry(t.secondaryLeaf[k][r]);
      if (t.splitAt[k][r] >= 0) mergeLeaf(pool, t.layout(i), t.secondaryLeaf[k][r], t.splitAt[k][r], t.spaceBase);
    });
    descendIndex(pool, t.cl);
    pool.modify(t.clusteredLeaf[r]);
    pool.residentHits(INSERT_UNDO_CLUSTERED_GETS);
  }
}
