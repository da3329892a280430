// A sort's catalog look-ups on its first execution in the session.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { PG_CALIBRATION } from '../calibration';

/**
 * A sort's first execution in the session looks up each key's sort support function in the catalogs
 * (get_opfamily_proc, a syscache miss: an index descent and a heap page, 3 requests; measured on
 * PostgreSQL 15 and 18 for int, numeric, text and char keys, 6 for two keys, none on later runs). The
 * pages are the catalogs' own, cached since planning read its neighbours: counted as hits.
 */
export function sortSupport(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes): void {
  if (sim.history.runsDone > 0 || !n.sortKeys) return;
  const requests = PG_CALIBRATION.sortSupportRequests * n.sortKeys;
  for (let k = 0; k < requests; k++) pool.repin();
  notes.assumptions.add(
    `${n.nodeType}: its first execution in the session looks up the sort support of its ${n.sortKeys} key(s) in the catalogs, ${requests} cached catalog ` +
    `page request(s)`,
  );
}
