// A deleted row's values stored out of line go with it (toast_delete, toast_delete_datum): for each value an
// index scan of the TOAST table's index on its chunk id — a descent to the leaf — that fetches its chunks in
// order (consecutive chunks on one block are one request: the scan keeps the block pinned), and a heap_delete
// of each chunk, a request of its block each, which on an all-visible TOAST page also pins the page's
// visibility-map page and clears the bit (once: a rollback leaves it cleared). Measured on PostgreSQL 15, a
// row with a 6,016-byte value in 4 chunks: 7 requests for the value on runs 2-3 (root, leaf, its block, four
// deletes), 8 on run 1 (the map); 100 such rows, 1,001 requests beside the rows' own 100 on run 1.
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { descentPages, indexGeometry, leafBlock, pageId } from '../geometry';
import { toastChunkBytes, toastLayout } from '../toast-layout';
import { clearedOf } from '../history/dead-versions';
import { visibility } from '../update-trace';

/**
 * `outOfLine`: the deleted rows holding values out of line, as [row, values, chunks] (read after the runs);
 * `rowBlocks`: every deleted row's heap block, where read, which places its values along the TOAST table
 * (values are stored in the order their rows were).
 */
export function deleteOutOfLine(
  sim: SimulationContext,
  pool: PostgresPool,
  t: number,
  outOfLine: Array<[number, number, number]>,
  rowBlocks: number[] | undefined,
  notes: PlanSimulationNotes,
): void {
  const heap = sim.facts[t];
  const toast = sim.relationIndex('table', heap.toast);
  const index = sim.facts.findIndex((f) => f.kind === 'index' && f.table === heap.toast);
  if (outOfLine.length === 0) return;
  if (toast === undefined || index < 0)
    return void notes.unmodelled.add(`${heap.reportName}: the deleted rows' out-of-line values: the TOAST table's facts are missing`);
  const toastFacts = sim.facts[toast];
  const g = indexGeometry(sim.facts[index]);
  const [values, chunks] = outOfLine.reduce(([v, c], [, n, k]) => [v + n, c + k], [0, 0]);
  const perValue = Math.max(1, chunks / Math.max(1, values));
  const layout = toastLayout(perValue * toastChunkBytes(sim.blockSize), sim.blockSize);
  const held = Math.max(1, (toastFacts.pages * layout.first.length) / layout.blocks);
  const cleared = clearedOf(sim, toast);
  const { visibleShare, allVisible } = visibility(toastFacts, cleared);
  notes.assumptions.add(
    `${toastFacts.reportName}: ${values.toLocaleString('en-US')} out-of-line values of the deleted rows (read after the runs), ${perValue.toFixed(1)} ` +
    `chunks each, deleted with them: ` +
      "each its index descent, its chunks' blocks, and a request per chunk deleted" +
        (visibleShare > 0 ? `; ${Math.round(visibleShare * 100)} % of the TOAST pages all-visible, each clearing its bit once` : ''),
  );
  for (const [row, n] of outOfLine) {
    const at = rowBlocks ? Math.min(1, rowBlocks[row] / Math.max(1, heap.pages)) : (row + 0.5) / Math.max(1, outOfLine.length);
    for (let j = 0; j < n; j++) {
      const leaf = Math.min(g.leafPages - 1, Math.floor(at * g.leafPages));
      for (const p of descentPages(index, g, leaf)) pool.access(p);
      pool.access(pageId(index, leafBlock(g, leaf)));
      const v = Math.min(held - 1, Math.floor(at * held) + j);
      const k = v % layout.first.length;
      const first = Math.floor(v / layout.first.length) * layout.blocks + layout.first[k];
      const blockOf = (c: number) => Math.min(toastFacts.pages - 1, first + Math.floor((c * layout.spans[k]) / Math.ceil(perValue)));
      for (let b = first; b < first + layout.spans[k]; b++) pool.access(pageId(toast, Math.min(toastFacts.pages - 1, b)));
      for (let c = 0; c < Math.round(perValue); c++) {
        const b = blockOf(c);
        pool.readBuffer(pageId(toast, b), -1, true);
        if (allVisible(b)) pool.access(sim.vmPageOf(toast, b));
        cleared.add(b);
      }
    }
  }
}
