// The page requests of what an UPDATE or DELETE changes on InnoDB, after its scan found the rows, and of
// the rollback BufferLens performs (row_upd_clust_step, row_upd_sec_index_entry, row_undo_mod):
// - each row's clustered record is changed in place on the leaf the scan holds, with an undo record;
// - each secondary index whose key changes (a DELETE: every one) has its old entry delete-marked, and an
//   UPDATE inserts the new entry, on the old entry's leaf for `col = col ± …`, on a random leaf otherwise;
//   a full leaf splits;
// - the rollback reads each undo record, searches the clustered record again, removes the new entries
//   (merging a split's half back, or trying to where the removal leaves a page under half full) and
//   clears the delete marks, newest row first; each row's clustered leaf is the one its read found it on.
// The old entries lie where the rows' values put them, where those were read after the runs (written keys);
// otherwise which rows (so which secondary leaves) are drawn with a seed from the table and the row count.
// A DELETE's search of each row again, and an UPDATE's read of each row again by position where it collects
// the positions first, are in the read replay (lookup-trace.ts, full-scan.ts).
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import { SeededRandom } from '../../sim/random';
import { keyRangeName, type InnodbIndexFacts, type RowWrite } from './facts';
import { cachedFillsOf, fillsNote, fullLeafShare, leafCapacity, leafFill, seedOf, type IndexPages } from './index-pages';
import { LeafSplits, mergeLimit } from './leaf-splits';
import { ROLLBACK_GETS, UNDO_PAGE_BACK_GETS, descend, failedMerge, mergeLeaf, splitLeaf, undoPageBytes } from './row-costs';
import type { UndoLogs } from './undo-log';

interface Changed {
  f: InnodbIndexFacts;
  l: IndexPages;
  /** The new key lands next to the old one (`SET k = k + 1`). */
  nearOld: boolean;
  /** The rows' values of the index's first column, read after the runs (writtenKeys), with the column's ends. */
  placed?: { values: number[]; lo: number; hi: number };
}

/** The rows' secondary keys as read after the runs, and their columns' ends, by keyRangeName. */
export interface WrittenKeyPlaces {
  keys: Record<string, number[]>;
  ranges: Record<string, [number, number]>;
}

/**
 * An undo record of a row change (trx_undo_page_report_modify): its header, type, undo number, table id and
 * info bits, the transaction id and roll pointer, the primary key and, per changed column, its number,
 * length and old value; a DELETE keeps the secondary keys' columns, for purge to find their entries.
 */
function undoRecordBytes(f: InnodbIndexFacts, w: RowWrite, secondaryKeyBytes: number): number {
  const HEADER = 24;
  if (w.statement === 'DELETE') return HEADER + f.keyBytes + secondaryKeyBytes;
  const columns = w.setColumns ?? Object.keys(f.columnBytes ?? {});
  const bytesOf = (c: string) => Object.entries(f.columnBytes ?? {}).find(([k]) => k.toLowerCase() === c.toLowerCase())?.[1] ?? 8;
  return HEADER + f.keyBytes + columns.reduce((a, c) => a + 3 + bytesOf(c), 0);
}

/** One replayed row write: the indexes whose key changes, and per row what the rollback must undo. */
interface RowWriteTrace {
  pool: InnodbPool;
  w: RowWrite & { rows: number };
  changed: Changed[];
  splits: LeafSplits[];
  random: SeededRandom;
  space: number;
  /** Per row and changed index: [old entry's leaf index, its page, new entry's leaf index, its page, the page its split added or -1]. */
  touched: Array<Array<[number, number, number, number, number]>>;
  undoPage: (r: number) => number;
  rowLeaf?: (r: number) => number;
  perUndoPage: number;
}

export function replayRowWrite(
  pool: InnodbPool,
  facts: InnodbIndexFacts[],
  layout: (i: number) => IndexPages,
  spaceBase: (i: number) => number,
  undo: UndoLogs,
  w: RowWrite & { rows: number },
  nearOld: (column: string) => boolean,
  pageSize: number,
  assumptions: Set<string>,
  draw = 0,
  written: WrittenKeyPlaces = { keys: {}, ranges: {} },
  /** Row r → the clustered leaf its read found it on (row-leaves.ts), where the reads were replayed. */
  rowLeaf?: (r: number) => number,
): boolean {
  const c = facts.findIndex((f) => f.table === w.table && f.clustered);
  if (c < 0) return false;
  const set = w.setColumns?.map((x) => x.toLowerCase());
  const changed = changedIndexes(facts, layout, w, set, nearOld).map((x) => withWrittenKeys(x, written));
  const cl = layout(c);
  const primaryChanges = w.statement === 'UPDATE' && set !== undefined && (facts[c].keyColumns ?? []).some((k) => set.includes(k.toLowerCase()));
  if (primaryChanges)
    assumptions.add(
      `${w.table}: the UPDATE assigns a primary-key column, which InnoDB carries out as a delete and an insert of the clustered record; the ` +
        `model changes it in place (a lower bound)`,
    );
  const random = new SeededRandom(seedOf([w.table, w.statement, w.rows], draw));
  const splits = changed.map(
    ({ f, l }) =>
      new LeafSplits(
        leafCapacity(f, pageSize),
        leafFill(f, pageSize),
        l.newPages,
        l.leaves,
        seedOf([f.reportName, w.rows], draw),
        fullLeafShare(f, pageSize, draw, facts[c]),
        mergeLimit(f.entryBytes, pageSize),
        cachedFillsOf(f),
      ),
  );
  const secondaryKeyBytes = facts.filter((f) => f.table === w.table && !f.clustered).reduce((a, f) => a + f.keyBytes - facts[c].keyBytes, 0);
  const perUndoPage = Math.max(1, Math.floor(undoPageBytes(pageSize) / undoRecordBytes(facts[c], w, Math.max(0, secondaryKeyBytes))));
  const log = undo.begin(pool, draw);
  const undoPage = (r: number) => log.page(Math.floor(r / perUndoPage));
  assumptions.add(undo.assumption());
  const touched = changed.map(() => new Array<[number, number, number, number, number]>(w.rows));
  const trace: RowWriteTrace = { pool, w, changed, splits, random, space: spaceBase(c), touched, undoPage, perUndoPage, rowLeaf };
  for (let r = 0; r < w.rows; r++) {
    // The record on the leaf the scan holds is changed in place; its undo record is appended to the
    // log's last page, or to a page the log grows by.
    if (r > 0 && r % perUndoPage === 0) undo.grow(pool, undoPage(r));
    else pool.modify(undoPage(r));
    writeRow(trace, r);
  }
  assumptions.add(writeAssumption(w, changed, perUndoPage));
  if (!w.rolledBack) return true;
  rollBack(trace, cl, assumptions);
  return true;
}

/** The secondary indexes whose key the write changes (a DELETE: every one). */
function changedIndexes(
  facts: InnodbIndexFacts[],
  layout: (i: number) => IndexPages,
  w: RowWrite,
  set: string[] | undefined,
  nearOld: (column: string) => boolean,
): Changed[] {
  const changed: Changed[] = [];
  facts.forEach((f, i) => {
    if (f.table !== w.table || f.clustered) return;
    const keyChanges = w.statement === 'DELETE' || set === undefined || (f.keyColumns ?? []).some((k) => set.includes(k.toLowerCase()));
    if (keyChanges)
      changed.push({ f, l: layout(i), nearOld: w.statement === 'UPDATE' && (f.keyColumns ?? []).every((k) => !set?.includes(k.toLowerCase()) || nearOld(k)) });
  });
  return changed;
}

/** The index's entries placed by the rows' values where they were read and the column's ends are apart. */
function withWrittenKeys(x: Changed, written: WrittenKeyPlaces): Changed {
  const name = x.f.keyColumns?.[0] ? keyRangeName(x.f.table, x.f.keyColumns[0]) : undefined;
  const values = name ? written.keys[name] : undefined;
  const span = name ? written.ranges[name] : undefined;
  if (!values?.length || !span || span[1] <= span[0]) return x;
  return { ...x, placed: { values, lo: span[0], hi: span[1] } };
}

/**
 * Row r's entry in a changed index: where its value lies between the column's ends, each value's entries
 * spread over its share of the leaves in an order no statistic gives (the primary key's), so drawn within
 * it; a row beyond the values read, or an index without them, on a random leaf.
 */
function oldEntryLeaf(x: Changed, r: number, random: SeededRandom): number {
  const leaves = Math.max(1, x.f.leafPages);
  const v = x.placed && r < x.placed.values.length ? x.placed.values[r] : undefined;
  if (v === undefined || !x.placed) return random.int(leaves);
  const { lo, hi } = x.placed;
  const at = (Math.min(Math.max(v, lo), hi) - lo + random.next()) / (hi - lo + 1);
  return Math.min(leaves - 1, Math.floor(at * leaves));
}

function writeRow(t: RowWriteTrace, r: number): void {
  const { pool, w, random, splits } = t;
  t.changed.forEach((x, k) => {
    const { f, l, nearOld } = x;
    const oldKey = oldEntryLeaf(x, r, random);
    const oldPage = splits[k].pageFor(oldKey);
    descend(pool, l);
    pool.modify(oldPage);
    if (w.statement === 'DELETE') {
      t.touched[k][r] = [oldKey, oldPage, -1, -1, -1];
      return;
    }
    const newKey = nearOld ? oldKey : random.int(Math.max(1, f.leafPages));
    const newPage = splits[k].pageFor(newKey);
    descend(pool, l);
    pool.modify(newPage);
    const added = splits[k].apply(newKey, newPage);
    if (added >= 0) splitLeaf(pool, l, newPage, newKey, added, t.space);
    t.touched[k][r] = [oldKey, oldPage, newKey, newPage, added];
  });
}

function writeAssumption(w: RowWrite & { rows: number }, changed: Changed[], perUndoPage: number): string {
  const names = changed.map(({ f }) => f.reportName).join(', ');
  const near = changed.some((x) => x.nearOld) ? ' (the new key next to the old one, as the SET clause adds to the column)' : '';
  const placed = changed.filter((x) => x.placed);
  const byValue =
    `placed by each row's value between the column's lowest and highest ` +
    `(${(placed[0]?.placed?.values.length ?? 0).toLocaleString('en-US')} rows' ` +
    `values read after the last run), drawn within the value's leaves`;
  const where =
    placed.length === 0
      ? 'on a random leaf per row'
      : placed.length === changed.length
        ? byValue
        : `in ${placed.map(({ f }) => f.reportName).join(', ')} ${byValue}, elsewhere on a random leaf per row`;
  const secondary = changed.length
    ? `; ${w.statement === 'DELETE' ? 'its entry delete-marked in' : 'the changed key delete-marked and inserted again in'} ${names}, ` +
      `${where}${near}; a full leaf splits${changed.map(({ f }) => fillsNote(f)).join('')}`
    : w.statement === 'UPDATE'
      ? '; no indexed column changes (the SET clause), so no secondary index is touched'
      : '';
  return (
    `${w.table}: ${w.rows.toLocaleString('en-US')} rows ${w.statement === 'DELETE' ? 'deleted' : 'updated'} (${w.rowsFrom ?? 'counted'}), ` +
    `each changed in place in the clustered index with an undo record (${perUndoPage.toLocaleString('en-US')} to an undo page, pages of the ` +
    `pool like any other)` +
    secondary
  );
}

/**
 * A new entry removed again: the split it made merged back, or, where the removal leaves its page below the
 * merge limit, a merge tried and given up (as an INSERT's rollback does, insert-trace.ts). Measured on MariaDB
 * 10.11, an UPDATE of n = 1 to 50 rows moving their entries within one full leaf of a sorted-built index of
 * height 2, against the same rows' UPDATE of a column no index holds: the rollback took 5n + 12 + 8 × min(n − 1,
 * 13) gets more (a row's walks and its clustered check, the merge, and a merge tried and given up at each
 * removal until the split's halves held more than the merge limit).
 */
function removeEntry(t: RowWriteTrace, k: number, page: number, key: number, added: number): void {
  const { l } = t.changed[k];
  if (added >= 0) {
    mergeLeaf(t.pool, l, page, key, t.space);
    t.splits[k].merged(page, added);
  } else if (t.splits[k].removeBelowLimit(page)) failedMerge(t.pool, l, page, key);
}

function rollBack(t: RowWriteTrace, cl: IndexPages, assumptions: Set<string>): void {
  const { pool, w, perUndoPage } = t;
  assumptions.add(
    'the rollback reads each undo record, searches the clustered record again and restores it, removes the new secondary entries (merging split pages back) ' +
      'and clears the delete marks, newest row first',
  );
  pool.residentHits(ROLLBACK_GETS);
  for (let r = w.rows - 1; r >= 0; r--) {
    if (r < w.rows - 1 && r % perUndoPage === perUndoPage - 1) pool.residentHits(UNDO_PAGE_BACK_GETS);
    pool.access(t.undoPage(r));
    descend(pool, cl);
    // The row's leaf, which may have left the pool since its read found it: as a request where the read is known.
    if (t.rowLeaf) pool.modify(t.rowLeaf(r));
    else pool.residentHits(1);
    t.changed.forEach(({ l }, k) => {
      const [, oldPage, newKey, newPage, added] = t.touched[k][r];
      if (newPage >= 0) {
        descend(pool, l);
        pool.modify(newPage);
        // Whether an older version still needs the new entry is asked of the clustered record, whose leaf
        // this row's undo has just restored (row_undo_mod_del_mark_or_remove_sec_low: restore_position).
        pool.residentHits(1);
        removeEntry(t, k, newPage, newKey, added);
      }
      descend(pool, l);
      pool.modify(oldPage);
    });
  }
}
