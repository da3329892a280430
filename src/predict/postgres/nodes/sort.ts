// A sort's catalog look-ups on its first execution in the session.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';

/**
 * A sort's first execution in the session looks up each key's sort support function in the catalogs
 * (get_opfamily_proc, a syscache miss: an index descent and a heap page, 3 requests; measured on
 * PostgreSQL 15 and 18 for int, numeric, text and char keys, 6 for two keys, none on later runs). The
 * pages are the catalogs' own, cached since planning read its neighbours: counted as hits.
 */
export function sortSupport(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes): void {
  if (sim.history.runsDone > 0 || !n.sortKeys) return;
  for (let k = 0; k < 3 * n.sortKeys; k++) pool.repin();
  notes.assumptions.add(
    `${n.nodeType}: its first execution in the session looks up the sort support of its ${n.sortKeys} key(s) in the catalogs, ${3 * n.sortKeys} cached catalog page request(s)`,
  );
}
