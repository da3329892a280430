// The page requests of what an UPDATE or DELETE changes on InnoDB, after its scan found the rows, and of
// the rollback BufferLens performs (row_upd_clust_step, row_upd_sec_index_entry, row_undo_mod):
// - each row's clustered record is changed in place on the leaf the scan holds, with an undo record;
// - each secondary index whose key changes (a DELETE: every one) has its old entry delete-marked, and an
//   UPDATE inserts the new entry, on the old entry's leaf for `col = col ± …`, on a random leaf otherwise;
//   a full leaf splits;
// - the rollback reads each undo record, searches the clustered record again, removes the new entries
//   (merging a split's half back) and clears the delete marks, newest row first.
// Which rows (so which secondary leaves) are drawn with a seed from the table and the row count.
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import { SeededRandom } from '../../sim/random';
import type { InnodbIndexFacts, RowWrite } from './facts';
import { fullLeafShare, leafCapacity, leafFill, seedOf, type IndexPages } from './index-pages';
import { LeafSplits } from './leaf-splits';
import { FIRST_WRITE_GETS, ROLLBACK_GETS, descend, mergeLeaf, splitLeaf } from './row-costs';

interface Changed {
  f: InnodbIndexFacts;
  l: IndexPages;
  /** The new key lands next to the old one (`SET k = k + 1`). */
  nearOld: boolean;
}

export function replayRowWrite(
  pool: InnodbPool,
  facts: InnodbIndexFacts[],
  layout: (i: number) => IndexPages,
  spaceBase: (i: number) => number,
  w: RowWrite & { rows: number },
  nearOld: (column: string) => boolean,
  pageSize: number,
  assumptions: Set<string>,
  draw = 0,
): boolean {
  const c = facts.findIndex((f) => f.table === w.table && f.clustered);
  if (c < 0) return false;
  const set = w.setColumns?.map((x) => x.toLowerCase());
  const changed: Changed[] = [];
  facts.forEach((f, i) => {
    if (f.table !== w.table || f.clustered) return;
    const keyChanges = w.statement === 'DELETE' || set === undefined || (f.keyColumns ?? []).some((k) => set.includes(k.toLowerCase()));
    if (keyChanges) changed.push({ f, l: layout(i), nearOld: w.statement === 'UPDATE' && (f.keyColumns ?? []).every((k) => !set?.includes(k.toLowerCase()) || nearOld(k)) });
  });
  const cl = layout(c);
  const space = spaceBase(c);
  const primaryChanges = w.statement === 'UPDATE' && set !== undefined && (facts[c].keyColumns ?? []).some((k) => set.includes(k.toLowerCase()));
  if (primaryChanges) assumptions.add(`${w.table}: the UPDATE assigns a primary-key column, which InnoDB carries out as a delete and an insert of the clustered record; the model changes it in place (a lower bound)`);
  const random = new SeededRandom(seedOf([w.table, w.statement, w.rows], draw));
  const splits = changed.map(({ f, l }) => new LeafSplits(leafCapacity(f, pageSize), leafFill(f, pageSize), l.newPages, l.leaves, seedOf([f.reportName, w.rows], draw), fullLeafShare(f, pageSize)));
  // Per row and changed index: [old entry's leaf index, its page, new entry's leaf index, its page, split?].
  const touched = changed.map(() => new Array<[number, number, number, number, boolean]>(w.rows));
  pool.residentHits(FIRST_WRITE_GETS);
  for (let r = 0; r < w.rows; r++) {
    // The record on the leaf the scan holds, re-positioned, and its undo record appended.
    pool.residentHits(1);
    changed.forEach(({ f, l, nearOld }, k) => {
      const oldKey = random.int(Math.max(1, f.leafPages));
      const oldPage = splits[k].pageFor(oldKey);
      descend(pool, l);
      pool.modify(oldPage);
      if (w.statement === 'DELETE') {
        touched[k][r] = [oldKey, oldPage, -1, -1, false];
        return;
      }
      const newKey = nearOld ? oldKey : random.int(Math.max(1, f.leafPages));
      const newPage = splits[k].pageFor(newKey);
      descend(pool, l);
      pool.modify(newPage);
      const added = splits[k].apply(newKey, newPage);
      if (added >= 0) splitLeaf(pool, l, newPage, newKey, added, space);
      touched[k][r] = [oldKey, oldPage, newKey, newPage, added >= 0];
    });
  }
  const names = changed.map(({ f }) => f.reportName).join(', ');
  assumptions.add(
    `${w.table}: ${w.rows.toLocaleString('en-US')} rows ${w.statement === 'DELETE' ? 'deleted' : 'updated'} (${w.rowsFrom ?? 'counted'}), each changed in place in the clustered index with an undo record` +
      (changed.length ? `; ${w.statement === 'DELETE' ? 'its entry delete-marked in' : 'the changed key delete-marked and inserted again in'} ${names}, on a random leaf per row${changed.some((x) => x.nearOld) ? ' (the new key next to the old one, as the SET clause adds to the column)' : ''}; a full leaf splits` : w.statement === 'UPDATE' ? '; no indexed column changes (the SET clause), so no secondary index is touched' : ''),
  );
  if (!w.rolledBack) return true;
  assumptions.add('the rollback reads each undo record, searches the clustered record again and restores it, removes the new secondary entries (merging split pages back) and clears the delete marks, newest row first');
  pool.residentHits(ROLLBACK_GETS);
  for (let r = w.rows - 1; r >= 0; r--) {
    pool.residentHits(1);
    descend(pool, cl);
    pool.residentHits(1);
    changed.forEach(({ l }, k) => {
      const [, oldPage, newKey, newPage, split] = touched[k][r];
      if (newPage >= 0) {
        descend(pool, l);
        pool.modify(newPage);
        if (split) mergeLeaf(pool, l, newPage, newKey, space);
      }
      descend(pool, l);
      pool.modify(oldPage);
    });
  }
  return true;
}
