// What every plan node's replay reads: the relations' facts, the engine's settings, the draw of the band,
// what was observed after the runs, and the state one run leaves for the next. Pure: no database.
import type { PlanNode } from '../../shared/report';
import type { PostgresRingSettings } from '../../sim/postgres-rings';
import type { PgDeadEntries, PgIndexWindow, PgMovedRows, PgRelationFacts, PgToastValues } from './facts';
import type { LookupOrder } from './lookup-order';
import { liveRows, type LiveRows } from './heap-layout';
import { pageId } from './geometry';
import type { PlanSimulationNotes } from './simulation-notes';

import { DEFAULT_BLOCK_SIZE, FORK_SPACE, HEAP_BLOCKS_PER_VM_PAGE } from './layout-constants';

export { HEAP_BLOCKS_PER_VM_PAGE };

/** The engine settings the replay follows. */
export type SimulatedEngine = PostgresRingSettings & { major: number; hintsWalLogged?: boolean };

/**
 * Facts read after the last run, not before run 1: what the runs found (rows' heap blocks, lookups, moved
 * rows, dead entries counted). They are observations of the measured runs, never settings of the engine.
 */
export interface PostRunObservations {
  /** Where a plain SELECT's index scan found its rows, per table (heap-blocks.ts). */
  heapBlocks: Record<string, number[]>;
  /** Where an index-only scan's heap fetches went, per table (fetched-blocks.ts). */
  fetchedBlocks: Record<string, number[]>;
  /** The blocks of a bitmap heap scan's rows, per table (bitmap-blocks.ts). */
  bitmapBlocks: Record<string, number[]>;
  /** The indexes an INSERT … SELECT appends to (appended-keys.ts). */
  appendedKeys: string[];
  /** Leaves of an earlier write's dead entries past the inserted keys, per appended index (dead-past-inserted.ts). */
  deadPastInserted: Record<string, number>;
  /** A nested loop's lookups as they ran, per inner table (lookup-rows.ts). */
  lookupRows: Record<string, { keys?: number[]; blocks: number[] }>;
  /** The rows around a secondary index's scan, per index (index-window.ts). */
  indexWindows: Record<string, PgIndexWindow>;
  /** Where a single index scan starts along its index, per index and condition (key-fraction.ts). */
  startFractions: Record<string, number>;
  /** Rows an index scan visits that an update moved, per table (moved-rows.ts). */
  movedRows: Record<string, PgMovedRows>;
  /** Dead entries a SELECT's index scan meets on every run, per table (dead-entries.ts). */
  deadEntries: Record<string, PgDeadEntries>;
  /** Dead entries counted after a rolled-back write's runs, per table: the band's run 1 meets them. */
  writeDeadEntries: Record<string, PgDeadEntries>;
  /** Which of a scan's rows hold a column out of line, per scan and column (toast-values.ts). */
  toastValues: Record<string, PgToastValues>;
  /** The heap block of each row an UPDATE or DELETE wrote, in its scan's order, per table (written-rows.ts). */
  writtenBlocks: Record<string, number[]>;
  /** Each written row's position along each index of an UPDATE's table, in its scan's order, per index (key-positions.ts). */
  writtenKeyPositions: Record<string, number[]>;
  /** The rows of an INSERT … SELECT that satisfy each partial index's predicate, per index (partial-entries.ts). */
  partialEntries: Record<string, number>;
  /** A DELETE's rows holding values out of line, as [row, values, chunks], per table (written-rows.ts). */
  writtenOutOfLine: Record<string, Array<[number, number, number]>>;
  /** An INSERT … SELECT's rows and their values stored out of line, per table (inserted-values.ts). */
  insertedOutOfLine: Record<string, PgToastValues>;
}

export interface PlanSimulatorOptions {
  facts: PgRelationFacts[];
  engine: SimulatedEngine;
  /** Which draw of what the model guesses: 0 is the one shown, the others give the band. */
  draw?: number;
  /** A what-if's number of parallel workers, in place of those launched. */
  workersOverride?: number;
  /** An UPDATE's assigned columns, for the HOT rule. */
  updatedColumns?: string[];
  observed?: Partial<PostRunObservations>;
  /** The relations' blocks cached dirty before run 1, as [relation index, block]. */
  dirtyBlocks?: Array<[number, number]>;
}

/** What one run of the statement leaves for the next: the versions a rolled-back write left, and what was marked. */
export class RunHistory {
  /** Runs replayed so far: the dead versions a run meets depend on what the runs before it left. */
  runsDone = 0;
  /** The plan being replayed writes: its rolled-back entries change the leaves it scans. */
  writes = false;
  /** Per table: the aborted versions per updated row that the previous rolled-back run left, with index entries. */
  readonly leftovers = new Map<number, number>();
  /** Per table: the free-space map's blocks earlier runs' new versions took. */
  readonly freeUsed = new Map<number, number>();
  /** Per table: where the previous run put the version of its r-th row. */
  readonly leftoverPlace = new Map<number, (r: number) => number>();
  /** The same for the run before the previous one (a version in a posting list no run marks). */
  readonly olderLeftoverPlace = new Map<number, (r: number) => number>();
  /** Per table: the blocks of the dead versions a write's scan met in this run, in order. */
  readonly deadMet = new Map<number, number[]>();
  /** The dead versions a write's uniqueness checks visit, replayed once its scan has met them. */
  deadChecks: { t: number; count: number } | undefined;
  /** Per table: pages an earlier run's update cleared the all-visible bit of (write-trace.ts). */
  readonly clearedPages = new Map<number, Set<number>>();
  /** Per table: the moved rows' rank marks, the same every run. */
  readonly movedRankMarks = new Map<string, Uint8Array>();
  /**
   * Per table: the heap pages this run's write changes, which the scan below it dirties as it returns their
   * rows (the write runs before its scan in the replay, so the scan reads them from here).
   */
  readonly writtenPages = new Map<number, Set<number>>();
  /** Tables whose pages of dead versions a replayed scan has pruned. */
  readonly pruned = new Set<number>();
}

export class SimulationContext {
  readonly facts: PgRelationFacts[];
  readonly engine: SimulatedEngine;
  readonly draw: number;
  readonly workersOverride: number | undefined;
  readonly updatedColumns: string[] | undefined;
  readonly observed: PostRunObservations;
  readonly history = new RunHistory();
  /** A nested loop's inner index scans: in which order the outer rows ask them for keys. */
  readonly lookupOrders = new Map<PlanNode, LookupOrder>();
  /** Per relation: its blocks cached dirty before run 1. */
  readonly dirty = new Map<number, number[]>();
  private readonly byName = new Map<string, number>();

  constructor(options: PlanSimulatorOptions) {
    this.facts = options.facts;
    this.engine = options.engine;
    this.draw = options.draw ?? 0;
    this.workersOverride = options.workersOverride;
    this.updatedColumns = options.updatedColumns;
    const o = options.observed ?? {};
    this.observed = {
      heapBlocks: o.heapBlocks ?? {},
      fetchedBlocks: o.fetchedBlocks ?? {},
      bitmapBlocks: o.bitmapBlocks ?? {},
      appendedKeys: o.appendedKeys ?? [],
      deadPastInserted: o.deadPastInserted ?? {},
      lookupRows: o.lookupRows ?? {},
      indexWindows: o.indexWindows ?? {},
      startFractions: o.startFractions ?? {},
      movedRows: o.movedRows ?? {},
      deadEntries: o.deadEntries ?? {},
      writeDeadEntries: o.writeDeadEntries ?? {},
      toastValues: o.toastValues ?? {},
      writtenBlocks: o.writtenBlocks ?? {},
      writtenKeyPositions: o.writtenKeyPositions ?? {},
      partialEntries: o.partialEntries ?? {},
      writtenOutOfLine: o.writtenOutOfLine ?? {},
      insertedOutOfLine: o.insertedOutOfLine ?? {},
    };
    this.facts.forEach((f, i) => this.byName.set(`${f.kind}:${f.planName}`, i));
    for (const [r, block] of options.dirtyBlocks ?? []) {
      const blocks = this.dirty.get(r) ?? [];
      blocks.push(block);
      this.dirty.set(r, blocks);
    }
  }

  get blockSize(): number {
    return this.engine.blockSize ?? DEFAULT_BLOCK_SIZE;
  }

  relationIndex(kind: 'table' | 'index', name: string | undefined): number | undefined {
    return name === undefined ? undefined : this.byName.get(`${kind}:${name}`);
  }

  /** The live rows of table t as this draw places them; notes default to a throw-away set. */
  liveRowsOf(t: number, notes: PlanSimulationNotes = { assumptions: new Set(), unmodelled: new Set() }): LiveRows {
    return liveRows(this.facts[t], this.blockSize, this.draw, notes);
  }

  /**
   * The simulated page ids of the relations' forks, each in a space past the facts: the visibility map's
   * page covering a heap block, the free-space map's page of a level, and the sequence page inserts ask.
   */
  vmPageOf(t: number, block: number): number {
    return pageId(FORK_SPACE.vm * (this.facts.length + 1) + t, Math.floor(block / HEAP_BLOCKS_PER_VM_PAGE));
  }

  fsmPageOf(t: number, level: number): number {
    return pageId(FORK_SPACE.fsm * (this.facts.length + 1) + t, level);
  }

  sequencePage(): number {
    return pageId(FORK_SPACE.sequence * (this.facts.length + 1), 0);
  }
}
