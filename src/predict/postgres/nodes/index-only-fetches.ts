// An index-only scan's heap fetches where the pages it fetched from were read after the runs (the rows on
// pages the visibility map does not mark all-visible, in scan order: fetched-blocks.ts): each fetch from
// another page than the one before is a request (ReleaseAndReadBuffer keeps the pinned page), the rest
// reuse it. Fetches beyond those rows' are dead entries' (versions no snapshot sees), which no view places.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import { pageId } from '../geometry';
import { rowsPerFullPage } from '../heap-layout';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { guess, PG_GUESSES } from '../guesses';

/** Whether the fetches' pages are known for this scan: then fetchedAsRead replaces the modelled route. */
export function fetchedKnown(sim: SimulationContext, n: PlanNode): number[] | undefined {
  if (n.nodeType !== 'Index Only Scan' || !n.relation || n.parallelAware || (n.actualLoops ?? 1) > 1) return undefined;
  const fetched = sim.observed.fetchedBlocks[n.relation];
  return fetched && fetched.length <= (n.heapFetches ?? 0) ? fetched : undefined;
}

export function fetchedAsRead(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, t: number, fetched: number[]): void {
  const f = sim.facts[t];
  let last = -1;
  let changes = 0;
  for (const block of fetched) {
    if (block !== last) {
      pool.access(pageId(t, block));
      changes++;
    }
    last = block;
  }
  notes.assumptions.add(
    `${f.reportName}: ${fetched.length.toLocaleString('en-US')} of the rows scanned are on pages the visibility map does not mark all-visible ` +
      `(pg_visibility, read after the last run), fetched in scan order: ${changes.toLocaleString('en-US')} page changes, one request each`,
  );
  const dead = Math.max(0, (n.heapFetches ?? 0) - fetched.length);
  if (dead === 0) return;
  // A rolled-back write appends its versions in the order its scan met the rows, so one key's dead entries
  // (in heap order) point at consecutive full pages at the table's end; the band also takes a page each.
  const grouped = guess(sim.draw, 'fetchedDeadPages') === PG_GUESSES.fetchedDeadPages.low;
  const perPage = grouped ? (rowsPerFullPage(f, sim.blockSize) ?? 1) : 1;
  const pages = Math.ceil(dead / perPage);
  for (let k = 0; k < pages; k++) pool.access(pageId(t, Math.max(0, f.pages - pages + k)));
  notes.assumptions.add(
    `${f.reportName}: ${dead.toLocaleString('en-US')} heap fetches beyond those rows' went to dead versions, which no view places: ` +
      `taken on the table's last ${pages.toLocaleString('en-US')} blocks, ${perPage} a block (a rolled-back write appends its versions there, ` +
      "a key's in the order its scan wrote them); the range also takes a page each",
  );
}
