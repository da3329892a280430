// The clustered leaves a write's reads requested, in order: the rows it changes lie on them, and its rollback
// searches each row again from the root down to that leaf (row_undo_search_clust_to_pcur). Taken as cached
// before, a range UPDATE of 2,001 rows in a 14 MiB pool predicted 2,122 pages read where the server read
// 4,038: rolled back newest first, the rows' leaves had left the pool since their lookups. Pure.
import type { IndexPages } from './index-pages';

interface AccessingPool {
  access(page: number): boolean;
}

/** Starts recording `pool`'s requests of `l`'s leaves; `stop` restores the pool and gives them in order. */
export function recordRowLeaves(pool: AccessingPool, l: IndexPages, leafPages: number): { stop: () => number[] } {
  const leaves = new Set<number>();
  for (let k = 0; k < Math.max(1, leafPages); k++) leaves.add(l.leaves(k));
  const requested: number[] = [];
  const own = Object.prototype.hasOwnProperty.call(pool, 'access');
  const original = pool.access;
  pool.access = function (page: number): boolean {
    if (leaves.has(page) && requested[requested.length - 1] !== page) requested.push(page);
    return original.call(this, page);
  };
  return {
    stop: () => {
      if (own) pool.access = original;
      else delete (pool as Partial<AccessingPool>).access;
      return requested;
    },
  };
}

/** Row r of `rows` → the leaf it was found on: the requests spread over the rows in order (a scan holds a leaf for many rows). */
export function leafOfRow(requested: readonly number[], rows: number): ((r: number) => number) | undefined {
  if (requested.length === 0 || rows <= 0) return undefined;
  return (r) => requested[Math.min(requested.length - 1, Math.floor((r * requested.length) / rows))];
}
