// The page requests of PostgreSQL's DELETE, row by row (heap_delete): the old tuple's page, pinned by the
// scan below (a hit that does not raise its usage count); on an all-visible page, the visibility-map page,
// pinned to clear the page's bit (the first delete from the page only: a rollback leaves the bit cleared).
// The index entries stay until VACUUM. Out-of-line values go with their rows (nodes/toast-delete.ts).
import { pageId } from './geometry';
import type { WriteContext } from './write-trace';
import { visibility } from './update-trace';

/**
 * `rowBlocks`: each deleted row's heap block, where read after the runs (else a page at random); `cleared`:
 * the pages whose all-visible bit an earlier run cleared. Returns the pages the delete changes.
 */
export function replayDelete({ pool, heap, rows, notes, rnd, vmPage }: WriteContext, rowBlocks: number[] | undefined, cleared: Set<number>): Set<number> {
  const pages = new Set<number>();
  if (rows <= 0) return pages;
  const { t, f } = heap;
  const { visibleShare, allVisible } = visibility(f, cleared);
  notes.assumptions.add(
    `${f.reportName}: ${rows.toLocaleString('en-US')} rows deleted, each on the page the scan below holds pinned; index entries stay until VACUUM` +
      (rowBlocks ? `; the rows' pages as read after the runs (${new Set(rowBlocks).size.toLocaleString('en-US')} pages)` : ''),
  );
  if (visibleShare > 0)
    notes.assumptions.add(
      `${f.reportName}: ${Math.round(visibleShare * 100)} % of its pages all-visible (pg_class.relallvisible): heap_delete pins the visibility-map page ` +
      `of each such page it deletes from ` +
        "and clears the page's bit, once (a rollback leaves it cleared)",
    );
  for (let r = 0; r < rows; r++) {
    pool.repin();
    const page = rowBlocks?.[r] ?? rnd.int(Math.max(1, f.pages));
    pages.add(page);
    pool.markDirty(pageId(t, page));
    if (allVisible(page)) pool.access(vmPage(page));
    cleared.add(page);
  }
  return pages;
}
