// Walks a PostgreSQL plan (as executed: rows, loops, workers launched, heap blocks) and hands each node to
// its module under nodes/, which replays the page requests it makes through the PostgreSQL pool model.
// What one run leaves for the next lives in SimulationContext.history. Pure: no database, no vscode.
import type { PlanNode } from '../../shared/report';
import type { PostgresPool } from '../../sim/policies/postgres-clock-sweep';
import { SeededRandom } from '../../sim/random';
import { descentPages, indexGeometry, leafBlock, pageId } from './geometry';
import { findNode, lookupOrder, outerReference } from './lookup-order';
import { HEAP_BLOCKS_PER_VM_PAGE, SimulationContext, type PlanSimulatorOptions } from './simulation-context';
import { liveRows } from './heap-layout';
import type { PlanSimulationNotes } from './simulation-notes';
import { seqScan, participantShares } from './nodes/seq-scan';
import { indexScan } from './nodes/index-scan';
import { indexLeaves } from './nodes/index-leaves';
import { bitmapHeap } from './nodes/bitmap-heap';
import { sortSupport } from './nodes/sort';
import { checkDeadVersions, modify } from './nodes/modify-table';
import { detoast } from './nodes/detoast';
import { toastUses, type ToastUse } from './detoasting';
import { GOLDEN_STEP, RUN_SEED } from './guesses';
import { PG_CALIBRATION } from './calibration';

export { pageId, relationOf } from './geometry';
export { HEAP_BLOCKS_PER_VM_PAGE, type PlanSimulatorOptions, type PostRunObservations } from './simulation-context';
export type { PlanSimulationNotes } from './simulation-notes';

export class PlanSimulator {
  private readonly sim: SimulationContext;
  /** The run's expressions that read out-of-line values again, by the node evaluating them. */
  private toastUses: ToastUse[] = [];

  constructor(options: PlanSimulatorOptions) {
    this.sim = new SimulationContext(options);
  }

  /**
   * What an earlier measurement of the same write left that no statistic shows: the all-visible bits its
   * rolled-back runs cleared (a rollback sets none again), as that measurement's replay `earlier` left them.
   */
  inheritClearedPages(earlier: PlanSimulator): number {
    let pages = 0;
    for (const [t, cleared] of earlier.sim.history.clearedPages) {
      this.sim.history.clearedPages.set(t, new Set(cleared));
      pages += cleared.size;
    }
    return pages;
  }

  /**
   * What planning the statement requests before it runs (counted apart from the run: EXPLAIN reports it as
   * planning's own buffers). A join on two columns has its selectivity estimated from each side's actual
   * lowest and highest value where an index leads with the column (get_actual_variable_range): a descent to
   * the first and to the last leaf, the visibility-map page of the rows found there, and their heap pages
   * where those are not all-visible (measured on PostgreSQL 15: root, first and last leaf, and the map page
   * of both tables of an id = id join cached by planning alone). The run then finds them cached.
   */
  plan(pool: PostgresPool, root: PlanNode, notes: PlanSimulationNotes): void {
    const probed = new Set<number>();
    const probe = (table: string | undefined, column: string) => {
      const t = this.sim.relationIndex('table', table);
      const i = this.sim.facts.findIndex((f) => f.kind === 'index' && f.table === table && f.columns?.[0] === column);
      if (t === undefined || i < 0 || probed.has(i)) return;
      probed.add(i);
      const f = this.sim.facts[i];
      const heap = this.sim.facts[t];
      const g = indexGeometry(f);
      const vm = (block: number) => pageId(this.sim.facts.length + 1 + t, Math.floor(block / HEAP_BLOCKS_PER_VM_PAGE));
      const live = liveRows(heap, this.sim.blockSize, this.sim.draw, { assumptions: new Set(), unmodelled: new Set() });
      const settled = (heap.allVisible ?? 1) >= PG_CALIBRATION.settledPages;
      for (const [leaf, ends] of [
        [0, live.first > 0 ? [0, live.first] : [0]],
        [g.leafPages - 1, live.first > 0 ? [live.first - 1, live.first + live.pages - 1] : [heap.pages - 1]],
      ] as Array<[number, number[]]>) {
        for (const p of descentPages(i, g, leaf)) pool.access(p);
        pool.access(pageId(i, leafBlock(g, leaf)));
        pool.access(vm(ends[ends.length - 1]));
        if (!settled) for (const b of ends) pool.access(pageId(t, Math.max(0, b)));
      }
      notes.assumptions.add(
        `${f.reportName}: planning the join looks up ${column}'s lowest and highest value through it (root, first and last leaf, the map ` +
        `page${settled ? '' : " and the rows' heap pages"}), so the run finds them cached`,
      );
    };
    const walk = (n: PlanNode) => {
      if (n.nodeType === 'Nested Loop' && n.children.length === 2) {
        const inner = findNode(
          n.children[1],
          (c) =>
            (c.nodeType === 'Index Scan' || c.nodeType === 'Index Only Scan' || c.nodeType === 'Bitmap Index Scan') &&
            outerReference(c.indexCond) !== undefined,
        );
        const ref = inner && outerReference(inner.indexCond);
        const source = ref && findNode(n.children[0], (c) => /Scan$/.test(c.nodeType) && (c.alias ?? c.relation) === ref.alias);
        if (inner && ref) {
          // A bitmap index scan names only its index: the table is the index's.
          probe(inner.relation ?? this.sim.facts.find((f) => f.kind === 'index' && f.planName === inner.index)?.table, ref.column);
          if (source?.relation) probe(source.relation, ref.outerColumn);
        }
      }
      n.children.forEach(walk);
    };
    walk(root);
  }

  /** Replays one execution of the plan. The generator is seeded per run, so repeated runs request the same pages. */
  run(pool: PostgresPool, root: PlanNode, notes: PlanSimulationNotes): void {
    this.sim.history.writes = findNode(root, (c) => c.nodeType === 'ModifyTable') !== undefined;
    this.sim.history.deadMet.clear();
    const toast = toastUses(root, (name) => this.sim.facts[this.sim.relationIndex('table', name) ?? -1]?.toastColumns);
    for (const why of toast.unmodelled) notes.unmodelled.add(why);
    this.toastUses = toast.uses;
    this.node(pool, root, notes, new SeededRandom(RUN_SEED + this.sim.draw * GOLDEN_STEP), 1);
    this.sim.history.runsDone++;
  }

  private node(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom, workers: number): void {
    const sim = this.sim;
    const launched = n.nodeType === 'Gather' || n.nodeType === 'Gather Merge' ? (sim.workersOverride ?? n.workersLaunched ?? 0) : undefined;
    const childWorkers = launched ?? workers;
    // Execution order: a hash join builds its hash table from the inner side first.
    const children = n.nodeType === 'Hash Join' ? [...n.children].reverse() : n.children;
    if (n.nodeType === 'Nested Loop' && n.children.length === 2) {
      const inner = findNode(
        n.children[1],
        (c) =>
          (c.nodeType === 'Index Scan' || c.nodeType === 'Index Only Scan' || c.nodeType === 'Bitmap Index Scan') && outerReference(c.indexCond) !== undefined,
      );
      const order = inner && lookupOrder(n.children[0], inner, sim.facts);
      if (inner && order) sim.lookupOrders.set(inner, order);
    }
    switch (n.nodeType) {
      case 'Seq Scan':
        seqScan(sim, pool, n, notes, n.parallelAware ? childWorkers + 1 : 1, sim.workersOverride === undefined ? participantShares(n) : undefined);
        break;
      case 'Index Scan':
      case 'Index Only Scan':
        indexScan(sim, pool, n, notes, rnd);
        break;
      case 'Bitmap Index Scan':
        indexLeaves(sim, pool, n, notes, rnd, (n.actualRows ?? 0) * (n.actualLoops ?? 1));
        break;
      case 'Bitmap Heap Scan':
        bitmapHeap(sim, pool, n, notes, rnd);
        break;
      case 'ModifyTable':
        modify(sim, pool, n, notes, rnd);
        break;
      case 'Sort':
      case 'Incremental Sort':
        sortSupport(sim, pool, n, notes);
        break;
      default:
        if (n.relation || n.index) notes.unmodelled.add(`${n.nodeType} on ${n.relation ?? n.index}: its page requests are left out`);
    }
    if (n.total.tempRead + n.total.tempWritten > 0 && n.self.tempRead + n.self.tempWritten > 0) {
      notes.assumptions.add(`${n.nodeType} spilled to temporary files (${n.self.tempWritten} blocks written): temp I/O bypasses shared buffers`);
    }
    for (const c of children) this.node(pool, c, notes, rnd, childWorkers);
    for (const use of this.toastUses) if (use.node === n) detoast(sim, pool, use, notes);
    if (n.nodeType === 'ModifyTable') checkDeadVersions(sim, pool);
  }
}
