// How many of a run's updated rows the server updated in place (HOT: the new version on the same page, no
// index entry). Whether a full page has room for a new version depends on the dead versions pruning
// removes from it, which no view shows before run 1; the server counts each HOT update at once, outside
// the transaction's own bookkeeping (pgstat_count_heap_update), so the count read in the run's transaction
// before and after the statement tells the run's own, rolled back or not. The reads touch the backend's
// own statistics only, no page of the tables.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';

export type HotCounts = Map<string, number>;

/** The HOT updates counted so far in this backend, per table (by the name EXPLAIN prints). */
export async function readHotCounts(client: Client, tableOids: number[]): Promise<HotCounts> {
  if (tableOids.length === 0) return new Map();
  const res = await client.query<{ name: string; hot: string }>({
    text: 'SELECT c.relname AS name, pg_stat_get_xact_tuples_hot_updated(c.oid) AS hot FROM pg_class c WHERE c.oid = ANY($1::oid[])',
    values: [tableOids],
  });
  // Two tables of one name in different schemas: which one EXPLAIN's name means is not told, so neither.
  const counts: HotCounts = new Map();
  const twice = new Set<string>();
  for (const r of res.rows) {
    if (counts.has(r.name)) twice.add(r.name);
    counts.set(r.name, Number(r.hot));
  }
  for (const name of twice) counts.delete(name);
  return counts;
}

/** Sets each UPDATE node's count of rows updated in place: the difference the run made. */
export function attachHotUpdates(root: PlanNode, before: HotCounts, after: HotCounts): void {
  const visit = (n: PlanNode): void => {
    if (n.nodeType === 'ModifyTable' && n.operation === 'Update' && n.relation !== undefined) {
      const [b, a] = [before.get(n.relation), after.get(n.relation)];
      if (a !== undefined && b !== undefined && a >= b) n.hotUpdated = a - b;
    }
    n.children.forEach(visit);
  };
  visit(root);
}
