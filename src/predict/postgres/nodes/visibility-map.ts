// The visibility map an index-only scan consults for every entry.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { SeededRandom } from '../../../sim/random';
import { orderedShare, pageId } from '../geometry';
import { HEAP_BLOCKS_PER_VM_PAGE } from '../simulation-context';
import { GOLDEN_STEP, VISIBILITY_SEED } from '../guesses';

/**
 * An index-only scan asks the visibility map about every entry's heap page (visibilitymap_get_status),
 * keeping the map page it last read pinned: a request each time an entry's heap page falls under another
 * map page. One map page covers HEAP_BLOCKS_PER_VM_PAGE heap pages, so a table under that size costs one
 * request per scan, and a larger one, read in random order, about one per entry.
 */
export function visibilityChecks(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, tuples: number, loops: number): void {
  const t = sim.relationIndex('table', n.relation);
  if (t === undefined) return;
  const f = sim.facts[t];
  const idx = sim.relationIndex('index', n.index);
  const c = idx === undefined ? null : (sim.facts[idx].correlation ?? null);
  const ordered = orderedShare(c);
  const vmPages = Math.max(1, Math.ceil(f.pages / HEAP_BLOCKS_PER_VM_PAGE));
  // The map is the table's fork: its pages are simulated apart from every relation's (past the facts).
  const vm = (page: number) => pageId(sim.facts.length + 1 + t, page);
  // Its own generator, so the heap visits draw as they did.
  const rnd = new SeededRandom(VISIBILITY_SEED + t + sim.draw * GOLDEN_STEP);
  const perPage = f.tuples > 0 && f.pages > 0 ? f.tuples / f.pages : 1;
  let requests = 0;
  for (let l = 0; l < loops; l++) {
    let last = -1;
    let position = loops === 1 ? 0 : rnd.int(Math.max(1, f.pages));
    const perLoop = Math.round(tuples / loops);
    for (let k = 0; k < perLoop; k++) {
      let block: number;
      if (vmPages === 1) block = 0;
      else if (rnd.next() < ordered) {
        position += 1 / perPage;
        block = Math.floor(position) % Math.max(1, f.pages);
      } else block = rnd.int(Math.max(1, f.pages));
      const page = Math.floor(block / HEAP_BLOCKS_PER_VM_PAGE);
      if (page !== last) {
        pool.access(vm(page));
        requests++;
        if (vmPages === 1) break;
      }
      last = page;
    }
  }
  notes.assumptions.add(
    `${f.reportName}: visibility map of ${vmPages} page(s) consulted per index entry, ${requests.toLocaleString('en-US')} map page request(s)`,
  );
}
