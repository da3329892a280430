// An inserted row's values stored out of line are the row's own (toast_tuple_externalize): a value the SELECT
// found out of line is read from its chunks (a descent of the TOAST index to its chunk id, its chunks'
// blocks) and saved again under a new chunk id: GetNewOidWithIndex probes the TOAST index for the new id (a
// descent to its right end: ids grow), then each chunk is a heap insert into the TOAST table's target block
// (a new block extended once four have filled it, after a search of its free-space map where it has one)
// and an entry in the TOAST index at its right-most leaf, cached after the first where the index has three
// levels (the fast path of _bt_search_insert), else found by a descent from its root. Measured on the
// schema corpus's seed 101 (794 rows, 8 % of them a 6 kB note): 538 requests of the TOAST table and 805 of
// its index, beside 17,840 in all on run 1; on 100 rows with a 4-chunk value each, 8 and 12 a value.
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import type { PgToastValues } from '../facts';
import { descentPages, indexGeometry, leafBlock, pageId } from '../geometry';
import { toastLayout } from '../toast-layout';
import { HeapTarget } from '../heap-targets';
import { FASTPATH_MIN_HEIGHT, FSM_LEVELS } from '../layout-constants';

/** `counted`: the inserted rows and their out-of-line values, read after the runs; `rows`: the rows this run inserts. */
export function insertOutOfLine(sim: SimulationContext, pool: PostgresPool, t: number, counted: PgToastValues, rows: number, notes: PlanSimulationNotes): void {
  const heap = sim.facts[t];
  const toast = sim.relationIndex('table', heap.toast);
  const index = sim.facts.findIndex((f) => f.kind === 'index' && f.table === heap.toast);
  const values = Math.round((counted.values * rows) / Math.max(1, counted.rows));
  if (values <= 0) return;
  if (toast === undefined || index < 0)
    return void notes.unmodelled.add(`${heap.reportName}: the inserted rows' out-of-line values: the TOAST table's facts are missing`);
  const toastFacts = sim.facts[toast];
  const g = indexGeometry(sim.facts[index]);
  const perValue = counted.chunks / Math.max(1, counted.values);
  const layout = toastLayout(counted.bytes / Math.max(1, counted.values), sim.blockSize);
  const held = Math.max(1, (toastFacts.pages * layout.first.length) / layout.blocks);
  // Chunk rows a block takes: four full ones (TOAST_MAX_CHUNK_SIZE), more of a value's short last chunk.
  const perBlock = Math.max(1, Math.round((perValue * layout.first.length) / layout.blocks));
  // Before each block added: a try of the current one (no bulk insert keeps it pinned), then the free-space
  // map's leaf updated and searched and its root, which finds no room.
  const fsm = (toastFacts.fsmPages ?? 0) > 0;
  let current = toastFacts.pages - 1;
  const beforeExtend = () => {
    pool.access(pageId(toast, current));
    if (fsm) [0, FSM_LEVELS - 1].forEach((l) => pool.access(sim.fsmPageOf(toast, l)));
  };
  const target = new HeapTarget(pool, toast, toastFacts.pages, perBlock, false, beforeExtend);
  notes.assumptions.add(
    `${toastFacts.reportName}: ${values.toLocaleString('en-US')} of the inserted rows' values stored out of line (counted after the runs), ` +
    `${perValue.toFixed(1)} chunks each: ` +
      "each read from its chunks and saved again under a new chunk id, every chunk a row of the TOAST table's last block and an entry at its index's right end",
  );
  const rightmost = g.leafPages - 1;
  let placed = 0;
  for (let j = 0; j < values; j++) {
    // Read where the SELECT found it: spread along the TOAST table, as the rows are along theirs.
    const v = Math.min(held - 1, Math.floor(((j + 0.5) / values) * held));
    const k = v % layout.first.length;
    const first = Math.floor(v / layout.first.length) * layout.blocks + layout.first[k];
    const leaf = Math.min(g.leafPages - 1, Math.floor((v / held) * g.leafPages));
    for (const p of descentPages(index, g, leaf)) pool.access(p);
    pool.access(pageId(index, leafBlock(g, leaf)));
    for (let b = first; b < first + layout.spans[k]; b++) pool.access(pageId(toast, Math.min(toastFacts.pages - 1, b)));
    // The new chunk id's uniqueness probe, then its chunks.
    for (const p of descentPages(index, g, rightmost)) pool.access(p);
    pool.access(pageId(index, leafBlock(g, rightmost)));
    for (let c = 0; c < Math.round(perValue); c++) {
      target.put();
      current = toastFacts.pages + Math.floor(placed++ / perBlock);
      // A TOAST index under three levels has no cached right-most leaf: each entry descends its root.
      if (g.height < FASTPATH_MIN_HEIGHT) for (const p of descentPages(index, g, rightmost)) pool.access(p);
      pool.readBuffer(pageId(index, leafBlock(g, rightmost)), -1, true);
    }
  }
}
