// Reading out-of-line values again (detoasting.ts finds where): each value is an index scan of its own on
// the TOAST table's index (chunk_id, chunk_seq) — a descent from the root to the leaf of its chunk id — and
// a fetch of its chunks, which lie one after another in the TOAST table's blocks (consecutive chunks on one
// block are one request: the scan keeps the block pinned). Measured on PostgreSQL 15: 3,000 rows, 2,000 of
// them out of line in 3.4 chunks each, a full scan filtering on length(doc) requested 7,000 pages beyond its
// heap (3.5 a value: root, leaf and 1.5 blocks of chunks). TOAST rows are taken in the table's row order,
// as rows and their values are stored together.
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { descentPages, indexGeometry, leafBlock, pageId } from '../geometry';
import { toastKey, type ToastUse } from '../detoasting';
import { startFractionKey } from '../facts';
import { GOLDEN_FRACTION, guess } from '../guesses';
import { toastLayout } from '../toast-layout';
import { PG_CALIBRATION } from '../calibration';
import { TOAST_CHUNK_ID_FROM_MAJOR } from '../layout-constants';

export function detoast(sim: SimulationContext, pool: PostgresPool, use: ToastUse, notes: PlanSimulationNotes): void {
  const what = `${use.node.nodeType}: ${use.column}'s out-of-line values read again by its ${use.where}`;
  const t = sim.relationIndex('table', use.scan.relation);
  const table = t === undefined ? undefined : sim.facts[t];
  const toast = sim.relationIndex('table', table?.toast);
  const index = sim.facts.findIndex((f) => f.kind === 'index' && f.table === table?.toast);
  const observed = sim.observed.toastValues[toastKey(use)];
  if (!table || toast === undefined || index < 0) return void notes.unmodelled.add(`${what}: the TOAST table's facts are missing; not modelled`);
  // An empty TOAST table: no value of the table is stored out of line.
  if (sim.facts[toast].pages === 0) return;
  if (!observed) return void notes.unmodelled.add(`${what}: which rows hold them was not read after the runs; not modelled`);
  if (observed.values === 0) return;
  // A later clause's rows as the server counted them (rowsHigh: every row the scan read); else the guess.
  const counted = use.before !== undefined && observed.scanned > 0;
  const rows = counted ? (use.rowsHigh * observed.rows) / observed.scanned : guess(sim.draw, 'filterReach') === 0 ? use.rows : use.rowsHigh;
  const values = Math.round((rows * observed.values) / Math.max(1, observed.rows));
  const perValue = observed.chunks / observed.values;
  const toastFacts = sim.facts[toast];
  const layout = toastLayout(observed.bytes / observed.values, sim.blockSize);
  // How many values the TOAST table holds laid out so: a position along the table is a value's number.
  const held = Math.max(1, (toastFacts.pages * layout.first.length) / layout.blocks);
  const g = indexGeometry(sim.facts[index]);
  // Values far apart sample the layout's cycle at one stride, which can land on its long values only: their
  // place in the cycle is spread evenly instead (golden-ratio steps); values side by side follow it.
  const sparse = held / Math.max(1, values) >= 2;
  positions(sim, use, table.pages, values, notes).forEach((at, j) => {
    const leaf = Math.min(g.leafPages - 1, Math.floor(at * g.leafPages));
    for (const p of descentPages(index, g, leaf)) pool.access(p);
    pool.access(pageId(index, leafBlock(g, leaf)));
    const v = Math.min(held - 1, Math.floor(at * held));
    const cycle = Math.floor(v / layout.first.length);
    const k = sparse ? Math.floor(((j * GOLDEN_FRACTION) % 1) * layout.first.length) : v % layout.first.length;
    const first = cycle * layout.blocks + layout.first[k];
    for (let b = first; b < first + layout.spans[k]; b++) pool.access(pageId(toast, Math.min(toastFacts.pages - 1, b)));
  });
  if (counted) {
    notes.assumptions.add(`${what}: a later clause of its filter, on the ${Math.round(rows).toLocaleString('en-US')} rows the clauses before it let through`);
  } else if (use.rows !== use.rowsHigh) {
    notes.assumptions.add(
      `${what}: a later clause of its filter, taken on the ${use.rows.toLocaleString('en-US')} rows it returned (the range: all ` +
        `${use.rowsHigh.toLocaleString('en-US')} it read)`,
    );
  }
  notes.assumptions.add(
    `${toastFacts.reportName}: ${values.toLocaleString('en-US')} out-of-line values of ${use.column} read again by ${use.node.nodeType} ` +
      `(${observed.values.toLocaleString('en-US')} of the scan's ${observed.rows.toLocaleString('en-US')} rows hold one, ${perValue.toFixed(1)} chunks ` +
      `each${sim.engine.major < TOAST_CHUNK_ID_FROM_MAJOR ? ', out of line where stored larger than a chunk' : ''}): each its index descent and its ` +
      `chunks' blocks`,
  );
}

/** Where along the table (0–1) the values' rows lie, in the order they are read. */
function positions(sim: SimulationContext, use: ToastUse, tablePages: number, values: number, notes: PlanSimulationNotes): number[] {
  if (values <= 0) return [];
  const blocks = (use.scan.nodeType === 'Bitmap Heap Scan' ? sim.observed.bitmapBlocks : sim.observed.heapBlocks)[use.scan.relation!];
  const spread = (start: number, span: number) => Array.from({ length: values }, (_, j) => Math.min(1, start + ((j + 0.5) / values) * span));
  const f = sim.facts[sim.relationIndex('table', use.scan.relation)!];
  const read = ((use.scan.actualRows ?? 0) + (use.scan.rowsRemovedByFilter ?? 0)) * Math.max(1, use.scan.actualLoops ?? 1);
  const span = Math.min(1, f.tuples > 0 ? read / f.tuples : 1);
  if (use.scan.nodeType === 'Seq Scan') return spread(0, span);
  // Rows in heap order lie together, and so do their values: one run from the first row's block. Rows
  // anywhere have their values anywhere: each at its own block (a block holds many rows, so one run of
  // the TOAST table's blocks is no finer than that).
  // A bitmap heap scan reads its rows in block order, wherever the blocks are: their values lie as they do.
  if (blocks?.length && use.scan.nodeType === 'Bitmap Heap Scan') return atBlocks(blocks, values, tablePages);
  if (blocks?.length && use.scan.nodeType === 'Index Scan') {
    const ascending = blocks.filter((b, i) => i > 0 && b >= blocks[i - 1]).length;
    if (ascending >= PG_CALIBRATION.toastRowsInOrder * (blocks.length - 1)) return spread(blocks[0] / Math.max(1, tablePages), span);
    return atBlocks(blocks, values, tablePages);
  }
  const start = use.scan.index && use.scan.indexCond ? sim.observed.startFractions[startFractionKey(use.scan.index, use.scan.indexCond)] : undefined;
  notes.assumptions.add(
    `${f.reportName}: the rows whose out-of-line values are read again taken as one run of the table ` +
    `${start === undefined ? 'in its middle' : "from the scan's first key"}`,
  );
  return spread(start ?? Math.max(0, 0.5 - span / 2), span);
}

/** The values spread over the blocks their rows were read from, in that order (0–1 along the table). */
const atBlocks = (blocks: number[], values: number, tablePages: number): number[] =>
  Array.from({ length: values }, (_, j) => blocks[Math.floor(((j + 0.5) * blocks.length) / values)] / Math.max(1, tablePages));
