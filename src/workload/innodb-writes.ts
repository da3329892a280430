// What an InnoDB workload's writes request beyond their row's search, for innodb-model.ts: the secondary
// entries a row change touches, the splits of full secondary leaves, and the purge that later removes what
// the writes delete-marked.
import type { IndexPath, LeafSplitPages } from './layout';
import type { AccessShape, SecondaryEntries } from './shapes';
import { assignedColumns } from './statement-text';
import { INNODB_CALIBRATION } from '../predict/innodb/calibration';

export const PURGE_NOTE = "the transaction's undo log read back and, where the write delete-marked an entry or a row, the row found again and those removed";

/**
 * What purge requests for a write's rows (row_purge) where it removes something — a delete-marked secondary
 * entry (an UPDATE of an indexed column, a DELETE) or a deleted row: the clustered record found again, each
 * such entry found and removed (with a merge attempt on a half-full leaf, shapes.ts), and a deleted row's
 * clustered record removed. Its reads of the undo log are a get per page, not per record, once per
 * transaction (innodb-model.ts): pgbench tpcb-like, whose updates change no indexed column, measured
 * 20.1-20.8 gets per transaction on MariaDB 10.11 where a get per record read back predicted 23. sysbench
 * oltp_read_write measured 94.4 gets per transaction with purge held back by an open snapshot and 117.7
 * with it running.
 */
export function purgeOf(access: AccessShape, entries: SecondaryEntries, deletes: boolean): AccessShape[] {
  if ((access.kind !== 'lookup' && access.kind !== 'range') || (!deletes && entries.length === 0)) return [];
  const find = { ...access, rewrites: 0, entries: undefined, dive: undefined, limit: access.limit };
  const removed = entries.map((e) => ({ index: e.index, descents: 1, removes: true }));
  return [{ ...find, ...(removed.length ? { entries: removed } : {}) }, ...(deletes ? [find] : [])];
}

/**
 * The secondary entries a written row changes (row_upd_sec_index_entry): an UPDATE's of the indexes on a
 * column it assigns, the old entry delete-marked and the new one inserted (two descents); a DELETE's of
 * every secondary index, delete-marked (one).
 */
export function changedEntries(secondaries: Array<{ path: IndexPath; columns: string[] }>, text: string): SecondaryEntries {
  if (/^\s*delete\b/i.test(text)) return secondaries.map((ix) => ({ index: ix.path, descents: 1 }));
  const assigned = new Set(assignedColumns(text));
  return secondaries.filter((ix) => ix.columns.some((c) => assigned.has(c))).map((ix) => ({ index: ix.path, descents: 2 }));
}

/**
 * A split of a full leaf (btr_page_split_and_insert) and a merge attempt on a half-full one (purge removing
 * an entry: btr_compress), as the per-statement model replays them (predict/innodb/row-costs.ts splitLeaf,
 * mergeLeaf). The new page `newPage(k)` is created in the pool without a read; here its first request reads it.
 */
export function leafSplits(path: IndexPath, newPage: (k: number) => number, spaceHeader: number): LeafSplitPages {
  const root: number[] = [];
  path.path(0, root);
  // The tree path again to the leaf, its neighbours, the tablespace's header pages, the parent, and the
  // gets beyond the walk, which hit pages that stay cached.
  const treePath = (k: number, otherGets: number, out: number[]) => {
    path.path((k + 0.5) / path.leafPages, out);
    if (k > 0) out.push(path.leaf(k - 1));
    if (k + 1 < path.leafPages) out.push(path.leaf(k + 1));
    out.push(spaceHeader, spaceHeader + 2, root[0]);
    for (let i = 0; i < otherGets; i++) out.push(spaceHeader);
  };
  return {
    newPage,
    requests: (k, out) => treePath(k, INNODB_CALIBRATION.splitOtherGets, out),
    merge: (k, out) => treePath(k, INNODB_CALIBRATION.mergeOtherGets, out),
  };
}
